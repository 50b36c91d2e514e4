"""Start at login, per platform, in temporary folders and a stand-in registry (no real system is touched)."""

from __future__ import annotations

import plistlib
import re
import subprocess
import sys
from pathlib import Path

import pytest

from fanyi import autostart

COMMAND = ["/opt/My Apps/Fanyi $1/fanyi", "--tray"]


def parse_exec(value: str) -> list[str]:
    """Read an Exec= value back as the Desktop Entry Specification says a launcher does."""
    value = re.sub(r"\\(.)", r"\1", value)  # the string's own escapes (\\ → \)
    args = []
    for quoted, bare in re.findall(r'"((?:\\.|[^"\\])*)"|(\S+)', value):
        arg = re.sub(r"\\(.)", r"\1", quoted) if quoted else bare
        args.append(arg.replace("%%", "%"))
    return args


def exec_line(path: Path) -> str:
    return next(line[5:] for line in path.read_text(encoding="utf-8").splitlines() if line.startswith("Exec="))


def test_linux_writes_an_xdg_autostart_file(tmp_path):
    where = autostart.backend("linux", home=tmp_path / "home", env={"XDG_CONFIG_HOME": str(tmp_path / "xdg")})
    entry = tmp_path / "xdg" / "autostart" / "fanyi.desktop"
    assert not autostart.enabled(where)
    autostart.set_enabled(True, where, COMMAND)
    assert autostart.enabled(where) and entry.is_file()
    assert parse_exec(exec_line(entry)) == COMMAND
    assert "Type=Application" in entry.read_text(encoding="utf-8")
    autostart.set_enabled(False, where)
    assert not entry.exists() and not autostart.enabled(where)
    autostart.set_enabled(False, where)  # already off: nothing to do, no error


def test_linux_without_xdg_config_home_uses_dot_config(tmp_path):
    where = autostart.backend("linux", home=tmp_path, env={})
    autostart.set_enabled(True, where, ["/usr/bin/fanyi", "--tray"])
    assert exec_line(tmp_path / ".config" / "autostart" / "fanyi.desktop") == "/usr/bin/fanyi --tray"


@pytest.mark.parametrize("arg", ["100%", 'say "hi"', r"C:\odd\path", "a`b", "tab\there", "=x"])
def test_desktop_exec_quoting_survives_odd_characters(arg):
    assert parse_exec(autostart.desktop_exec(["/bin/fanyi", arg])) == ["/bin/fanyi", arg]


def test_macos_writes_a_launch_agent(tmp_path):
    where = autostart.backend("darwin", home=tmp_path)
    autostart.set_enabled(True, where, COMMAND)
    plist = plistlib.loads((tmp_path / "Library" / "LaunchAgents" / "io.github.fanyi.Fanyi.plist").read_bytes())
    assert plist["ProgramArguments"] == COMMAND and plist["RunAtLoad"] is True
    assert plist["Label"] == "io.github.fanyi.Fanyi"
    autostart.set_enabled(False, where)
    assert not autostart.enabled(where)


class FakeWinreg:
    """The part of winreg the backend uses, over a dict: {key path: {value name: value}}."""

    HKEY_CURRENT_USER = "HKCU"
    REG_SZ = 1
    KEY_SET_VALUE = 2

    def __init__(self) -> None:
        self.keys: dict[str, dict[str, str]] = {}

    class _Key:
        def __init__(self, values):
            self.values = values

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    def OpenKey(self, root, path, reserved=0, access=0):  # winreg's names
        if path not in self.keys:
            raise FileNotFoundError(path)
        return self._Key(self.keys[path])

    def CreateKey(self, root, path):
        return self._Key(self.keys.setdefault(path, {}))

    def QueryValueEx(self, key, name):
        if name not in key.values:
            raise FileNotFoundError(name)
        return key.values[name], self.REG_SZ

    def SetValueEx(self, key, name, reserved, kind, value):
        assert kind == self.REG_SZ
        key.values[name] = value

    def DeleteValue(self, key, name):
        if name not in key.values:
            raise FileNotFoundError(name)
        del key.values[name]


def test_windows_uses_the_run_key():
    registry = FakeWinreg()
    where = autostart.backend("win32", registry=registry)
    assert not autostart.enabled(where)  # the key itself may be missing
    command = [r"C:\Users\Li Lei\AppData\Local\Programs\Fanyi\Fanyi.exe", "--tray"]
    autostart.set_enabled(True, where, command)
    value = registry.keys[autostart.RUN_KEY]["Fanyi"]
    assert value == r'"C:\Users\Li Lei\AppData\Local\Programs\Fanyi\Fanyi.exe" --tray'
    autostart.set_enabled(False, where)
    assert registry.keys[autostart.RUN_KEY] == {} and not autostart.enabled(where)
    autostart.set_enabled(False, where)


def test_refresh_points_a_stale_entry_at_this_fanyi(tmp_path):
    where = autostart.backend("linux", home=tmp_path, env={})
    autostart.set_enabled(True, where, ["/old/place/fanyi", "--tray"])
    autostart.refresh(where, COMMAND)
    assert parse_exec(exec_line(tmp_path / ".config" / "autostart" / "fanyi.desktop")) == COMMAND


def test_the_command_starts_this_fanyi(monkeypatch):
    monkeypatch.delattr(sys, "frozen", raising=False)
    command = autostart.command(env={})
    assert command[-1] == "--tray"
    shown = subprocess.run([*command[:-1], "--help"], capture_output=True, text=True, timeout=120)
    assert shown.returncode == 0 and "--translate-clipboard" in shown.stdout
    assert autostart.command(env={"APPIMAGE": "/home/u/Fanyi.AppImage"}) == ["/home/u/Fanyi.AppImage", "--tray"]
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    assert autostart.command(env={}) == [sys.executable, "--tray"]
