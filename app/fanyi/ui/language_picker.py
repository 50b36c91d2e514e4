"""A searchable language picker for many-to-many packs: names in the UI language, the model's codes as data.

Typing filters the list by any part of a name or code ("chin", "中文", "zho"); picking an entry, or
typing one name exactly, chooses it. The box always shows a language the pack offers.
"""

from __future__ import annotations

from PySide6.QtCore import QCollator, QLocale, Qt, Signal
from PySide6.QtWidgets import QComboBox, QCompleter, QLineEdit, QWidget

from fanyi.ui.language_names import language_label

CODE_ROLE = Qt.ItemDataRole.UserRole
MIN_CHARS = 18  # "Chinese (Simplified)" and most names fit


def widen_list(box: QComboBox) -> None:
    """The box's drop-down list as wide as its longest entry, not as the box: entries are never cut short."""
    view = box.view()
    view.setMinimumWidth(view.sizeHintForColumn(0) + view.verticalScrollBar().sizeHint().width() + 8)


class LanguagePicker(QComboBox):
    chosen = Signal(str)  # a model code, when the user picks a language

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setEditable(True)
        self.setInsertPolicy(QComboBox.InsertPolicy.NoInsert)
        self.setMaxVisibleItems(20)
        # a fixed width that names most languages whole: sized to the longest of ~200 names, the two
        # pickers pushed the window's other buttons off a 1000-pixel-wide window
        self.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon)
        self.setMinimumContentsLength(MIN_CHARS)
        completer = QCompleter(self.model(), self)
        completer.setFilterMode(Qt.MatchFlag.MatchContains)
        completer.setCaseSensitivity(Qt.CaseSensitivity.CaseInsensitive)
        completer.setCompletionMode(QCompleter.CompletionMode.PopupCompletion)
        completer.activated[str].connect(self._pick_text)  # type: ignore[index]  # PySide6's stubs lack [str]
        self.setCompleter(completer)
        self._codes: list[str] = []
        self._quiet = False
        self.activated.connect(lambda index: self._emit(self.itemData(index, CODE_ROLE)))
        self._edit().editingFinished.connect(self._restore)

    # --- what the window calls --------------------------------------------------------------------
    def set_languages(self, codes: list[str], current: str | None) -> None:
        """Offer `codes`, named in the UI language and sorted by name, with `current` chosen."""
        self._codes = list(codes)
        collator = QCollator(QLocale())
        entries = sorted(((language_label(c, codes), c) for c in codes), key=lambda entry: collator.sortKey(entry[0]))
        self._quiet = True
        try:
            self.clear()
            for label, code in entries:
                self.addItem(f"{label} · {code}", code)
        finally:
            self._quiet = False
        widen_list(self)
        self.set_code(current)

    def set_code(self, code: str | None) -> None:
        index = self.findData(code, CODE_ROLE)
        if index >= 0:
            self.setCurrentIndex(index)
            self._edit().setCursorPosition(0)  # a name longer than the box shows its start

    def code(self) -> str | None:
        return self.currentData(CODE_ROLE)

    def retranslate(self) -> None:
        self.set_languages(self._codes, self.code())

    def _edit(self) -> QLineEdit:
        edit = self.lineEdit()
        assert edit is not None  # an editable combo box has one
        return edit

    # --- choosing ---------------------------------------------------------------------------------
    def _pick_text(self, text: str) -> None:
        index = self.findText(text, Qt.MatchFlag.MatchFixedString)
        if index >= 0:
            self.setCurrentIndex(index)
            self._emit(self.itemData(index, CODE_ROLE))

    def _restore(self) -> None:
        """Typed text that names no entry: show the chosen language again; an exact name chooses it."""
        text = self._edit().text()
        index = self.findText(text, Qt.MatchFlag.MatchFixedString)
        if index >= 0 and index != self.currentIndex():
            self._pick_text(text)
        else:
            self._edit().setText(self.itemText(self.currentIndex()))

    def _emit(self, code: str | None) -> None:
        if code is not None and not self._quiet:
            self.chosen.emit(code)
