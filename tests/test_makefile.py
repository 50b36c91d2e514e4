"""The Makefile's install stamps: what `make run` and `make test` install, and when they install again."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.skipif(shutil.which("make") is None or os.name == "nt", reason="needs make and a POSIX shell")
def test_make_run_after_make_test_does_not_install_again(tmp_path):
    """The first `make run` after `make test` reinstalled (7.6 s to the window instead of ~1 s)."""
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    (tmp_path / "pyproject.toml").write_text('dependencies = ["torch==2.13.0"]\n')
    bin_dir = tmp_path / "venv" / "bin"
    bin_dir.mkdir(parents=True)
    log = tmp_path / "pip.log"
    for name, body in (("pip", f'echo "$*" >> {log}'), ("python", "exit 1")):  # python: no torch index here
        (bin_dir / name).write_text(f"#!/bin/sh\n{body}\n")
        (bin_dir / name).chmod(0o755)

    def make(*args: str) -> subprocess.CompletedProcess:
        return subprocess.run(
            ["make", "-s", "VENV=venv", *args], cwd=tmp_path, capture_output=True, text=True, timeout=60
        )

    assert make("venv/.installed-dev").returncode == 0
    assert log.read_text().splitlines() == ["install --disable-pip-version-check -q -e .[dev]"]
    assert make("-q", "venv/.installed").returncode == 0  # up to date: `make run` goes straight to the app
    os.utime(tmp_path / "pyproject.toml", (2e9, 2e9))  # the dependencies changed: both install again
    assert make("-q", "venv/.installed").returncode == 1 and make("-q", "venv/.installed-dev").returncode == 1
