"""The tests' guard against writing into the real home and reaching the network, in every Python they run.

An audit hook (PEP 578) refuses, with PermissionError, what no test may do, and appends a line to the
log named by FANYI_TESTS_GUARD_LOG, which tests/isolation.py reads after every test: the test fails even
when the code under test swallows the error, or the error happens in a subprocess. Refused:
- changing anything in the real home (FANYI_TESTS_REAL_HOMES: the HOME the tests were started with and
  the user's home from the password database): opening a file there for writing; making, renaming,
  removing, linking or changing the mode of anything there; opening an SQLite database there. Exempt are
  Python's bytecode caches and the folders a checkout, a virtualenv or the temporary folder may occupy
  inside a home (FANYI_TESTS_EXEMPT).
- the network: a name lookup of anything but localhost, a connection or datagram to a non-loopback address.

A hook sees what Python does, not what native code does by itself: Qt and fontconfig write under
$HOME/$XDG_*, which the tests point into temporary folders, and tests/test_privacy.py traces the system
calls of whole runs. Installed in the test process by tests/isolation.py and, through the sitecustomize
beside this file (on PYTHONPATH), in every Python process the tests start.
"""

from __future__ import annotations

import ipaddress
import os
import sys

REAL_HOMES_ENV = "FANYI_TESTS_REAL_HOMES"
EXEMPT_ENV = "FANYI_TESTS_EXEMPT"
LOG_ENV = "FANYI_TESTS_GUARD_LOG"

WRITE_FLAGS = os.O_WRONLY | os.O_RDWR | os.O_CREAT | os.O_APPEND | os.O_TRUNC
# audit event → the positions of its arguments that are paths it changes
CHANGES = {
    "os.mkdir": (0,),
    "os.rmdir": (0,),
    "os.remove": (0,),
    "os.rename": (0, 1),
    "os.link": (1,),
    "os.symlink": (1,),
    "os.truncate": (0,),
    "os.chmod": (0,),
    "os.chown": (0,),
    "os.utime": (0,),
    "os.setxattr": (0,),
    "os.removexattr": (0,),
    "shutil.rmtree": (0,),
    "sqlite3.connect": (0,),
}
LOOKUPS = {"socket.getaddrinfo", "socket.gethostbyname", "socket.gethostbyname_ex", "socket.gethostbyaddr"}
SENDS = {"socket.connect", "socket.sendto"}

_homes: tuple[str, ...] = ()
_exempt: tuple[str, ...] = ()
_log = ""
_installed = False
_busy = False  # the hook's own writes to the log raise events too


def _paths(env: str) -> tuple[str, ...]:
    return tuple(os.path.realpath(p) for p in os.environ.get(env, "").split(os.pathsep) if p)


def install() -> None:
    """Read the configuration from the environment; add the hook once per process."""
    global _homes, _exempt, _log, _installed
    _homes, _exempt, _log = _paths(REAL_HOMES_ENV), _paths(EXEMPT_ENV), os.environ.get(LOG_ENV, "")
    if _homes and not _installed:
        sys.addaudithook(_hook)
        _installed = True


def _inside(path: str, roots: tuple[str, ...]) -> bool:
    return any(path == root or path.startswith(root + os.sep) for root in roots)


def _in_real_home(path) -> str | None:
    """The path, when it is one in the real home that tests must not change."""
    if isinstance(path, int) or path is None:
        return None  # a file descriptor
    try:
        text = os.path.realpath(os.path.abspath(os.fsdecode(path)))
    except (TypeError, ValueError, OSError):
        return None
    if not _inside(text, _homes) or _inside(text, _exempt) or "__pycache__" in text.split(os.sep):
        return None
    return text


def _local(host) -> bool:
    if host is None or host in ("", b""):
        return True
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    host = str(host).strip("[]").split("%")[0]
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host.lower() == "localhost" or host.lower().endswith(".localhost")
    return address.is_loopback or address.is_unspecified


def _refuse(message: str) -> None:
    global _busy
    _busy = True
    try:
        if _log:
            with open(_log, "a", encoding="utf-8") as log:
                log.write(f"[pid {os.getpid()}] {message}\n")
    finally:
        _busy = False
    raise PermissionError(f"tests must not {message}")


def _hook(event: str, args: tuple) -> None:
    if _busy:
        return
    if event == "open":
        path, _mode, flags = args
        if isinstance(flags, int) and flags & WRITE_FLAGS and (where := _in_real_home(path)):
            _refuse(f"write into the real home: open({where!r}) for writing")
    elif event in CHANGES:
        for i in CHANGES[event]:
            if i < len(args) and (where := _in_real_home(args[i])):
                _refuse(f"change the real home: {event} {where!r}")
    elif event in LOOKUPS:
        if not _local(args[0]):
            _refuse(f"reach the network: {event} {args[0]!r}")
    elif event in SENDS:
        address = args[1]
        if isinstance(address, tuple) and address and not _local(address[0]):
            _refuse(f"reach the network: {event} {address!r}")
