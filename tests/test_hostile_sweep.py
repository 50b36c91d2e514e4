"""What a 236-case hostile sweep of the whole program found (issue 21), each answered in one line:
long names, read-only folders, signals during start-up, redirect loops, one enormous line, and zip
member names in translated documents."""

from __future__ import annotations

import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

FANYI = [sys.executable, "-m", "fanyi"]


def lines_of(stderr: bytes | str) -> list[str]:
    text = stderr.decode() if isinstance(stderr, bytes) else stderr
    return [line for line in text.splitlines() if line.strip()]


def assert_one_line(stderr, *expected) -> None:
    lines = lines_of(stderr)
    assert len(lines) == 1, lines
    assert "Traceback" not in lines[0] and all(part in lines[0] for part in expected), lines[0]


def user(tmp_path: Path) -> dict:
    return {
        "FANYI_DATA_DIR": str(tmp_path / "data"),
        "FANYI_CONFIG_DIR": str(tmp_path / "config"),
        "FANYI_MODELS_DIR": str(tmp_path / "no-bundled-packs"),
    }


def run(args: list[str], env: dict, **kwargs) -> subprocess.CompletedProcess:
    return subprocess.run(args, capture_output=True, text=True, timeout=300, env={**os.environ, **env}, **kwargs)


def test_a_pack_with_a_name_too_long_for_a_folder_is_refused_in_one_line(tiny_pack, tmp_path):
    pack = tmp_path / "long-name-pack"
    shutil.copytree(tiny_pack, pack)
    manifest = json.loads((pack / "manifest.json").read_text(encoding="utf-8"))
    manifest["name"] = "翻" * 200  # 600 bytes as UTF-8: no file system takes it as a folder name
    (pack / "manifest.json").write_text(json.dumps(manifest, ensure_ascii=False), encoding="utf-8")
    result = run([*FANYI, "models", "import", str(pack)], user(tmp_path))
    assert result.returncode == 2
    assert_one_line(
        result.stderr, "is refused: the pack's name", "it is too long for a file name (600 bytes as UTF-8; at most 200)"
    )


def test_a_read_only_data_folder_is_one_line(tiny_pack, tmp_path):
    env = user(tmp_path)
    # a read-only file system, as a non-root user or a read-only mount sees it (tests may run as root)
    code = f"""
import errno, os, sys
real = os.mkdir
def read_only(path, *args, **kwargs):
    if str(path).startswith({env["FANYI_DATA_DIR"]!r}):
        raise OSError(errno.EROFS, os.strerror(errno.EROFS), str(path))
    return real(path, *args, **kwargs)
os.mkdir = read_only
from fanyi.cli import main
sys.exit(main(["models", "import", {str(tiny_pack)!r}]))
"""
    result = run([sys.executable, "-c", code], env)
    assert result.returncode == 2
    assert_one_line(result.stderr, f"cannot install into {tmp_path / 'data'}", "Read-only file system")


def test_a_source_name_near_the_limit_still_gets_an_output(tiny_pack, tmp_path):
    stem = "天" * 83  # 249 bytes: "<stem>.txt" fits in 255, "<stem>.zh.txt" would not
    source = tmp_path / f"{stem}.txt"
    source.write_text("The weather is fine today.\n", encoding="utf-8")
    for _ in range(2):  # the second run gets a numbered name, fitted too
        result = run([*FANYI, "file", "--model", str(tiny_pack), str(source)], user(tmp_path))
        assert result.returncode == 0, result.stderr
    outputs = sorted((p.name for p in tmp_path.iterdir() if p.name != source.name and p.is_file()), key=len)
    assert len(outputs) == 2 and outputs[0].endswith("天.zh.txt") and outputs[1].endswith("天.zh.1.txt")
    assert all(len(name.encode()) <= 255 and name.startswith("天" * 80) for name in outputs)


@pytest.mark.skipif(os.name == "nt", reason="POSIX signals")
@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
@pytest.mark.parametrize("delay", [0.0, 0.05, 0.15, 0.3, 0.6])
def test_a_signal_during_start_up_is_one_word(tiny_pack, tmp_path, signum, delay):
    """From the moment fanyi's own code runs (Python's own start-up before it is out of reach), through
    the imports of numpy and ONNX Runtime, to the translation: "cancelled", exit 128 + the signal's number (130
    for SIGINT, 143 for SIGTERM, as a shell reports it), no traceback."""
    process = subprocess.Popen(
        [sys.executable, "-X", "importtime", "-m", "fanyi", "translate", "--model", str(tiny_pack), "Good morning."],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **user(tmp_path)},
    )
    seen: list[str] = []
    for line in process.stderr:  # -X importtime reports each module as its import ends: the first one after
        seen.append(line)  # fanyi.terminal is imported after __main__ took the signals over
        if any(earlier.split("|")[-1].strip() == "fanyi.terminal" for earlier in seen[:-1]):
            break
    time.sleep(delay)
    process.send_signal(signum)
    out, rest = process.communicate(timeout=300)
    told = [line for line in seen + rest.splitlines() if line.strip() and not line.startswith("import time:")]
    # the translation was over before the signal came: the process ended, or was ending (Python gives the
    # signal its default action again while it shuts down) — either way with the whole line written
    if process.returncode == 0 or (process.returncode == -signum and out.endswith("\n")):
        assert told == [], told
        return
    assert process.returncode == 128 + signum and [line.strip() for line in told] == ["cancelled"], told


def test_a_redirect_loop_is_said_once_in_one_line(user_dirs, server, monkeypatch, tmp_path, caplog):
    from packserver import Route

    from fanyi.library import download
    from fanyi.library import install as installer

    server.routes["/loop.json"] = Route(b"", location="/loop.json")
    server.routes["/also-loop.json"] = Route(b"", status=301, location="/loop.json")
    monkeypatch.setenv("FANYI_CATALOG_URL", server.url("/loop.json"))
    with pytest.raises(download.DownloadError) as failure:
        installer.load_catalog(refresh=True, user_url=server.url("/also-loop.json"))
    message = str(failure.value)
    assert "\n" not in message and message.count("redirects in a loop") == 2  # one per address, each one line
    # an archive at two addresses of one host that both loop: the reason once, with the host
    with pytest.raises(download.DownloadError) as failure:
        download.download(
            [server.url("/loop.json"), server.url("/also-loop.json")], tmp_path / "a.zip", sha256="0" * 64, size=10
        )
    message = str(failure.value)
    assert "\n" not in message and message.count("redirects in a loop") == 1, message
    # nothing said on the side: a warning logged reaches a command line's stderr too (logging's last resort)
    assert [r for r in caplog.records if r.levelno >= logging.WARNING] == []


def test_a_long_line_is_written_as_it_is_translated_and_warned_about_in_one_short_line(
    looping_pack, tiny_pack, tmp_path
):
    from fanyi.engine.translator import Translator

    line = " ".join(f"Sentence number {n} is here." for n in range(300))  # ~8,700 characters, one line
    # into a pipe: the first sentences arrive while the rest is being translated
    process = subprocess.Popen(
        [*FANYI, "translate", "--model", str(tiny_pack)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env={**os.environ, **user(tmp_path)},
    )
    process.stdin.write(line.encode() + b"\n")
    process.stdin.close()
    first = process.stdout.read1(1 << 16)
    rest = process.stdout.read()
    assert process.wait(300) == 0 and b"\n" not in first  # something came before the line was done
    assert (first + rest).decode() == Translator.open(tiny_pack, threads=1).translate(line) + "\n"
    # a model that loops on every sentence: 300 failures, told in one line of bounded length
    looped = "Good morning. How are you? " * 150
    result = run([*FANYI, "translate", "--model", str(looping_pack)], user(tmp_path), input=looped + "\n")
    assert result.stdout == Translator.open(looping_pack, threads=1).translate(looped) + "\n"
    assert result.stdout.startswith("Good morning.How are you?Good morning.")  # as they were, joined as Chinese is
    assert_one_line(
        result.stderr,
        "300 sentences are left untranslated",
        "“How are you?” (the model kept repeating itself); 298 more (the model kept repeating itself)",
    )
    assert len(result.stderr) < 2000
