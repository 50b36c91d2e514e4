"""Ctrl+C in the terminal quits the app the first time, whatever the app is doing (a subprocess, offscreen)."""

from __future__ import annotations

import os
import signal
import subprocess
import sys

import pytest

# Runs the real `fanyi.ui.app.run` with two hooks: the tray can be claimed (offscreen has none), and
# "early" sends the SIGINT from inside start(), before the event loop runs, as a quick Ctrl+C does.
APP = """
import os, signal, sys
from PySide6.QtCore import QTimer
from fanyi.ui import app as ui_app

mode = sys.argv[1]
started = ui_app.FanyiApp.start

def start(self, **kwargs):
    if mode == "tray":
        self.tray.available = True  # the window then hides instead of closing, as on a desktop with a tray
    started(self, **kwargs)
    if mode == "early":
        os.kill(os.getpid(), signal.SIGINT)
    QTimer.singleShot(0, lambda: print("ready", flush=True))

ui_app.FanyiApp.start = start
sys.exit(ui_app.run([]))
"""


@pytest.mark.parametrize("mode", ["plain", "tray", "early"])
def test_the_first_ctrl_c_quits(tmp_path, mode):
    env = dict(
        os.environ,
        QT_QPA_PLATFORM="offscreen",
        FANYI_DATA_DIR=str(tmp_path / "data"),
        FANYI_CONFIG_DIR=str(tmp_path / "config"),
        FANYI_MODELS_DIR=str(tmp_path / "models"),
    )
    process = subprocess.Popen(
        [sys.executable, "-c", APP, mode], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env
    )
    try:
        assert process.stdout.readline() == "ready\n", process.stderr.read()
        if mode != "early":
            process.send_signal(signal.SIGINT)
        out, err = process.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        process.kill()
        process.communicate()
        pytest.fail(f"{mode}: still running after one Ctrl+C")
    assert process.returncode == 0, err
    assert "Traceback" not in err
