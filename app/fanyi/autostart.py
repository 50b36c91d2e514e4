"""Start Fanyi when the user logs in: one entry in the user's own settings, no administrator rights.

- Windows: the value ``Fanyi`` under ``HKEY_CURRENT_USER\\Software\\Microsoft\\Windows\\CurrentVersion\\Run``;
- macOS: ``~/Library/LaunchAgents/io.github.fanyi.Fanyi.plist``, a LaunchAgent run at load (login);
- Linux and other XDG desktops: ``$XDG_CONFIG_HOME/autostart/fanyi.desktop`` (``~/.config`` by default).

The entry runs this Fanyi (the installed executable, the AppImage file, or this Python with
``-m fanyi``) with ``--tray``. No Qt here; every backend takes its locations (and on Windows the
registry module) as arguments, so each is tested on any system.
"""

from __future__ import annotations

import importlib
import os
import plistlib
import re
import subprocess
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol

from fanyi.fsutil import atomic_write_bytes

NAME = "Fanyi"
LABEL = "io.github.fanyi.Fanyi"  # the macOS bundle identifier (build.spec)
RUN_KEY = r"Software\Microsoft\Windows\CurrentVersion\Run"
TRAY_FLAG = "--tray"


def command(env: Mapping[str, str] = os.environ) -> list[str]:
    """How to start this Fanyi again at login."""
    if appimage := env.get("APPIMAGE"):  # sys.executable is inside the AppImage's temporary mount
        return [appimage, TRAY_FLAG]
    if getattr(sys, "frozen", False):
        return [sys.executable, TRAY_FLAG]
    python = Path(sys.executable)
    if sys.platform == "win32" and (windowless := python.with_name("pythonw.exe")).exists():
        python = windowless  # no console window at login
    return [str(python), "-m", "fanyi", TRAY_FLAG]


class Backend(Protocol):
    def read(self) -> bytes | None: ...
    def write(self, content: bytes) -> None: ...
    def remove(self) -> None: ...
    def entry(self, command: list[str]) -> bytes: ...


@dataclass
class FileEntry:
    """A file whose presence means "start at login": the XDG .desktop file or the macOS LaunchAgent."""

    path: Path
    kind: str  # "desktop" or "plist"

    def read(self) -> bytes | None:
        try:
            return self.path.read_bytes()
        except FileNotFoundError:
            return None

    def write(self, content: bytes) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(self.path, content)

    def remove(self) -> None:
        self.path.unlink(missing_ok=True)

    def entry(self, command: list[str]) -> bytes:
        if self.kind == "plist":
            return plistlib.dumps(
                {
                    "Label": LABEL,
                    "ProgramArguments": command,
                    "RunAtLoad": True,
                    "LimitLoadToSessionType": "Aqua",
                    "ProcessType": "Interactive",
                }
            )
        return "\n".join(
            [
                "[Desktop Entry]",
                "Type=Application",
                "Name=Fanyi",
                "Name[zh_CN]=Fanyi 翻译",
                "Comment=Offline English–Chinese translator",
                "Comment[zh_CN]=离线英汉翻译",
                f"Exec={desktop_exec(command)}",
                "Icon=fanyi",
                "Terminal=false",
                "X-GNOME-Autostart-enabled=true",
                "",
            ]
        ).encode("utf-8")


@dataclass
class RegistryEntry:
    """The ``Fanyi`` value of the current user's Run key; ``registry`` is the winreg module (or a fake)."""

    registry: Any  # winreg: a module of functions and constants

    def read(self) -> bytes | None:
        reg = self.registry
        try:
            with reg.OpenKey(reg.HKEY_CURRENT_USER, RUN_KEY) as key:
                value, _kind = reg.QueryValueEx(key, NAME)
        except FileNotFoundError:
            return None
        return str(value).encode("utf-8")

    def write(self, content: bytes) -> None:
        reg = self.registry
        with reg.CreateKey(reg.HKEY_CURRENT_USER, RUN_KEY) as key:
            reg.SetValueEx(key, NAME, 0, reg.REG_SZ, content.decode("utf-8"))

    def remove(self) -> None:
        reg = self.registry
        try:
            with reg.OpenKey(reg.HKEY_CURRENT_USER, RUN_KEY, 0, reg.KEY_SET_VALUE) as key:
                reg.DeleteValue(key, NAME)
        except FileNotFoundError:
            pass

    def entry(self, command: list[str]) -> bytes:
        return subprocess.list2cmdline(command).encode("utf-8")


def backend(
    platform: str = sys.platform,
    home: Path | None = None,
    env: Mapping[str, str] = os.environ,
    registry: object | None = None,
) -> Backend:
    """This system's place for the entry."""
    if platform == "win32":
        return RegistryEntry(registry or importlib.import_module("winreg"))
    home = home or Path.home()
    if platform == "darwin":
        return FileEntry(home / "Library" / "LaunchAgents" / f"{LABEL}.plist", "plist")
    config = Path(env["XDG_CONFIG_HOME"]) if env.get("XDG_CONFIG_HOME") else home / ".config"
    return FileEntry(config / "autostart" / "fanyi.desktop", "desktop")


def enabled(where: Backend | None = None) -> bool:
    return (where or backend()).read() is not None


def set_enabled(on: bool, where: Backend | None = None, start: list[str] | None = None) -> None:
    """Write or remove the entry; raises OSError when the system refuses."""
    where = where or backend()
    if on:
        where.write(where.entry(start or command()))
    else:
        where.remove()


def refresh(where: Backend | None = None, start: list[str] | None = None) -> None:
    """Point the entry at this Fanyi again, when it points elsewhere (the app or its folder was moved)."""
    where = where or backend()
    wanted = where.entry(start or command())
    if where.read() != wanted:
        where.write(wanted)


_NEEDS_QUOTES = re.compile(r"""[\s"'\\><~|&;$*?#()`=]""")


def desktop_exec(args: list[str]) -> str:
    """An Exec= value that runs ``args``, quoted as the Desktop Entry Specification asks."""

    def quote(arg: str) -> str:
        arg = arg.replace("%", "%%")  # % starts a field code
        if arg and not _NEEDS_QUOTES.search(arg):
            return arg
        return '"' + re.sub(r'(["`$\\])', r"\\\1", arg) + '"'

    # The value is also a desktop-file string, whose own escapes come first: a backslash is written twice.
    return " ".join(quote(a) for a in args).replace("\\", "\\\\")
