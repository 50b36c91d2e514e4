"""The clipboard popup: a small frameless window near the cursor that streams one translation."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QEvent, QPoint, QRect, Qt, Signal
from PySide6.QtGui import QCloseEvent, QCursor, QGuiApplication, QKeyEvent
from PySide6.QtWidgets import QApplication, QFrame, QHBoxLayout, QLabel, QPushButton, QVBoxLayout, QWidget

from fanyi.engine.options import DecodeOptions
from fanyi.ui.panes import TargetView, UntranslatedBadge, excerpt, unwrap_if_hard_wrapped
from fanyi.ui.worker import TranslationService

CHANNEL = "popup"
CURSOR_OFFSET = QPoint(12, 16)
WIDTH = 440
VIEW_LINES = (2, 14)  # the translation area grows with the text between these line counts


def place_near(size: QRect, cursor: QPoint, screen: QRect) -> QPoint:
    """Top-left for a window of ``size`` just below-right of the cursor, kept inside ``screen``."""
    x, y = cursor.x() + CURSOR_OFFSET.x(), cursor.y() + CURSOR_OFFSET.y()
    if x + size.width() > screen.right():
        x = cursor.x() - size.width() - CURSOR_OFFSET.x()
    if y + size.height() > screen.bottom():
        y = cursor.y() - size.height() - CURSOR_OFFSET.y()
    return QPoint(max(screen.left(), x), max(screen.top(), y))


class TranslatePopup(QWidget):
    closed = Signal()

    def __init__(self, service: TranslationService, options: Callable[[], DecodeOptions]) -> None:
        flags = Qt.WindowType.Tool | Qt.WindowType.FramelessWindowHint | Qt.WindowType.WindowStaysOnTopHint
        super().__init__(None, flags)
        self.setObjectName("translatePopup")
        self._service = service
        self._options = options
        self._req_id: int | None = None
        self.source_text = ""

        frame = QFrame(self)
        frame.setObjectName("popupFrame")
        frame.setStyleSheet(
            "QFrame#popupFrame { border: 1px solid palette(mid); border-radius: 6px; background: palette(base); }"
        )
        self.title = QLabel()
        self.title.setStyleSheet("font-weight: 600;")
        self.close_button = QPushButton("×")
        self.close_button.setFlat(True)
        self.close_button.setFixedWidth(28)
        self.close_button.clicked.connect(self.close)
        self.source = QLabel()
        self.source.setWordWrap(True)
        self.source.setStyleSheet("color: palette(placeholder-text);")
        self.view = TargetView()
        self.view.setFrameShape(QFrame.Shape.NoFrame)
        self.view.document().setDocumentMargin(0)  # align the text with the labels above and below
        self.view.textChanged.connect(self._fit)
        self.status = QLabel()
        self.untranslated = UntranslatedBadge()
        self.copy_button = QPushButton()
        self.copy_button.clicked.connect(self.copy)
        self.hint = QLabel()
        self.hint.setStyleSheet("color: palette(placeholder-text);")

        header = QHBoxLayout()
        header.addWidget(self.title)
        header.addStretch()
        header.addWidget(self.close_button)
        footer = QHBoxLayout()
        footer.addWidget(self.status)
        footer.addWidget(self.untranslated)
        footer.addStretch()
        footer.addWidget(self.hint)
        footer.addWidget(self.copy_button)
        inner = QVBoxLayout(frame)
        inner.addLayout(header)
        inner.addWidget(self.source)
        inner.addWidget(self.view, 1)
        inner.addLayout(footer)
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.addWidget(frame)
        self.setFixedWidth(WIDTH)
        self._fit()

        service.delta.connect(self._on_delta)
        service.rewound.connect(self._on_rewound)
        service.untranslated.connect(self._on_untranslated)
        service.finished.connect(self._on_finished)
        service.failed.connect(self._on_failed)
        service.cancelled.connect(self._on_cancelled)
        self.retranslate()

    def show_text(self, text: str, near: QPoint | None = None) -> None:
        """Translate ``text`` (the clipboard's) and show the popup by the cursor."""
        self.source_text = unwrap_if_hard_wrapped(text.strip())
        self.source.setText(excerpt(self.source_text, 160))
        self.view.set_text("")
        self.untranslated.clear()
        if not self.source_text:
            self._req_id = None
            self.status.setText(self.tr("The clipboard holds no text."))
        else:
            self.status.setText(self.tr("Translating…"))
            self._req_id = self._service.request(self.source_text, self._options(), channel=CHANNEL)
        cursor = near or QCursor.pos()
        screen = QGuiApplication.screenAt(cursor) or QGuiApplication.primaryScreen()
        self.move(place_near(self.frameGeometry(), cursor, screen.availableGeometry()))
        self.show()
        self.raise_()
        self.activateWindow()

    def show_message(self, message: str) -> None:
        """Show the popup with a message instead of a translation (no model, engine not ready)."""
        self._req_id = None
        self.source.setText("")
        self.view.set_text("")
        self.untranslated.clear()
        self.status.setText(message)
        self.show()

    def text(self) -> str:
        return self.view.text()

    def _fit(self) -> None:
        # QPlainTextEdit's document height is counted in lines (wrapped at the current width).
        lines = int(self.view.document().documentLayout().documentSize().height())
        lines = min(max(lines, VIEW_LINES[0]), VIEW_LINES[1])
        self.view.setFixedHeight(lines * self.view.fontMetrics().lineSpacing() + 6)
        self.adjustSize()

    def copy(self) -> None:
        QApplication.clipboard().setText(self.view.text())
        self.status.setText(self.tr("Copied."))

    def _on_delta(self, req_id: int, delta: str) -> None:
        if req_id == self._req_id:
            self.view.append(delta)

    def _on_rewound(self, req_id: int, chars: int) -> None:
        if req_id == self._req_id:
            self.view.rewind(chars)

    def _on_untranslated(self, req_id: int, failures: tuple) -> None:
        if req_id == self._req_id:
            self.untranslated.show_failures(failures)

    def _on_finished(self, req_id: int, text: str, stats: dict) -> None:
        if req_id == self._req_id:
            self.view.finish(text)
            self.status.setText("")

    def _on_failed(self, req_id: int, message: str) -> None:
        if req_id == self._req_id:
            self.status.setText(self.tr("Translation failed: %1").replace("%1", message))

    def _on_cancelled(self, req_id: int) -> None:
        # Closing and re-showing clear or replace _req_id first, so a match means the model was
        # switched under us: ask again, the request runs on the new model.
        if req_id == self._req_id and self.isVisible():
            self._req_id = self._service.request(self.source_text, self._options(), channel=CHANNEL)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.close()
        else:
            super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        self._service.cancel(CHANNEL)
        self._req_id = None
        super().closeEvent(event)
        self.closed.emit()

    def retranslate(self) -> None:
        self.title.setText(self.tr("Fanyi"))
        self.copy_button.setText(self.tr("Copy"))
        self.hint.setText(self.tr("Esc to close"))
        self.close_button.setToolTip(self.tr("Close (Esc)"))

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
