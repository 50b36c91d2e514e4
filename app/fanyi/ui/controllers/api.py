"""The app's side of the local API: runs it while "Let other apps on this computer use Fanyi" is on.

The server translates with the model the translation worker already loaded: it is handed the
worker's ``TranslatorGate`` (see ``fanyi.server.models``), so no second copy is loaded and the
window's requests go ahead of API requests. Other directions (a zh→en request while the window
shows en→zh) open that pack through the same opener as the worker. The server runs in its own
thread, on 127.0.0.1 only, follows the settings (on or off, port, key) and stops with the app.
``fanyi.server`` (starlette, uvicorn) is imported only when the setting is turned on.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import TYPE_CHECKING

from PySide6.QtCore import QObject, Signal, Slot

from fanyi.defaults import API_HOST
from fanyi.engine import DecodeOptions
from fanyi.ui.controllers.packs import PackController
from fanyi.ui.controllers.settings import LiveSettings
from fanyi.ui.worker import OpenTranslator

if TYPE_CHECKING:  # starlette and uvicorn load only when the setting is turned on
    from fanyi.server.run import BackgroundServer

log = logging.getLogger(__name__)


class ApiController(QObject):
    status_changed = Signal(str)  # a sentence for the status bar
    _crashed = Signal(str)  # from the server's thread

    def __init__(
        self,
        settings: LiveSettings,
        packs: PackController,
        opener: OpenTranslator,
        options: Callable[[], DecodeOptions],
        glossary: Callable[[str, str], tuple[tuple[str, str], ...]] | None = None,
    ) -> None:
        super().__init__()
        self._settings = settings
        self._packs = packs
        self._opener = opener
        self._options = options  # beams and length, read in the server's thread; the languages come with each request
        self._glossary = glossary  # the app's glossary, for requests that bring none
        self._server: BackgroundServer | None = None
        self._wanted: tuple[int, str, tuple[str, ...]] | None = None
        self.error = ""
        self._crashed.connect(self._on_crashed)
        settings.on_change(self.apply, settings.api_enabled, settings.api_port, settings.api_key, settings.api_origins)

    @property
    def address(self) -> str | None:
        """Where it listens, while it runs."""
        return self._server.address if self._server is not None and self._server.running else None

    def apply(self) -> None:
        """Start, stop or restart the server to match the settings (api_origins: web pages allowed without a key)."""
        s = self._settings.current
        wanted = (s.api_port, s.api_key, tuple(s.api_origins)) if s.api_enabled else None
        if wanted == self._wanted and (wanted is None or self.address is not None):
            return
        was_running = self._server is not None
        self.stop()
        self._wanted = wanted
        if wanted is None:
            if was_running:
                self.status_changed.emit(self.tr("Other apps can no longer use Fanyi."))
            return
        # the server (starlette, uvicorn) loads when the API is first turned on, not with the app
        from fanyi.server.browsers import BrowserPolicy, OriginError  # noqa: PLC0415
        from fanyi.server.core import Core  # noqa: PLC0415
        from fanyi.server.models import Models  # noqa: PLC0415
        from fanyi.server.run import BackgroundServer, ServerError, bind  # noqa: PLC0415

        threads = self._settings.threads
        models = Models(
            lambda: self._packs.installed,
            lambda path: self._opener(path, threads.value or None),
            shared=self._packs.service.gate,
        )
        port, key, origins = wanted
        core = Core(models, api_key=key or None, options=self._options, glossary=self._glossary)
        try:
            browsers = BrowserPolicy.of(API_HOST, origins, keyed=bool(key))
            server = BackgroundServer(core, bind(API_HOST, port), on_crash=self._report_crash, browsers=browsers)
        except (ServerError, OriginError) as exc:
            self._fail(str(exc))
            return
        server.start()
        self._server = server
        self.error = ""
        self.status_changed.emit(
            self.tr("Other apps on this computer can use Fanyi at %1").replace("%1", server.address)
        )

    def stop(self) -> None:
        server, self._server = self._server, None
        if server is not None:
            server.stop()

    def _report_crash(self, exc: BaseException) -> None:  # in the server's thread
        self._crashed.emit(f"the server stopped ({type(exc).__name__}: {exc})")

    def _fail(self, reason: str) -> None:
        self.error = reason
        log.warning("local API: %s", reason)
        self.status_changed.emit(self.tr("Other apps cannot use Fanyi: %1").replace("%1", reason))

    @Slot(str)
    def _on_crashed(self, reason: str) -> None:
        self._server = None
        self._wanted = None
        self._fail(reason)
