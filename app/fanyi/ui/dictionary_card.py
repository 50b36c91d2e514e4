"""A dictionary entry above a translation: what the popup and the window show for a word or a short phrase.

The word, its phonetic, Collins stars and Oxford 3000; what rule found it when it is not the word as
selected ("went: past tense of go"); the Chinese senses, one a line, each copied with one click; the parts
of speech with their shares; the word forms; the exam lists and frequency ranks; the English definition,
folded. For a Chinese word, the English words that have it among their senses, most frequent first, each
copied with one click. Hidden when nothing was found: the translation is then shown alone.
"""

from __future__ import annotations

import html

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, QEvent, Qt, Signal
from PySide6.QtGui import QMouseEvent
from PySide6.QtWidgets import QApplication, QFrame, QLabel, QSizePolicy, QToolButton, QVBoxLayout, QWidget

from fanyi.dictionary import Entry, Found, Sense
from fanyi.ui import i18n, theme
from fanyi.ui.i18n import Retranslating
from fanyi.ui.layout import STRETCH, hbox

SHOWN_SENSES = 8  # Chinese sense lines shown; the rest are counted
SHOWN_DEFINITIONS = 6  # English definition lines, once unfolded
SHOWN_WORDS = 8  # English words listed for a Chinese one
CONTEXT = "dictionary"

# ECDICT's word forms (README: 词形变化), in the order shown
FORM_NAMES = {
    "p": QT_TRANSLATE_NOOP("dictionary", "past tense"),
    "d": QT_TRANSLATE_NOOP("dictionary", "past participle"),
    "i": QT_TRANSLATE_NOOP("dictionary", "present participle"),
    "3": QT_TRANSLATE_NOOP("dictionary", "third person singular"),
    "r": QT_TRANSLATE_NOOP("dictionary", "comparative"),
    "t": QT_TRANSLATE_NOOP("dictionary", "superlative"),
    "s": QT_TRANSLATE_NOOP("dictionary", "plural"),
}
# ECDICT's exam lists (its tag field)
TAG_NAMES = {
    "zk": QT_TRANSLATE_NOOP("dictionary", "Zhongkao"),
    "gk": QT_TRANSLATE_NOOP("dictionary", "Gaokao"),
    "ky": QT_TRANSLATE_NOOP("dictionary", "Kaoyan"),
    "cet4": QT_TRANSLATE_NOOP("dictionary", "CET-4"),
    "cet6": QT_TRANSLATE_NOOP("dictionary", "CET-6"),
    "toefl": QT_TRANSLATE_NOOP("dictionary", "TOEFL"),
    "ielts": QT_TRANSLATE_NOOP("dictionary", "IELTS"),
    "gre": QT_TRANSLATE_NOOP("dictionary", "GRE"),
}
GREY = "palette(placeholder-text)"


def _t(text: object) -> str:
    return QCoreApplication.translate(CONTEXT, str(text))


def form_names(kinds: str) -> str:
    """ "pd" → "past tense, past participle" in the UI language (过去式、过去分词)."""
    return ("、" if i18n.current() == "zh_CN" else ", ").join(_t(FORM_NAMES[k]) for k in FORM_NAMES if k in kinds)


class CopyRow(QLabel):
    """A line of the card that is copied when clicked: a sense, or an English word for a Chinese one."""

    clicked = Signal(str)

    def __init__(self, shown: str, copied: str) -> None:
        super().__init__(shown)
        self.copied = copied
        self.setTextFormat(Qt.TextFormat.RichText)
        self.setWordWrap(True)
        self.setCursor(Qt.CursorShape.PointingHandCursor)
        self.setAttribute(Qt.WidgetAttribute.WA_Hover)
        self.setObjectName("dictionaryRow")
        self.setStyleSheet("QLabel#dictionaryRow:hover { background: palette(alternate-base); border-radius: 3px; }")
        self.setSizePolicy(QSizePolicy.Policy.Preferred, QSizePolicy.Policy.Minimum)

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton and self.rect().contains(event.position().toPoint()):
            self.clicked.emit(self.copied)
        super().mouseReleaseEvent(event)


def _sense_html(sense: Sense) -> str:
    label = f'<span style="color:{theme.colour("secondary")}">{html.escape(sense.label)}</span> ' if sense.label else ""
    return label + html.escape(sense.text)


class DictionaryCard(Retranslating, QFrame):
    copied = Signal(str)  # a sense or word was copied (the text)
    reshaped = Signal()  # its contents changed height (another entry, the definition unfolded)

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("dictionaryCard")
        self.setStyleSheet(
            "QFrame#dictionaryCard { border: none; border-bottom: 1px solid palette(mid); padding-bottom: 4px; }"
        )
        self.found: Found | None = None
        self._unfolded = False
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 4)
        self._body = QWidget()
        self._layout = QVBoxLayout(self._body)
        outer.addWidget(self._body)
        self.rows: list[CopyRow] = []  # what can be copied, for tests and keyboard users
        self.fold_button: QToolButton | None = None
        self.hide()

    # --- what the popup and the window call -------------------------------------------------------------
    def show_found(self, found: Found | None) -> None:
        """Show `found` (None: hide the card)."""
        self.found = found
        self._unfolded = False
        self._build()

    def plain_text(self) -> str:
        """What the card says, as text (for tests and the accessibility name)."""
        return "\n".join(w.text() for w in self._body.findChildren(QLabel) if w.isVisibleTo(self))

    # --- building -------------------------------------------------------------------------------------
    def _clear(self) -> None:
        """A new body for the card's contents (the old one goes with everything in it)."""
        outer = self.layout()
        assert outer is not None
        old, self._body = self._body, QWidget()
        self._layout = QVBoxLayout(self._body)
        self._layout.setContentsMargins(0, 0, 0, 0)
        self._layout.setSpacing(2)
        outer.replaceWidget(old, self._body)
        old.deleteLater()
        self.rows = []
        self.fold_button = None

    def _build(self) -> None:
        self._clear()
        found = self.found
        if found is None:
            self.hide()
            self.reshaped.emit()
            return
        if found.match == "chinese":
            self._chinese(found)
        else:
            self._english(found)
        self.show()
        self.updateGeometry()
        self.reshaped.emit()

    def _label(self, text: str, *, grey: bool = False, rich: bool = False) -> QLabel:
        label = QLabel(text)
        label.setWordWrap(True)
        label.setTextFormat(Qt.TextFormat.RichText if rich else Qt.TextFormat.PlainText)
        label.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        if grey:
            label.setStyleSheet(f"color: {GREY};")
        self._layout.addWidget(label)
        return label

    def _row(self, shown: str, copied: str) -> CopyRow:
        row = CopyRow(shown, copied)
        row.setToolTip(self.tr("Click to copy"))
        row.clicked.connect(self._copy)
        self._layout.addWidget(row)
        self.rows.append(row)
        return row

    def _headline(self, entry: Entry) -> None:
        word = QLabel(entry.word)
        word.setObjectName("dictionaryWord")
        font = word.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        word.setFont(font)
        word.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        parts: list[QWidget | str] = [word]
        if entry.phonetic:
            phonetic = QLabel(f"/{entry.phonetic}/")
            phonetic.setStyleSheet(f"color: {GREY};")
            phonetic.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
            parts.append(phonetic)
        parts.append(STRETCH)
        badges = []
        if entry.collins:
            badges.append("★" * entry.collins)
        if entry.oxford:
            badges.append(self.tr("Oxford 3000"))
        if badges:
            badge = QLabel(" · ".join(badges))
            theme.tint(badge, "warning")
            badge.setToolTip(self.tr("Collins stars: how common the word is (5 is the most common)"))
            parts.append(badge)
        self._layout.addLayout(hbox(*parts, margin=0, spacing=8))

    def _english(self, found: Found) -> None:
        entry = found.entry
        self._headline(entry)
        query = found.query.strip()
        if found.match == "lemma" and found.form_of:
            self._label(
                self.tr("%1: %2 of %3")
                .replace("%1", query)
                .replace("%2", form_names(found.form_of))
                .replace("%3", entry.word),
                grey=True,
            )
        elif found.match in ("phrase", "fuzzy", "lemma"):
            self._label(self.tr("%1 → %2").replace("%1", query).replace("%2", entry.word), grey=True)
        for sense in entry.senses[:SHOWN_SENSES]:
            self._row(_sense_html(sense), sense.text)
        if len(entry.senses) > SHOWN_SENSES:
            self._label(self.tr("… and %1 more").replace("%1", str(len(entry.senses) - SHOWN_SENSES)), grey=True)
        if entry.pos:
            shares = " · ".join(f"{pos}. {share}%" for pos, share in entry.pos)
            self._label(self.tr("Parts of speech: %1").replace("%1", shares), grey=True)
        if entry.forms:
            forms = " · ".join(f"{_t(FORM_NAMES[k])} {v}" for k, v in entry.forms.items() if k in FORM_NAMES)
            self._label(self.tr("Forms: %1").replace("%1", forms), grey=True)
        if len(found.entries) > 1:  # a form with senses of its own ("gone"): its lemma too
            lemma = found.entries[1]
            said = (
                self.tr("%1 of %2")
                .replace("%1", form_names(entry.lemma_forms) or self.tr("a form"))
                .replace("%2", lemma.word)
            )
            first = lemma.senses[0] if lemma.senses else None
            self._row(
                f'<span style="color:{theme.colour("secondary")}">{html.escape(said)}:</span> '
                + (_sense_html(first) if first else ""),
                lemma.word,
            )
        facts = []
        if entry.tags:
            facts.append(" ".join(_t(TAG_NAMES[t]) for t in entry.tags))
        if entry.frq or entry.bnc:
            ranks = [f"#{r} ({name})" for r, name in ((entry.frq, self.tr("contemporary")), (entry.bnc, "BNC")) if r]
            facts.append(self.tr("Frequency rank %1").replace("%1", ", ".join(ranks)))
        if facts:
            self._label(" · ".join(facts), grey=True)
        if entry.definitions:
            self.fold_button = QToolButton(autoRaise=True)
            self.fold_button.clicked.connect(lambda: self._fold(not self._unfolded))
            self.fold_button.setToolButtonStyle(Qt.ToolButtonStyle.ToolButtonTextOnly)
            self._layout.addWidget(self.fold_button)
            self.definition = self._label(
                "<br>".join(_sense_html(d) for d in entry.definitions[:SHOWN_DEFINITIONS]), rich=True
            )
            self._fold(self._unfolded)

    def _chinese(self, found: Found) -> None:
        title = QLabel(found.query.strip())
        font = title.font()
        font.setBold(True)
        font.setPointSizeF(font.pointSizeF() * 1.15)
        title.setFont(font)
        self._layout.addWidget(title)
        for entry in found.entries[:SHOWN_WORDS]:
            phonetic = (
                f' <span style="color:{theme.colour("secondary")}">/{html.escape(entry.phonetic)}/</span>'
                if entry.phonetic
                else ""
            )
            first = entry.senses[0] if entry.senses else None
            self._row(
                f"<b>{html.escape(entry.word)}</b>{phonetic} " + (_sense_html(first) if first else ""), entry.word
            )

    def _fold(self, unfolded: bool) -> None:
        self._unfolded = unfolded
        if self.fold_button is not None:
            self.fold_button.setText(("▾ " if unfolded else "▸ ") + self.tr("English definition"))
            self.definition.setVisible(unfolded)
        self.updateGeometry()
        self.reshaped.emit()

    def _copy(self, text: str) -> None:
        QApplication.clipboard().setText(text)
        self.copied.emit(text)

    def retranslate(self) -> None:
        self._build()  # folded or unfolded as it was

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.ApplicationPaletteChange:  # rich text's grey is the theme's
            self._build()
        super().changeEvent(event)
