"""The two text panes of the main window: the editable source and the streaming target."""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from PySide6.QtCore import QMimeData, Qt, QTimer, Signal
from PySide6.QtGui import QDragEnterEvent, QFont, QTextCursor
from PySide6.QtWidgets import (
    QApplication,
    QHBoxLayout,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from fanyi.engine import EMPTY, LOOP, NO_MODEL, RUNAWAY, Failure, join_hard_wrapped
from fanyi.limits import REPORT_ENTRIES_PER_REASON
from fanyi.ui import theme
from fanyi.ui.i18n import Retranslating

FLUSH_MS = 30  # deltas are coalesced so a fast stream costs one document edit per frame, not per token
WRAPPED_LINE = 25  # median line length from which broken lines read as a PDF's column, not a list


def unwrap_if_hard_wrapped(text: str) -> str:
    """Join lines broken inside sentences, but leave short lines (lists, verse, headings) alone."""
    lines = [line for line in text.splitlines() if line.strip()]
    if len(lines) < 2 or statistics.median(len(line) for line in lines) < WRAPPED_LINE:
        return text
    return join_hard_wrapped(text)


def _utf16_len(text: str) -> int:
    # QTextCursor positions count UTF-16 units; Python indexes code points (they differ beyond the BMP).
    return len(text.encode("utf-16-le")) // 2


def _common_prefix(a: str, b: str) -> int:
    """Length of the common prefix, by bisection so the comparisons run in C even for long texts."""
    lo, hi = 0, min(len(a), len(b))
    while lo < hi:
        mid = (lo + hi + 1) // 2
        if a[:mid] == b[:mid]:
            lo = mid
        else:
            hi = mid - 1
    return lo


def text_font(points: int = 0) -> QFont:
    """The font of translated text: ``points`` in size, or by default a little larger than the UI's."""
    font = QApplication.font()
    if points:
        font.setPointSize(points)
    else:
        font.setPointSizeF(font.pointSizeF() * 1.2)
    return font


class SourceEdit(QPlainTextEdit):
    """Pasted text is joined where a PDF broke lines inside sentences; dropped files go to the window."""

    def insertFromMimeData(self, source: QMimeData) -> None:
        if source.hasText():
            self.insertPlainText(unwrap_if_hard_wrapped(source.text()))
        else:
            super().insertFromMimeData(source)

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if event.mimeData().hasUrls():
            event.ignore()  # the window turns dropped files into document jobs
        else:
            super().dragEnterEvent(event)


class SourcePane(Retranslating, QWidget):
    translate_requested = Signal()
    summarize_requested = Signal()

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.edit = SourceEdit()
        self.edit.setFont(text_font())
        self.count = QLabel()
        self.count.setObjectName("charCount")
        self.clear_button = QPushButton()
        self.clear_button.clicked.connect(self.edit.clear)
        self.translate_button = QPushButton()
        self.translate_button.setDefault(True)
        self.translate_button.clicked.connect(self.translate_requested)
        self.summarize_button = QPushButton()  # shown where the window can summarize
        self.summarize_button.clicked.connect(self.summarize_requested)
        self.summarize_button.hide()
        footer = QHBoxLayout()
        footer.addWidget(self.count)
        footer.addStretch()
        footer.addWidget(self.clear_button)
        footer.addWidget(self.summarize_button)
        footer.addWidget(self.translate_button)
        self.header = QHBoxLayout()  # what the window puts above the text (a hint about its language)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.header)
        layout.addWidget(self.edit)
        layout.addLayout(footer)
        self.edit.textChanged.connect(self._update_count)
        self.retranslate()

    def text(self) -> str:
        return self.edit.toPlainText()

    def set_text(self, text: str) -> None:
        self.edit.setPlainText(text)
        self.edit.moveCursor(QTextCursor.MoveOperation.End)

    def _update_count(self) -> None:
        self.count.setText(self.tr("Characters: %1").replace("%1", str(len(self.edit.toPlainText()))))

    def retranslate(self) -> None:
        self.edit.setPlaceholderText(self.tr("Type or paste text to translate…"))
        self.clear_button.setText(self.tr("Clear"))
        self.translate_button.setText(self.tr("Translate"))
        self.translate_button.setToolTip(self.tr("Translate now (Ctrl+Enter)"))
        self.summarize_button.setText(self.tr("Summarize"))
        self.summarize_button.setToolTip(self.tr("The gist of the text, in the language of the translation"))
        self._update_count()


class TargetView(QPlainTextEdit):
    """Read-only text that a stream of deltas rewrites with the smallest possible edit.

    While a new translation streams, the old text stays on screen as long as the new one is a
    prefix of it (re-typing at the end of a long text re-streams cached sentences identical to what
    is shown); from the first difference on, the rest is replaced.
    """

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setReadOnly(True)
        self.setFont(text_font())
        self._shown = ""  # mirrors the document, which only this class edits
        self._incoming: list[str] = []
        self._streamed = ""
        self._flush_timer = QTimer(self, singleShot=True, interval=FLUSH_MS)
        self._flush_timer.timeout.connect(self._flush)

    def text(self) -> str:
        return self._shown

    def begin(self) -> None:
        self._incoming.clear()
        self._streamed = ""
        self._flush_timer.stop()

    def append(self, delta: str) -> None:
        self._incoming.append(delta)
        if not self._flush_timer.isActive():
            self._flush_timer.start()

    def rewind(self, chars: int) -> None:
        """Take back the last `chars` characters streamed (a degenerate sentence is decoded again)."""
        self._streamed += "".join(self._incoming)
        self._incoming.clear()
        self._streamed = self._streamed[: len(self._streamed) - chars]
        self._show(self._streamed, final=True)  # at once: what was taken back must not stay on screen

    def finish(self, text: str) -> None:
        self.begin()
        self._show(text, final=True)

    def set_text(self, text: str) -> None:
        self.finish(text)

    def _flush(self) -> None:
        if self._incoming:
            self._streamed += "".join(self._incoming)
            self._incoming.clear()
            self._show(self._streamed, final=False)

    def _show(self, text: str, final: bool) -> None:
        keep = _common_prefix(self._shown, text)
        if keep == len(text) and (not final or keep == len(self._shown)):
            return  # still a prefix of what is shown: nothing to redraw yet
        bar = self.verticalScrollBar()
        follow = bar.value() == bar.maximum()
        cursor = QTextCursor(self.document())
        cursor.setPosition(_utf16_len(self._shown[:keep]))
        cursor.movePosition(QTextCursor.MoveOperation.End, QTextCursor.MoveMode.KeepAnchor)
        cursor.insertText(text[keep:])
        self._shown = text
        if follow:
            bar.setValue(bar.maximum())


class UntranslatedBadge(Retranslating, QLabel):
    """A small warning that some sentences are shown untranslated; the tooltip says which and why."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("untranslatedBadge")
        theme.tint(self, "warning")
        self._failures: tuple[Failure, ...] = ()
        self.hide()

    def show_failures(self, failures: Sequence[Failure]) -> None:
        self._failures = tuple(failures)
        self.retranslate()
        self.setVisible(bool(self._failures))

    def clear(self) -> None:
        self.show_failures(())

    def retranslate(self) -> None:
        count = len(self._failures)
        if count == 1:
            self.setText(self.tr("⚠ 1 sentence untranslated"))
        else:
            self.setText(self.tr("⚠ %1 sentences untranslated").replace("%1", str(count)))
        reasons = {
            LOOP: self.tr("the model kept repeating itself"),
            RUNAWAY: self.tr("the model's output ran far longer than the sentence"),
            EMPTY: self.tr("the model returned nothing"),
            NO_MODEL: self.tr("it is English in Chinese text, and no model was there to translate it"),
        }
        lines = [
            self.tr(
                "The model could not translate these sentences, even when it tried again, "
                "so they are shown as they were:"
            )
        ]
        lines += [f"• “{excerpt(f.source, 60)}” — {reasons[f.kind]}" for f in self._failures]
        self.setToolTip("\n".join(lines) if count else "")


class LostTermsNote(Retranslating, QLabel):
    """A line under the translation naming the glossary terms the model could not keep (engine/terms.py): their
    sentences are in it, translated without the glossary, so a reader must know the terms are not as they wished."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("lostTermsNote")
        self.setWordWrap(True)
        self.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        theme.tint(self, "warning")
        self._terms: tuple[str, ...] = ()
        self.hide()

    def show_terms(self, terms: Sequence[str]) -> None:
        self._terms = tuple(terms)
        self.retranslate()
        self.setVisible(bool(self._terms))

    def clear(self) -> None:
        self.show_terms(())

    def retranslate(self) -> None:
        named = self.tr(", ").join(f"“{excerpt(term, 40)}”" for term in self._terms[:REPORT_ENTRIES_PER_REASON])
        if len(self._terms) > REPORT_ENTRIES_PER_REASON:
            more = self.tr("%1 and %2 more")
            named = more.replace("%1", named).replace("%2", str(len(self._terms) - REPORT_ENTRIES_PER_REASON))
        if len(self._terms) == 1:
            said = self.tr(
                "⚠ The glossary's %1 could not be kept: the model broke its placeholder, so its sentence was "
                "translated without the glossary."
            )
        else:
            said = self.tr(
                "⚠ The glossary's %1 could not be kept: the model broke their placeholders, so their sentences "
                "were translated without the glossary."
            )
        self.setText(said.replace("%1", named) if self._terms else "")


def excerpt(text: str, limit: int) -> str:
    """`text` on one line, cut to `limit` characters with an ellipsis."""
    flat = " ".join(text.split())
    return flat if len(flat) <= limit else flat[: limit - 1] + "…"


class TargetPane(Retranslating, QWidget):
    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.view = TargetView()
        self.error = QLabel()
        self.error.setObjectName("errorBanner")
        self.error.setWordWrap(True)
        self.error.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        theme.tint(self.error, "error", "QLabel#errorBanner {{ color: {}; padding: 4px; }}")
        self.error.hide()
        self.activity = QLabel()
        self.untranslated = UntranslatedBadge()
        self.lost_terms = LostTermsNote()
        self.copy_button = QPushButton()
        self.copy_button.clicked.connect(self.copy)
        footer = QHBoxLayout()
        footer.addWidget(self.activity)
        footer.addWidget(self.untranslated)
        footer.addStretch()
        footer.addWidget(self.copy_button)
        self.header = QHBoxLayout()  # what the window puts above the translation (how Chinese is written)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addLayout(self.header)
        layout.addWidget(self.error)
        layout.addWidget(self.view)
        layout.addWidget(self.lost_terms)
        layout.addLayout(footer)
        self.retranslate()

    def copy(self) -> None:
        QApplication.clipboard().setText(self.view.text())

    def show_error(self, text: str) -> None:
        """Show ``text`` (a translated sentence that says what failed) above the translation."""
        self.error.setText(text)
        self.error.show()

    def clear_error(self) -> None:
        self.error.hide()

    def retranslate(self) -> None:
        self.copy_button.setText(self.tr("Copy"))
        self.view.setPlaceholderText(self.tr("The translation appears here."))
