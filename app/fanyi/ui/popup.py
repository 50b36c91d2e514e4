"""The clipboard popup: a small frameless window near the cursor that streams one translation.

It picks its direction from the copied text as the window does (fanyi.routing), shows what it
detected, and can be turned round or switched to 简/台/港/繁/粤 in place. A word or a short phrase the
installed dictionary has gets its entry above the translation (fanyi.ui.dictionary_card), even when no
model is installed. It is as tall as its text up to
``VIEW_LINES`` lines, then scrolls; it can be dragged by its header, pinned to stay open, and
otherwise closes on Esc or when another window takes the focus.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QPoint, QRect, Qt, Signal
from PySide6.QtGui import QCloseEvent, QCursor, QGuiApplication, QKeyEvent, QMouseEvent
from PySide6.QtWidgets import (
    QApplication,
    QButtonGroup,
    QFrame,
    QLabel,
    QLayout,
    QPushButton,
    QSizePolicy,
    QToolButton,
    QWidget,
)

from fanyi import routing
from fanyi import summaries as summary_types
from fanyi.dictionary import Found
from fanyi.languages import SHORT_VARIANT_NAMES, language_of
from fanyi.rewriter import NAME as REWRITER
from fanyi.routing import Choice, Direction
from fanyi.ui import summary_text
from fanyi.ui.controllers.dictionary import DictionaryController
from fanyi.ui.controllers.direction import DirectionController
from fanyi.ui.dictionary_card import DictionaryCard
from fanyi.ui.i18n import Retranslating, variant_names
from fanyi.ui.language_names import language_label, pair_label
from fanyi.ui.layout import STRETCH, container, hbox, vbox
from fanyi.ui.panes import LostTermsNote, TargetView, UntranslatedBadge, excerpt, unwrap_if_hard_wrapped
from fanyi.ui.request_stream import RequestStream
from fanyi.ui.summary_service import SummaryService, SummaryStream
from fanyi.ui.theme import CHECKED_TOGGLES
from fanyi.ui.worker import TranslationService

CHANNEL = "popup"
CURSOR_OFFSET = QPoint(12, 16)
WIDTH = (400, 560)  # the popup is as wide as the copied text needs between these, in pixels
VIEW_LINES = (1, 12)  # the translation area grows with the text between these line counts, then scrolls
SOURCE_CHARS = 160  # of the copied text, shown above the translation
SUMMARY_CHANNEL = "popup-summary"
SUMMARY_FROM_CHARS = 500  # a copied text this long (a long paragraph or more) is offered a Summarize button


def place_near(size: QRect, cursor: QPoint, screen: QRect) -> QPoint:
    """Top-left for a window of ``size`` just below-right of the cursor, kept inside ``screen``."""
    x, y = cursor.x() + CURSOR_OFFSET.x(), cursor.y() + CURSOR_OFFSET.y()
    if x + size.width() > screen.right():
        x = cursor.x() - size.width() - CURSOR_OFFSET.x()
    if y + size.height() > screen.bottom():
        y = cursor.y() - size.height() - CURSOR_OFFSET.y()
    return QPoint(max(screen.left(), x), max(screen.top(), y))


class TranslatePopup(Retranslating, QWidget):
    closed = Signal()
    translated = Signal(str, str)  # the source and its translation, when a translation finishes
    open_requested = Signal(str)  # "Open in main window" with this text
    download_requested = Signal()  # no model: the window's download page

    def __init__(
        self,
        service: TranslationService,
        direction: DirectionController,
        dictionary: DictionaryController | None = None,
        summaries: SummaryService | None = None,
    ) -> None:
        flags = Qt.WindowType.Tool | Qt.WindowType.FramelessWindowHint | Qt.WindowType.WindowStaysOnTopHint
        super().__init__(None, flags)
        self.setObjectName("translatePopup")
        self._direction = direction
        self._dictionary = dictionary
        self.found: Found | None = None  # the dictionary's entry for the text shown
        self._choice: Choice | None = None
        self._manual: Direction | None = None  # turned round by the user, for this text
        # how the popup writes Chinese (简/台/港…), chosen in it: its own, not the window's (None: the window's)
        self._variant: str | None = None
        self._rewrite: str | None = None  # the text shown is Chinese written anew by OpenCC, no model
        self._was_active = False
        self._message = False  # showing a message (no model, nothing recognised…) instead of a translation
        self._drag_from: QPoint | None = None
        self.source_text = ""

        frame = QFrame(self)
        frame.setObjectName("popupFrame")
        frame.setStyleSheet(
            "QFrame#popupFrame { border: 1px solid palette(mid); border-radius: 6px; background: palette(base); }"
        )
        self.source = QLabel()
        self.source.setWordWrap(True)
        self.source.setStyleSheet("color: palette(placeholder-text);")
        self.view = TargetView()
        self.view.setFrameShape(QFrame.Shape.NoFrame)
        self.view.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.view.document().setDocumentMargin(0)  # align the text with the labels above and below
        self.view.setStyleSheet("background: transparent;")
        self.view.textChanged.connect(self._fit)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.card = DictionaryCard()
        self.card.copied.connect(self._copied)
        self.card.reshaped.connect(self._fit)
        self.download_button = QPushButton(clicked=self._download)
        footer = self._footer()
        frame.setLayout(
            vbox(
                self._header(),
                self.source,
                self.card,
                (self.view, 1),
                self.status,
                self.untranslated,
                self.lost_terms,
                hbox(self.download_button, STRETCH),
                footer,
            )
        )
        self.setLayout(vbox(frame, margin=0))
        self.download_button.hide()
        self._fit()
        self.stream = RequestStream(
            service,
            CHANNEL,
            self.view,
            self.untranslated,
            self.lost_terms,
            finished=self._finished,
            failed=self._failed,
            cancelled=self._cancelled,
        )
        self.summary_stream = (
            None
            if summaries is None
            else SummaryStream(
                summaries,
                SUMMARY_CHANNEL,
                self.view,
                progress=lambda *step: self._say(summary_text.stage(*step)),
                finished=self._summarized,
                failed=lambda message: self._say(self.tr("No summary: %1").replace("%1", message)),
            )
        )
        self.retranslate()

    def _header(self) -> QWidget:
        """The direction and what was detected; swap, pin and close. The popup is dragged by it."""
        self.direction_label = QLabel()
        self.direction_label.setStyleSheet("font-weight: 600;")
        self.detected_label = QLabel()
        self.detected_label.setStyleSheet("color: palette(placeholder-text);")
        self.swap_button = QToolButton(text="⇄", autoRaise=True, clicked=self.swap)
        self.pin_button = QToolButton(checkable=True, autoRaise=True)
        self.pin_button.setStyleSheet(CHECKED_TOGGLES)
        self.close_button = QToolButton(text="×", autoRaise=True, clicked=self.close)
        self.header = container(
            hbox(
                self.direction_label,
                self.detected_label,
                STRETCH,
                self.swap_button,
                self.pin_button,
                self.close_button,
                margin=0,
            ),
            "popupHeader",
        )
        return self.header

    def _footer(self) -> QLayout:
        """简/台/港/繁/粤 where the direction offers them; open in the window, copy. Sentences left
        untranslated, and glossary terms the model could not keep, are said on lines of their own above, so that
        nothing here is squeezed."""
        self.untranslated = UntranslatedBadge()
        self.untranslated.setWordWrap(True)
        self.lost_terms = LostTermsNote()
        self.variant_group = QButtonGroup(self)
        buttons = []
        for key, label in SHORT_VARIANT_NAMES.items():
            buttons.append(QToolButton(text=label, checkable=True))
            buttons[-1].setProperty("variant", key)
            self.variant_group.addButton(buttons[-1])
        self.variant_group.buttonClicked.connect(self._on_variant_chosen)
        self.variant_box = container(hbox(*buttons, margin=0, spacing=0))
        self.variant_box.setStyleSheet(CHECKED_TOGGLES)
        self.open_button = QPushButton(clicked=self.open_in_window)
        self.copy_button = QPushButton(clicked=self.copy)
        self.summarize_button = QPushButton(clicked=self.summarize)
        self.summarize_button.hide()
        for widget in (
            self.open_button,
            self.copy_button,
            self.summarize_button,
            self.variant_box,
            self.download_button,
        ):
            # never narrower than their text: the popup widens instead (see _width_for)
            widget.setSizePolicy(QSizePolicy.Policy.Minimum, QSizePolicy.Policy.Fixed)
        return hbox(self.variant_box, STRETCH, self.summarize_button, self.open_button, self.copy_button)

    # --- what the app calls -----------------------------------------------------------------------
    def show_text(self, text: str, near: QPoint | None = None) -> None:
        """Translate ``text`` (the clipboard's) and show the popup by the cursor."""
        self.source_text = unwrap_if_hard_wrapped(text.strip())
        self._manual = None
        self._set_mode(message=False)
        self.source.setText(excerpt(self.source_text, SOURCE_CHARS))
        self.source.setVisible(bool(self.source_text))
        self._look_up(self.source_text)
        self.summarize_button.setVisible(
            self.summary_stream is not None and len(self.source_text) >= SUMMARY_FROM_CHARS
        )
        self._translate()
        self._show_near(near)

    def show_no_model(self, near: QPoint | None = None, text: str = "") -> None:
        """No pack is installed: say so whole, with a button to the window's download page; the dictionary's
        entry for `text` (the copied word) above it where there is one."""
        self.show_message(
            self.tr(
                "No translation model is installed. Download one (once; after that Fanyi works offline), "
                "or import a model pack in Models."
            ),
            near,
            download=True,
            word=text,
        )

    def show_message(self, text: str, near: QPoint | None = None, *, download: bool = False, word: str = "") -> None:
        """A sentence instead of a translation (no text found in a screen region, no screen to capture…), below
        the dictionary's entry for `word` where there is one."""
        self.stream.cancel()
        if self.summary_stream is not None:
            self.summary_stream.cancel()
        self._choice = None
        self.source_text = ""
        self.summarize_button.hide()
        self._set_mode(message=True, download=download)
        self._look_up(word)
        self._update_direction()
        self._fit_width()
        self.status.setText(text)
        self._show_near(near)

    def text(self) -> str:
        return self.view.text()

    @property
    def pack_name(self) -> str | None:
        """The pack translating (or that translated) the text shown, which may not be the window's; OpenCC's
        name for Chinese written anew."""
        if self._choice is None:
            return None
        return REWRITER if self._rewrite is not None else self._choice.direction.pack.name

    # --- actions ----------------------------------------------------------------------------------
    def swap(self) -> None:
        """Translate the copied text the other way round."""
        if self._choice is not None and (back := self._direction.reverse(self._choice.direction)):
            self._manual = back
            self._translate()

    def copy(self) -> None:
        QApplication.clipboard().setText(self.view.text())
        self.status.setText(self.tr("Copied."))
        self.status.show()
        self._fit()

    def open_in_window(self) -> None:
        self.open_requested.emit(self.source_text)
        if not self.pin_button.isChecked():
            self.close()

    def summarize(self) -> None:
        """The copied text's summary in place of its translation, in the language it was translated into."""
        if self.summary_stream is None or not self.source_text:
            return
        self.stream.cancel()
        self.stream.clear_notes()
        direction = self._choice.direction if self._choice is not None else None
        target = language_of(direction.to_language).code if direction is not None else None
        self._say(self.tr("Summarizing…"))
        self.summary_stream.request(text=self.source_text, target=target)

    def _summarized(self, summary: summary_types.Summary) -> None:
        self.view.finish(summary_text.shown(summary))
        self._say(summary_text.note(summary))

    def _say(self, text: str) -> None:
        self.status.setText(text)
        self.status.show()
        self._fit()

    def _look_up(self, text: str) -> None:
        self.found = self._dictionary.lookup(text) if self._dictionary is not None and text else None
        self.card.show_found(self.found)

    def _copied(self, text: str) -> None:
        self.status.setText(self.tr("Copied: %1").replace("%1", excerpt(text, 40)))
        self.status.show()
        self._fit()

    def _download(self) -> None:
        self.download_requested.emit()  # the window shows its no-model page, with the Download button
        self.close()

    def _on_variant_chosen(self, button: QToolButton) -> None:
        self._variant = button.property("variant")  # the popup's own: the window keeps its choice
        self._request()

    # --- translating ------------------------------------------------------------------------------
    def _translate(self) -> None:
        if not self.source_text:
            self.stream.cancel()
            self._choice = None
            self.view.set_text("")
            self.view.hide()
            self._update_direction()
            self.status.setText(self.tr("The clipboard holds no text."))
            self.status.show()
            self._fit_width()
            self._fit()
            return
        if self._manual is not None:
            self._choice = Choice(self._manual, None)
        else:
            self._choice = self._direction.choose(self.source_text)
        self._update_direction()
        self._request()

    def _request(self) -> None:
        if self._choice is None:
            return
        if self.summary_stream is not None:
            self.summary_stream.cancel()  # turned round or rewritten: the translation again
        direction = self._choice.direction
        self.view.show()
        self.view.set_text("")
        self.stream.clear_notes()
        self.status.setText(self.tr("Translating…"))
        self.status.show()
        self._update_variants()
        self._fit_width()
        self._rewrite = self._direction.rewrite(self._choice, self._variant)
        self.stream.request(
            self.source_text,
            self._direction.options(direction, self._variant),
            pack=direction.pack.path,
            rewrite=self._rewrite,
        )
        self._fit()

    def _finished(self, text: str, _stats: dict) -> None:
        self.view.finish(text)
        self.status.setText("")
        self.status.hide()
        self._fit()
        self.translated.emit(self.source_text, text)

    def _failed(self, message: str) -> None:
        self.status.setText(self.tr("Translation failed: %1").replace("%1", message))
        self._fit()

    def _cancelled(self) -> None:
        # closing and re-showing cancel or replace the request first: the model was switched under us, so
        # ask again, and the request runs on the new model
        if self.isVisible():
            self._request()

    # --- what is shown ----------------------------------------------------------------------------
    def _set_mode(self, message: bool, download: bool = False) -> None:
        for widget in (
            self.detected_label,
            self.swap_button,
            self.pin_button,
            self.view,
            self.open_button,
            self.copy_button,
        ):
            widget.setVisible(not message)
        self._message = message
        self.source.setVisible(not message)
        self.download_button.setVisible(download)
        self.variant_box.setVisible(False)
        self.stream.clear_notes()
        self.status.setVisible(message)

    def _update_direction(self) -> None:
        choice = self._choice
        if choice is None:
            self.direction_label.setText(self.tr("Fanyi") if self._message else "")
            self.detected_label.setText("")
            self.swap_button.setEnabled(False)
            return
        direction = choice.direction
        self.direction_label.setText(pair_label(direction.from_language, direction.to_language))
        if choice.detected is None:
            self.detected_label.setText("")
        elif choice.supported:
            self.detected_label.setText(self.tr("Detected: %1").replace("%1", language_label(choice.detected)))
        else:
            self.detected_label.setText(
                self.tr("Detected: %1 (no model)").replace("%1", language_label(choice.detected))
            )
        back = self._direction.reverse(direction)
        self.swap_button.setEnabled(back is not None)
        self.swap_button.setToolTip(
            self.tr("Translate the other way round")
            if back is not None
            else self.tr("Install a model for the other direction to swap")
        )

    def _update_variants(self) -> None:
        direction = self._choice.direction if self._choice is not None else None
        offered = routing.ways_of_writing(direction) if direction is not None else []
        chosen = self._direction.written(direction, self._variant) if direction is not None else None
        for button in self.variant_group.buttons():
            key = button.property("variant")
            button.setVisible(key in offered)
            button.setChecked(key == chosen)
        self.variant_box.setVisible(bool(offered))

    def _fit_width(self) -> None:
        """Wide enough for a short text on one line, within WIDTH, and never narrower than the buttons
        and labels shown need in the UI language and font in use."""
        text = " ".join(self.source_text.split())[:SOURCE_CHARS]
        natural = self.view.fontMetrics().horizontalAdvance(text) + 48
        self.ensurePolished()  # style sheets count in the buttons' sizes only once polished (at first show)
        self.setMinimumWidth(0)
        self.setMaximumWidth(16777215)  # QWIDGETSIZE_MAX: minimumSizeHint is the layout's, not the fixed width
        layout = self.layout()
        assert layout is not None
        layout.invalidate()
        layout.activate()
        self.setFixedWidth(max(WIDTH[0], min(WIDTH[1], natural), self.minimumSizeHint().width()))

    def _fit(self) -> None:
        """As tall as the translation, wrapped at the popup's width, up to VIEW_LINES lines."""
        layout = self.view.document().documentLayout()
        block = self.view.document().firstBlock()
        height = 0.0
        while block.isValid():  # in pixels, as QPlainTextEdit lays the lines out
            height += layout.blockBoundingRect(block).height()
            block = block.next()
        line = self.view.fontMetrics().lineSpacing()
        height = min(max(height, VIEW_LINES[0] * line), VIEW_LINES[1] * line)
        self.view.setFixedHeight(int(height + 0.999) + 2 * self.view.frameWidth() + 2)
        self.adjustSize()
        # wrapped lines (a dictionary entry's) need the height they take at the popup's own width, which
        # adjustSize measures at the layout's preferred width instead
        outer = self.layout()
        if outer is not None and outer.hasHeightForWidth():
            self.resize(self.width(), max(outer.totalHeightForWidth(self.width()), self.minimumSizeHint().height()))
        self._keep_on_screen()

    def _show_near(self, near: QPoint | None) -> None:
        cursor = near or QCursor.pos()
        screen = QGuiApplication.screenAt(cursor) or QGuiApplication.primaryScreen()
        self._fit()
        if not (self.isVisible() and self.pin_button.isChecked()):  # a pinned popup stays where it was put
            self.move(place_near(self.frameGeometry(), cursor, screen.availableGeometry()))
        self._was_active = False
        self.show()
        self.raise_()
        self.activateWindow()

    def _keep_on_screen(self) -> None:
        """Growing with its text, the popup moves up rather than past the bottom of the screen."""
        if not self.isVisible():
            return
        screen = (self.screen() or QGuiApplication.primaryScreen()).availableGeometry()
        bottom = self.y() + self.frameGeometry().height()
        if bottom > screen.bottom():
            self.move(self.x(), max(screen.top(), screen.bottom() - self.frameGeometry().height()))

    # --- window behaviour -------------------------------------------------------------------------
    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            # Wayland lets only the compositor move a window. Elsewhere the popup moves itself: asked to
            # move it, Openbox gave the focus to the main window, which closed the popup.
            handle = self.windowHandle()
            if not (QGuiApplication.platformName() == "wayland" and handle is not None and handle.startSystemMove()):
                self._drag_from = event.globalPosition().toPoint() - self.pos()
            event.accept()
        else:
            super().mousePressEvent(event)

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._drag_from is not None:
            self.move(event.globalPosition().toPoint() - self._drag_from)
            event.accept()
        else:
            super().mouseMoveEvent(event)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        self._drag_from = None
        super().mouseReleaseEvent(event)

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.close()
        else:
            super().keyPressEvent(event)

    def closeEvent(self, event: QCloseEvent) -> None:
        self.stream.cancel()
        self._drag_from = None
        super().closeEvent(event)
        self.closed.emit()

    def retranslate(self) -> None:
        self.pin_button.setText(self.tr("Pin"))
        self.pin_button.setToolTip(self.tr("Keep the popup open when another window is clicked"))
        self.close_button.setToolTip(self.tr("Close (Esc)"))
        self.copy_button.setText(self.tr("Copy"))
        self.summarize_button.setText(self.tr("Summarize"))
        self.summarize_button.setToolTip(self.tr("The gist of the copied text instead of its translation"))
        self.open_button.setText(self.tr("Open in main window"))
        self.download_button.setText(self.tr("Download…"))
        names = variant_names()
        for button in self.variant_group.buttons():
            button.setToolTip(names[button.property("variant")])
        self._update_direction()
        self._fit_width()

    def event(self, event: QEvent) -> bool:
        handled = super().event(event)
        # a child grew (a font or style applied after the width was fitted): widen rather than cut it
        if event.type() == QEvent.Type.LayoutRequest and self.minimumSizeHint().width() > self.width():
            self._fit_width()
        return handled

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.ActivationChange:
            # Another window took the focus (a click elsewhere): a transient popup goes, a pinned one stays.
            if self.isActiveWindow():
                self._was_active = True
            elif self._was_active and self.isVisible() and not self.pin_button.isChecked():
                self.close()
        super().changeEvent(event)
