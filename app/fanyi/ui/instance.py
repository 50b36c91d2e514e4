"""One Fanyi per user: a second launch hands its request to the running app and exits.

The first process takes a lock file (QLockFile: a lock whose process has died, after a crash, is
taken over) and listens on a local socket (QLocalServer: a Unix socket, a named pipe on Windows)
named after the user and the settings folder, so a portable copy is an instance of its own. Under
the lock it first removes a socket file a crashed instance left behind. A later process finds the
lock taken, connects, sends one line — ``show``, ``translate-clipboard`` or ``translate-region`` — waits for ``ok`` and
exits 0; the running app raises its window or shows the popup.
"""

from __future__ import annotations

import getpass
import hashlib
import json
import logging
import time
from pathlib import Path

from PySide6.QtCore import QDir, QLockFile, QObject, Signal
from PySide6.QtNetwork import QLocalServer, QLocalSocket

from fanyi import limits, paths

log = logging.getLogger(__name__)

SHOW, TRANSLATE_CLIPBOARD, TRANSLATE_REGION = "show", "translate-clipboard", "translate-region"
COMMANDS = (SHOW, TRANSLATE_CLIPBOARD, TRANSLATE_REGION)
# The running app may still be starting (it takes the lock first): a second launch keeps trying.
CONNECT_SECONDS = 10.0
ANSWER_MS = 10_000


def instance_name() -> str:
    """The socket and lock name: one per user and settings folder."""
    try:
        user = getpass.getuser()
    except (KeyError, OSError):  # no name for this uid (a container): the settings folder still tells
        user = ""
    key = f"{user}\n{paths.user_config_dir().resolve()}"
    return "fanyi-" + hashlib.sha256(key.encode("utf-8")).hexdigest()[:16]


class SingleInstance(QObject):
    requested = Signal(str)  # a command from a later launch, one of COMMANDS

    def __init__(self, name: str | None = None, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.name = name or instance_name()
        self._lock = QLockFile(str(Path(QDir.tempPath()) / f"{self.name}.lock"))
        self._server: QLocalServer | None = None
        self._buffers: dict[QLocalSocket, bytes] = {}

    # --- the first process ------------------------------------------------------------------------
    def claim(self) -> bool:
        """True when no other instance runs: this one then answers later launches until release()."""
        if not self._lock.tryLock(0):
            return False
        QLocalServer.removeServer(self.name)  # a socket file left by a crashed instance
        server = QLocalServer(self)
        server.setSocketOptions(QLocalServer.SocketOption.UserAccessOption)
        if server.listen(self.name):
            server.newConnection.connect(self._on_connection)
            self._server = server
        else:  # still the only instance; later launches will say that it does not answer
            log.warning("single instance: cannot listen on %s: %s", self.name, server.errorString())
        return True

    def release(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        self._lock.unlock()

    def _on_connection(self) -> None:
        while self._server is not None and (socket := self._server.nextPendingConnection()) is not None:
            self._buffers[socket] = b""
            socket.readyRead.connect(lambda s=socket: self._on_ready(s))
            socket.disconnected.connect(lambda s=socket: self._forget(s))

    def _on_ready(self, socket: QLocalSocket) -> None:
        data = self._buffers.get(socket, b"") + bytes(socket.readAll().data())
        if b"\n" not in data:
            if len(data) > limits.INSTANCE_MESSAGE_BYTES:
                socket.abort()
            else:
                self._buffers[socket] = data
            return
        line = data.split(b"\n", 1)[0]
        command = _parse(line)
        socket.write(b"ok\n" if command else b"unknown\n")
        socket.flush()
        socket.disconnectFromServer()
        if command:
            self.requested.emit(command)

    def _forget(self, socket: QLocalSocket) -> None:
        self._buffers.pop(socket, None)
        socket.deleteLater()

    # --- a later process --------------------------------------------------------------------------
    def send(self, command: str) -> bool:
        """Hand ``command`` to the running instance; False when it cannot be reached or refuses it."""
        message = json.dumps({"command": command}).encode("utf-8") + b"\n"
        deadline = time.monotonic() + CONNECT_SECONDS
        while True:
            socket = QLocalSocket()
            socket.connectToServer(self.name)
            if socket.waitForConnected(1000):
                socket.write(message)
                socket.waitForBytesWritten(ANSWER_MS)
                answer = b""
                while b"\n" not in answer and socket.waitForReadyRead(ANSWER_MS):
                    answer += bytes(socket.readAll().data())
                socket.abort()
                return answer.startswith(b"ok\n")
            if time.monotonic() > deadline:
                return False
            time.sleep(0.2)


def _parse(line: bytes) -> str | None:
    try:
        command = json.loads(line.decode("utf-8")).get("command")
    except (ValueError, UnicodeDecodeError, AttributeError):
        return None
    return command if command in COMMANDS else None
