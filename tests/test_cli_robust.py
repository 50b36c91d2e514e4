"""The command line under bad input and a hostile environment, run as a user runs it (a subprocess).

Each failure is one line on stderr and a non-zero exit, never a traceback; stdin lines after a bad
one are still translated; a terminated or killed run leaves no temporary file behind for good.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from fanyi import fsutil
from fanyi.engine.translator import Translator

FANYI = [sys.executable, "-m", "fanyi"]


def lines_of(stderr: bytes | str) -> list[str]:
    text = stderr.decode() if isinstance(stderr, bytes) else stderr
    return [line for line in text.splitlines() if line.strip()]


def assert_one_line(stderr, *expected):
    lines = lines_of(stderr)
    assert len(lines) == 1, lines
    assert "Traceback" not in lines[0] and all(part in lines[0] for part in expected), lines[0]


@pytest.fixture(scope="module")
def expected(tiny_pack):
    return Translator.open(tiny_pack, threads=1).translate


def test_a_closed_pipe_is_one_line(tiny_pack):
    process = subprocess.Popen(
        [*FANYI, "translate", "--model", str(tiny_pack)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    process.stdin.write(b"First line.\n")
    process.stdin.flush()
    assert process.stdout.readline()  # like `head -1`: one line, then the pipe is closed
    process.stdout.close()
    process.stdin.write(b"Second line.\nThird line.\n")
    process.stdin.close()
    stderr = process.stderr.read()
    assert process.wait(300) != 0
    assert_one_line(stderr, "broken pipe")
    assert b"Exception ignored" not in stderr


@pytest.mark.skipif(not os.path.exists("/dev/full"), reason="needs /dev/full")
@pytest.mark.parametrize("command", ["translate", "file"])
def test_a_full_stdout_is_one_line(tiny_pack, tmp_path, command):
    source = tmp_path / "a.txt"
    source.write_text("Thank you.\n", encoding="utf-8")  # one the tiny model does not loop on
    args = ["Good morning."] if command == "translate" else [str(source)]
    with open("/dev/full", "w") as full:
        result = subprocess.run(
            [*FANYI, command, "--model", str(tiny_pack), *args], stdout=full, stderr=subprocess.PIPE, timeout=300
        )
    assert result.returncode != 0
    # `fanyi file` also writes its progress, a plain line per tenth into this pipe
    error = [line for line in lines_of(result.stderr) if not re.fullmatch(r"a\.txt: \d+/\d+", line)]
    assert len(error) == 1 and "No space left on device" in error[0] and "Traceback" not in result.stderr.decode()


@pytest.mark.parametrize(
    "bad",
    [b"Caf\xe9 au lait.", b"Lone \xed\xa0\x80 surrogate.", b"Cut \xe4\xbd"],
    ids=["latin-1 byte", "encoded surrogate", "truncated sequence"],
)
def test_a_bad_stdin_line_is_reported_and_the_others_translated(tiny_pack, expected, bad):
    result = subprocess.run(
        [*FANYI, "translate", "--model", str(tiny_pack)],
        input=b"Good morning.\n" + bad + b"\nSee you soon.\n",
        capture_output=True,
        timeout=300,
    )
    assert result.returncode == 1
    assert_one_line(result.stderr, "line 2 of the input is not valid", "skipped")
    assert result.stdout.decode().split("\n") == [expected("Good morning."), "", expected("See you soon."), ""]


@pytest.mark.skipif(os.name == "nt", reason="bytes in argv")
def test_an_undecodable_argument_is_reported_and_the_others_translated(tiny_pack, expected):
    result = subprocess.run(
        [*FANYI, "translate", "--model", str(tiny_pack), b"Caf\xe9.", "Good morning."], capture_output=True, timeout=300
    )
    assert result.returncode == 1
    assert_one_line(result.stderr, "argument 1 is not valid text", "skipped")
    assert result.stdout.decode().split("\n") == ["", expected("Good morning."), ""]


def _run_python(code: str, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=300)


def test_memory_errors_are_one_line(tiny_pack, tmp_path):
    source = tmp_path / "a.txt"
    source.write_text("Hello there.\n", encoding="utf-8")
    code = """if True:
        import sys
        from fanyi import cli
        from fanyi.documents import txt
        from fanyi.engine.translator import Translator

        def exhausted(*args, **kwargs):
            raise MemoryError

        txt.parse = exhausted
        Translator.translate = Translator.translate_results = exhausted
        sys.exit(cli.main(sys.argv[1:]))
    """
    document = _run_python(code, "file", "--model", str(tiny_pack), str(source))
    assert document.returncode == 1
    assert_one_line(document.stderr, "a.txt needs more memory than is free; nothing was written.")
    text = _run_python(code, "translate", "--model", str(tiny_pack), "Hello.")
    assert text.returncode == 1
    assert_one_line(text.stderr, "out of memory")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt"]


def _start_long_job(tiny_pack, folder):
    source = folder / "long.txt"
    source.write_text("".join(f"Paragraph {n} of a long document.\n\n" for n in range(3000)), encoding="utf-8")
    job = subprocess.Popen(
        [*FANYI, "file", "--model", str(tiny_pack), str(source)], stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    deadline = time.monotonic() + 240
    while not list(folder.glob(f"*{fsutil.TEMP_SUFFIX}")):  # wait until it is writing its output
        assert job.poll() is None and time.monotonic() < deadline, job.communicate()
        time.sleep(0.05)
    return job, source


@pytest.mark.skipif(os.name == "nt", reason="POSIX signals")
def test_sigterm_mid_document_cancels_cleanly(tiny_pack, tmp_path):
    job, source = _start_long_job(tiny_pack, tmp_path)
    job.send_signal(signal.SIGTERM)
    _, stderr = job.communicate(timeout=120)
    assert job.returncode == 128 + signal.SIGTERM  # 143, as a shell reports a process SIGTERM ended
    error = [line for line in lines_of(stderr) if not re.fullmatch(r"long\.txt: \d+/\d+", line)]  # progress
    assert error == [f"cancelled: nothing was written for {source}."], stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.txt"]


@pytest.mark.skipif(os.name == "nt", reason="POSIX signals")
@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
def test_a_signal_while_starting_ends_with_128_plus_its_number_and_one_word(name):
    """SIGTERM or SIGINT during start-up (the imports before a command takes the signals over) exited 2, or 130
    for both; a shell reports 130 for Ctrl+C and 143 for SIGTERM."""
    number = getattr(signal, name)
    code = f"""
import os, signal, sys, time
sys.argv = ["fanyi", "translate", "Hello."]
from fanyi.terminal import exit_quietly_on_signals
exit_quietly_on_signals()  # what fanyi.__main__.run does first
os.kill(os.getpid(), {int(number)})
time.sleep(30)
"""
    started = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert started.returncode == 128 + number
    assert started.stderr == "cancelled\n"


@pytest.mark.skipif(os.name == "nt", reason="POSIX signals")
@pytest.mark.parametrize("name", ["SIGINT", "SIGTERM"])
def test_a_signal_while_a_command_waits_for_input_ends_with_128_plus_its_number(tiny_pack, name):
    number = getattr(signal, name)
    job = subprocess.Popen(
        [*FANYI, "translate", "--model", str(tiny_pack)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert job.stdin is not None and job.stdout is not None
    job.stdin.write("Hello.\n")
    job.stdin.flush()
    assert job.stdout.readline()  # translated: the command now waits for the next line
    job.send_signal(number)
    _, stderr = job.communicate(timeout=120)
    assert job.returncode == 128 + number
    assert lines_of(stderr) == ["cancelled"]


@pytest.mark.skipif(os.name == "nt", reason="POSIX signals")
def test_a_signal_that_a_library_reports_as_its_own_failure_is_still_a_cancel(tiny_pack):
    """SIGTERM landing inside ONNX Runtime's initialisation came out as "fanyi: encoder.onnx cannot be loaded:
    initialization failed", exit 2."""
    code = """
import os, signal, sys
from fanyi import cli
from fanyi.engine import PackError

def interrupted(pack, threads=None):
    try:
        os.kill(os.getpid(), signal.SIGTERM)  # the command's handler raises KeyboardInterrupt here
    except KeyboardInterrupt:
        raise PackError(f"{pack}/encoder.onnx cannot be loaded: initialization failed") from None

cli._open_translator = interrupted
sys.exit(cli.main(sys.argv[1:]))
"""
    run = _run_python(code, "translate", "--model", str(tiny_pack), "Hello.")
    assert run.returncode == 128 + signal.SIGTERM
    assert lines_of(run.stderr) == ["cancelled"]


@pytest.mark.skipif(os.name == "nt", reason="the Linux bundle's launcher (a Windows shell refuses a folder as input)")
def test_a_folder_as_the_input_is_one_line_and_status_2_from_the_launcher(tmp_path):
    """`fanyi translate < some_directory` died with a four-line "Fatal Python error: init_sys_streams": Python
    stops before any of Fanyi runs, so the Linux tarball's and AppImage's launcher (packaging/linux/fanyi.sh,
    in front of the PyInstaller executable fanyi-bin) says it in one line."""
    import shutil

    bundle = tmp_path / "Fanyi-linux"
    bundle.mkdir()
    shutil.copy(Path(__file__).resolve().parents[1] / "packaging" / "linux" / "fanyi.sh", bundle / "fanyi")
    (bundle / "fanyi").chmod(0o755)
    (bundle / "fanyi-bin").symlink_to(Path(sys.executable).resolve())  # this Python stands in for the bundle
    app_run = tmp_path / "AppRun"  # the AppImage's entry point, and a user's ~/.local/bin/fanyi, link to it
    app_run.symlink_to(bundle / "fanyi")
    folder = tmp_path / "some_directory"
    folder.mkdir()
    stdin = os.open(folder, os.O_RDONLY)  # the directory, as a shell's "<" opens it
    try:
        refused = subprocess.run([str(app_run), "translate"], stdin=stdin, capture_output=True, text=True)
    finally:
        os.close(stdin)
    assert refused.returncode == 2 and refused.stdout == ""
    assert_one_line(refused.stderr, "fanyi: the input is a folder, not text")
    report = "import sys; print(sys.argv[1:], sys.stdin.read())"
    ran = subprocess.run([str(app_run), "-c", report, "translate", "Hi"], input="text", capture_output=True, text=True)
    assert (ran.returncode, ran.stdout) == (0, "['translate', 'Hi'] text\n"), ran.stderr


@pytest.mark.skipif(os.name == "nt", reason="kill -9")
def test_the_temporary_of_a_killed_run_is_swept_by_the_next_run_in_that_folder(tiny_pack, tmp_path):
    job, _ = _start_long_job(tiny_pack, tmp_path)
    job.kill()
    job.communicate(timeout=60)
    [temporary] = tmp_path.glob(f"*{fsutil.TEMP_SUFFIX}")
    old = time.time() - fsutil.STALE_AFTER - 1
    os.utime(temporary, (old, old))  # as if STALE_AFTER had passed
    short = tmp_path / "short.txt"
    short.write_text("Thank you.\n", encoding="utf-8")  # one the tiny model does not loop on
    result = subprocess.run([*FANYI, "file", "--model", str(tiny_pack), str(short)], capture_output=True, timeout=300)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["long.txt", "short.txt", "short.zh.txt"]


def test_an_exception_of_pdfminer_is_one_line(tiny_pack, tmp_path):
    sys.path.insert(0, str(Path(__file__).parent / "documents"))
    from docfixtures import make_pdf

    broken = tmp_path / "broken.pdf"  # pdfminer fails an assert on this trailer
    broken.write_bytes(make_pdf([["Hello there."]]).replace(b"trailer\n", b"trailerH\x05\n"))
    result = subprocess.run([*FANYI, "file", "--model", str(tiny_pack), str(broken)], capture_output=True, timeout=300)
    assert result.returncode == 1
    assert_one_line(result.stderr, f"error: {broken} is not a readable PDF: it is damaged or truncated (AssertionError")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["broken.pdf"]
