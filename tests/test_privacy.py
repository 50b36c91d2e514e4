"""Fanyi sends nothing: a translation and the app's self-test, traced with strace, open no internet
socket, look up no host name and leave no ONNX Runtime telemetry files in a fresh HOME. (The self-test's
conversion asks a Hub it serves itself on 127.0.0.1: sockets to this computer only, checked address by address.)"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed (.ci/run installs it)")

# What a name lookup or a connection looks like in the trace: an IPv4/IPv6 socket, glibc asking nscd
# or systemd-resolved, or reading the resolver's configuration.
TELLTALES = re.compile(
    r"socket\(AF_INET6?,|/var/run/nscd/socket|/run/nscd/socket|io\.systemd\.Resolve"
    r"|\"/etc/resolv\.conf\""
)


def traced(args: list[str], home: Path, env_extra: dict[str, str], stdin: str | None = None) -> str:
    """Run `python -m fanyi ARGS` under strace in an environment without ORT_DISABLE_TELEMETRY."""
    trace = home.parent / "strace.txt"
    env = {k: v for k, v in os.environ.items() if not k.startswith(("ORT_", "FANYI_", "XDG_"))}
    env.update(HOME=str(home), QT_QPA_PLATFORM="offscreen", **env_extra)
    result = subprocess.run(
        [
            "strace",
            "-f",
            "-qq",
            "-e",
            "trace=%network,openat,open",
            "-o",
            str(trace),
            sys.executable,
            "-m",
            "fanyi",
            *args,
        ],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert result.returncode == 0, result.stderr
    return trace.read_text(errors="replace")


LOOKUPS = re.compile(r"/var/run/nscd/socket|/run/nscd/socket|io\.systemd\.Resolve|\"/etc/resolv\.conf\"")
# an address a socket is bound or connected to, as strace prints it
ADDRESS = re.compile(r'sin_addr=inet_addr\("([^"]+)"\)|inet_pton\(AF_INET6, "([^"]+)"')


def assert_private(trace: str, home: Path, loopback: bool = False) -> None:
    """No network at all; with `loopback`, sockets to this computer only (every address 127.0.0.1 or ::1)."""
    if loopback:
        seen = [line for line in trace.splitlines() if LOOKUPS.search(line)]
        seen += [
            line
            for line in trace.splitlines()
            for m in ADDRESS.finditer(line)
            if (m[1] or m[2]) not in ("127.0.0.1", "::1")
        ]
    else:
        seen = [line for line in trace.splitlines() if TELLTALES.search(line)]
    assert not seen, "network activity:\n" + "\n".join(seen[:10])
    telemetry = [str(p) for p in home.rglob("*") if "Microsoft" in p.parts or "onnxruntime" in p.name]
    assert not telemetry, f"telemetry files written: {telemetry}"


def test_translate_sends_nothing(tiny_pack_int8, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    lines = "".join(f"Sentence number {i} is about the weather.\n" for i in range(30))
    trace = traced(
        ["translate", "--model", str(tiny_pack_int8)],
        home,
        {"FANYI_DATA_DIR": str(tmp_path / "data"), "FANYI_CONFIG_DIR": str(tmp_path / "config")},
        stdin=lines,
    )
    assert "onnxruntime" in trace  # the trace did follow the engine
    assert_private(trace, home)


def test_app_self_test_sends_nothing(tiny_pack_int8, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    bundled = tmp_path / "bundled"
    shutil.copytree(tiny_pack_int8, bundled / tiny_pack_int8.name)
    trace = traced(["--self-test"], home, {"FANYI_MODELS_DIR": str(bundled)})
    assert "libQt6Widgets" in trace
    assert 'inet_addr("127.0.0.1")' in trace  # the trace did follow the conversion's Hub
    assert_private(trace, home, loopback=True)


def test_translating_a_scanned_pdf_with_ocr_sends_nothing(tiny_pack_int8, ocr_models, tmp_path):
    sys.path.insert(0, str(Path(__file__).parent / "documents"))
    from docfixtures import scanned_pdf

    home = tmp_path / "home"
    home.mkdir()
    scan = tmp_path / "scan.pdf"
    scan.write_bytes(scanned_pdf([["Good morning. The weather is fine today."]]))
    trace = traced(
        ["file", "--model", str(tiny_pack_int8), str(scan)],
        home,
        {"FANYI_DATA_DIR": str(tmp_path / "data"), "FANYI_CONFIG_DIR": str(tmp_path / "config")},
    )
    assert "PP-OCRv6_rec_small.onnx" in trace and "libpdfium" in trace  # the trace did follow OCR
    assert (tmp_path / "scan.zh.pdf").is_file()
    assert_private(trace, home)
