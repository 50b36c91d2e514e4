"""One window's translation as it streams: what the main window and the popup do alike with their requests.

``TranslationService`` sends every request's signals to everyone listening; a window follows only its
latest request (``req_id``, None when none runs). Its text goes into the window's TargetView as it comes
(appended, and taken back at a rewind), the sentences left untranslated into its UntranslatedBadge and the
glossary terms the model could not keep into its LostTermsNote.
What a window does when its request finishes, fails or is cancelled (a model switch cancels it) is its
own: the callbacks, called after ``req_id`` is cleared.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QObject

from fanyi.engine import DecodeOptions
from fanyi.ui.panes import LostTermsNote, TargetView, UntranslatedBadge
from fanyi.ui.worker import TranslationService


class RequestStream(QObject):
    def __init__(
        self,
        service: TranslationService,
        channel: str,
        view: TargetView,
        badge: UntranslatedBadge,
        lost: LostTermsNote,
        *,
        finished: Callable[[str, dict], None],
        failed: Callable[[str], None],
        cancelled: Callable[[], None],
    ) -> None:
        super().__init__(view)  # it lives as long as the view it writes into
        self.req_id: int | None = None
        self._service = service
        self._channel = channel
        self._view = view
        self._badge = badge
        self._lost = lost
        self._finished, self._failed, self._cancelled = finished, failed, cancelled
        service.delta.connect(self._on_delta)
        service.rewound.connect(self._on_rewound)
        service.untranslated.connect(self._on_untranslated)
        service.terms_lost.connect(self._on_terms_lost)
        service.finished.connect(self._on_finished)
        service.failed.connect(self._on_failed)
        service.cancelled.connect(self._on_cancelled)

    def request(
        self, text: str, options: DecodeOptions, *, pack: Path | None = None, rewrite: str | None = None
    ) -> None:
        """Translate ``text`` (see TranslationService.request), replacing the channel's running request."""
        self.req_id = self._service.request(text, options, channel=self._channel, pack=pack, rewrite=rewrite)

    def cancel(self) -> None:
        """Stop following the request: it is cancelled, and nothing of it is shown any more."""
        self._service.cancel(self._channel)
        self.req_id = None

    def clear_notes(self) -> None:
        """Say nothing more of the translation shown (a new one is coming, or a summary takes its place)."""
        self._badge.clear()
        self._lost.clear()

    def _on_delta(self, req_id: int, delta: str) -> None:
        if req_id == self.req_id:
            self._view.append(delta)

    def _on_rewound(self, req_id: int, chars: int) -> None:
        if req_id == self.req_id:
            self._view.rewind(chars)

    def _on_untranslated(self, req_id: int, failures: tuple) -> None:
        if req_id == self.req_id:
            self._badge.show_failures(failures)

    def _on_terms_lost(self, req_id: int, terms: tuple) -> None:
        if req_id == self.req_id:
            self._lost.show_terms(terms)

    def _on_finished(self, req_id: int, text: str, stats: dict) -> None:
        if req_id == self.req_id:
            self.req_id = None
            self._finished(text, stats)

    def _on_failed(self, req_id: int, message: str) -> None:
        if req_id == self.req_id:
            self.req_id = None
            self._failed(message)

    def _on_cancelled(self, req_id: int) -> None:
        # a window's own newer request replaces req_id first: a match means a model switch cancelled it
        if req_id == self.req_id:
            self.req_id = None
            self._cancelled()
