"""One Fanyi per user: later launches hand over to the running app, also after a crash."""

from __future__ import annotations

import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from fanyi.ui.instance import SingleInstance, instance_name

HARNESS = Path(__file__).with_name("instance_harness.py")
WAIT_S = 60


class Running:
    """A first Fanyi in its own process, and the lines it prints."""

    def __init__(self, env: dict[str, str], *args: str) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(HARNESS), *args], env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
        )
        self.lines: queue.Queue[str] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        for line in self.process.stdout:
            self.lines.put(line.strip())

    def expect(self, word: str) -> None:
        while True:
            try:
                line = self.lines.get(timeout=WAIT_S)
            except queue.Empty:
                raise AssertionError(f"the running Fanyi never said {word!r}") from None
            if line == word:
                return

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(timeout=WAIT_S)


@pytest.fixture
def env(ui_dirs) -> dict[str, str]:
    return {**os.environ, "QT_QPA_PLATFORM": "offscreen", "PYTHONPATH": os.pathsep.join(sys.path)}


def launch(env: dict[str, str], *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "fanyi", *args], env=env, capture_output=True, text=True, timeout=WAIT_S
    )


def test_a_second_launch_brings_the_running_window_forward_and_exits(env):
    first = Running(env)
    try:
        first.expect("window")  # its own start
        first.expect("started")
        second = launch(env)
        assert second.returncode == 0, second.stderr
        first.expect("window")
        third = launch(env, "--translate-clipboard")
        assert third.returncode == 0, third.stderr
        first.expect("popup")
        assert first.process.poll() is None  # the first one goes on
    finally:
        first.stop()


def test_after_a_crash_the_next_launch_is_the_running_one(env):
    crashed = Running(env)
    try:
        crashed.expect("started")
    finally:
        crashed.process.send_signal(signal.SIGKILL)  # leaves its lock file and socket behind
        crashed.stop()
    again = Running(env)
    try:
        again.expect("started")
        assert launch(env).returncode == 0
        again.expect("window")
    finally:
        again.stop()


def test_a_popup_only_instance_becomes_the_app_when_launched_again(env):
    popup_only = Running(env, "--translate-clipboard")
    try:
        popup_only.expect("popup")
        assert launch(env).returncode == 0
        popup_only.expect("window")
    finally:
        popup_only.stop()


def test_one_instance_per_user_and_settings_folder(qapp, ui_dirs, monkeypatch):
    first, second = SingleInstance(), SingleInstance()
    assert first.name == second.name == instance_name()
    assert first.claim()
    try:
        assert not second.claim()
        monkeypatch.setenv("FANYI_CONFIG_DIR", str(ui_dirs / "portable-config"))
        other = SingleInstance()  # another settings folder (a portable copy): an instance of its own
        assert other.name != first.name and other.claim()
        other.release()
    finally:
        first.release()
    assert second.claim()
    second.release()


def test_a_message_that_is_not_a_command_is_refused(qapp, qtbot, ui_dirs):
    from PySide6.QtNetwork import QLocalSocket

    from fanyi.ui.instance import _parse

    assert _parse(b'{"command": "show"}') == "show"
    assert _parse(b'{"command": "rm -rf"}') is None and _parse(b"\xff\xfe") is None and _parse(b"[1]") is None
    first = SingleInstance()
    assert first.claim()
    seen = []
    first.requested.connect(seen.append)
    try:
        socket = QLocalSocket()
        socket.connectToServer(first.name)
        assert socket.waitForConnected(5000)
        socket.write(b"x" * 10_000)  # no end of line, past the bound: the connection is dropped
        qtbot.waitUntil(lambda: socket.state() == QLocalSocket.LocalSocketState.UnconnectedState, timeout=5000)
        assert seen == []
    finally:
        first.release()
