"""A document job's coverage report: how many parts were translated, left as they were (and why), and
each failed part with its reason; Open and Show in folder for the output.

The report's lines are said in the UI language: a line with a kind (fanyi.documents.said) from LINES, its
template of that kind here; a fixed reason from _KNOWN; where a part is ("page 3") from _WHERE.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import cast

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication, Qt
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QTreeWidget,
    QTreeWidgetItem,
    QVBoxLayout,
    QWidget,
)

from fanyi.documents import said
from fanyi.documents.base import OTHER_REASONS, JobReport
from fanyi.ui.i18n import Retranslating
from fanyi.ui.open_path import open_path

# What fanyi.documents says about a part it leaves as it was, and about a whole document: English,
# translated here by these source strings (QT_TRANSLATE_NOOP lets lupdate find them).
_KNOWN = {
    "numbers or symbols only": QT_TRANSLATE_NOOP("ReportDialog", "numbers or symbols only"),
    "a letter alone": QT_TRANSLATE_NOOP("ReportDialog", "a letter alone"),
    "code or URL": QT_TRANSLATE_NOOP("ReportDialog", "code or a web address"),
    "code block": QT_TRANSLATE_NOOP("ReportDialog", "code block"),
    "already Chinese": QT_TRANSLATE_NOOP("ReportDialog", "already Chinese"),
    "already Japanese": QT_TRANSLATE_NOOP("ReportDialog", "already Japanese"),
    "already Korean": QT_TRANSLATE_NOOP("ReportDialog", "already Korean"),
    "already in Latin script": QT_TRANSLATE_NOOP("ReportDialog", "already in Latin script"),
    OTHER_REASONS: QT_TRANSLATE_NOOP("ReportDialog", "other reasons"),
    # what a PDF's reader leaves as it is (fanyi.documents.pdf.layout) and its writer could not draw (rewrite)
    "formula": QT_TRANSLATE_NOOP("ReportDialog", "formula"),
    "code": QT_TRANSLATE_NOOP("ReportDialog", "code"),
    "text in a figure": QT_TRANSLATE_NOOP("ReportDialog", "text in a figure"),
    "list marker": QT_TRANSLATE_NOOP("ReportDialog", "list marker"),
    "rotated text": QT_TRANSLATE_NOOP("ReportDialog", "rotated text"),
    "vertical text": QT_TRANSLATE_NOOP("ReportDialog", "vertical text"),
    "reference list": QT_TRANSLATE_NOOP("ReportDialog", "reference list"),
    "a type specimen": QT_TRANSLATE_NOOP("ReportDialog", "a type specimen"),
    "right-to-left text": QT_TRANSLATE_NOOP("ReportDialog", "right-to-left text"),
    "text outside the page": QT_TRANSLATE_NOOP("ReportDialog", "text outside the page"),
    "text whose font maps no Unicode": QT_TRANSLATE_NOOP("ReportDialog", "text whose font maps no Unicode"),
    "its text is drawn in a way that cannot be edited, so it is left as it was": QT_TRANSLATE_NOOP(
        "ReportDialog", "its text is drawn in a way that cannot be edited, so it is left as it was"
    ),
    # why a PDF's page was kept as it was (fanyi.documents.pdf.rewrite.PageKept)
    "its text is drawn only in Type 3 fonts, pictures of glyphs that are not replaced": QT_TRANSLATE_NOOP(
        "ReportDialog", "its text is drawn only in Type 3 fonts, pictures of glyphs that are not replaced"
    ),
    "its content stream is damaged, or two PDF parsers read it differently": QT_TRANSLATE_NOOP(
        "ReportDialog", "its content stream is damaged, or two PDF parsers read it differently"
    ),
    # fanyi.documents.pdf.todocx.LAYOUT_NOTE
    "the page layout of the PDF is not kept: this is its text, joined into paragraphs": QT_TRANSLATE_NOOP(
        "ReportDialog", "the page layout of the PDF is not kept: this is its text, joined into paragraphs"
    ),
}

# Every kind of line fanyi.documents.said makes, as this UI says it: the English is said.ENGLISH's, the {names}
# its parameters (tests/ui/test_report_language.py holds the two tables equal)
LINES = {
    "model.loop": QT_TRANSLATE_NOOP("ReportDialog", "the model kept repeating itself"),
    "model.runaway": QT_TRANSLATE_NOOP("ReportDialog", "the model's output ran far longer than the source"),
    "model.empty": QT_TRANSLATE_NOOP("ReportDialog", "the model returned nothing"),
    "model.no_model": QT_TRANSLATE_NOOP(
        "ReportDialog", "it is English in Chinese text, and no model was there to translate it"
    ),
    "model.again": QT_TRANSLATE_NOOP("ReportDialog", "{reason}, also when translated again with a repetition guard"),
    "model.sentences": "{sentences}",
    "model.sentence": QT_TRANSLATE_NOOP("ReportDialog", "sentence “{sentence}”: {reason}"),
    "model.empty_translation": QT_TRANSLATE_NOOP("ReportDialog", "the translator returned an empty translation"),
    "report.mostly_left": QT_TRANSLATE_NOOP(
        "ReportDialog", "most of its words were left as they were: {left} of {total} letters ({reasons})"
    ),
    "pdf.page": QT_TRANSLATE_NOOP("ReportDialog", "page {page}: {facts}"),
    "pdf.kept": QT_TRANSLATE_NOOP("ReportDialog", "could not be rewritten ({reason}) and is kept as it was"),
    "pdf.shrunk": QT_TRANSLATE_NOOP("ReportDialog", "{count} drawn smaller than the rest of their kind to fit"),
    "pdf.overflowed": QT_TRANSLATE_NOOP("ReportDialog", "{count} drawn below the smallest size set for them to fit"),
    "pdf.cut": QT_TRANSLATE_NOOP("ReportDialog", "{count} cut short (“…”): they did not fit even at the smallest size"),
    "pdf.no_glyph": QT_TRANSLATE_NOOP(
        "ReportDialog", "the font has no glyph for {characters}: those characters are not drawn"
    ),
    "pdf.page_has": QT_TRANSLATE_NOOP("ReportDialog", "page {pages} has"),
    "pdf.pages_have": QT_TRANSLATE_NOOP("ReportDialog", "pages {pages} have"),
    "pdf.ocr": QT_TRANSLATE_NOOP(
        "ReportDialog",
        "{pages} no text layer (a scan): the text there was recognised by OCR and may hold misread characters",
    ),
    "pdf.no_ocr": QT_TRANSLATE_NOOP("ReportDialog", "{pages} no text layer and were left out: {error}"),
}

# Where a part is, as the formats name it ("page 3", "slide 2, notes"): the word and its number
_WHERE = {
    "page": QT_TRANSLATE_NOOP("ReportDialog", "page %1"),
    "paragraph": QT_TRANSLATE_NOOP("ReportDialog", "paragraph %1"),
    "slide": QT_TRANSLATE_NOOP("ReportDialog", "slide %1"),
    "notes": QT_TRANSLATE_NOOP("ReportDialog", "notes of slide %1"),
    "line": QT_TRANSLATE_NOOP("ReportDialog", "line %1"),
    "cue": QT_TRANSLATE_NOOP("ReportDialog", "subtitle %1"),
}
_PLACE = re.compile(r"^(\w+) (\d+)\b")


def known_text(text: str) -> str:
    """A reason or note in the UI language; one we do not know (an engine's message) as it is."""
    source = _KNOWN.get(text)
    return QCoreApplication.translate("ReportDialog", str(source)) if source else text


def line_text(line: str) -> str:
    """A report's line in the UI language: one with a kind by its template here (its English for a kind this app
    has no template of), its parameters likewise; one without as known_text says it."""
    if not isinstance(line, said.Said):
        return known_text(line)

    def template(kind: str) -> str:
        source = LINES.get(kind)
        return QCoreApplication.translate("ReportDialog", str(source)) if source else said.ENGLISH[kind]

    joiner = QCoreApplication.translate("ReportDialog", "; ")
    return said.say(line.kind, line.parameters, template, known_text, joiner)


def where_text(where: str) -> str:
    """Where a part is ("page 3", "line 12, alt of <img>") in the UI language: its first word and number."""
    match = _PLACE.match(where)
    source = _WHERE.get(match.group(1)) if match else None
    if match is None or source is None:
        return where
    placed = QCoreApplication.translate("ReportDialog", str(source)).replace("%1", match.group(2))
    return placed + where[match.end() :]


class ReportDialog(Retranslating, QDialog):
    def __init__(self, report: JobReport, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.report = report
        self.heading = QLabel()
        self.heading.setWordWrap(True)
        self.heading.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.heading.setStyleSheet("font-weight: 600;")
        self.translated = QLabel()
        self.kept = QLabel()
        self.kept.setWordWrap(True)
        self.failed = QLabel()
        self.counts = QFormLayout()
        for field in (self.translated, self.kept, self.failed):
            self.counts.addRow(QLabel(), field)
        self.failures = QTreeWidget()
        self.failures.setColumnCount(3)
        self.failures.setRootIsDecorated(False)
        self.failures.setWordWrap(True)
        self.failures.setSelectionMode(QAbstractItemView.SelectionMode.ExtendedSelection)
        # where and why whole (a reason is a sentence: "the model kept repeating itself, also …"); the
        # text gets the rest, and its tooltip has all of it
        header = self.failures.header()
        header.setStretchLastSection(False)
        for column, mode in enumerate(
            (
                QHeaderView.ResizeMode.ResizeToContents,
                QHeaderView.ResizeMode.Stretch,
                QHeaderView.ResizeMode.ResizeToContents,
            )
        ):
            header.setSectionResizeMode(column, mode)
        self.failures.setVisible(bool(report.failed_reasons or report.left_letters))
        self.notes = QLabel()
        self.notes.setWordWrap(True)
        self.notes.setVisible(bool(report.notes or report.removed_characters or report.lost_terms))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)
        self.open_button = QPushButton(clicked=lambda: self._open(report.output))
        self.folder_button = QPushButton(clicked=lambda: self._open(report.output and report.output.parent))
        self.cannot_open: QMessageBox | None = None  # the desktop could not open the output: where it is
        for button in (self.open_button, self.folder_button):
            buttons.addButton(button, QDialogButtonBox.ButtonRole.ActionRole)
            button.setEnabled(report.output is not None)
        layout = QVBoxLayout(self)
        layout.addWidget(self.heading)
        layout.addLayout(self.counts)
        layout.addWidget(self.failures, 1)
        layout.addWidget(self.notes)
        if not self.failures.isVisibleTo(self):
            layout.addStretch(1)  # nothing to list: keep the counts together at the top
        layout.addWidget(buttons)
        self.retranslate()
        if self.failures.isVisibleTo(self):
            reason = self.failures.sizeHintForColumn(2) + self.failures.sizeHintForColumn(0)
            self.resize(max(700, reason + 320), 440)  # and at least 240 pixels of the text
        else:
            self.setMinimumWidth(480)
            self.adjustSize()

    def _open(self, path: Path | None) -> None:
        if path is not None:
            self.cannot_open = open_path(path, self)

    def retranslate(self) -> None:
        r = self.report
        self.setWindowTitle(self.tr("Report: %1").replace("%1", r.source.name))
        output = r.output.name if r.output else ""
        if r.failed_reasons:
            heading = self.tr(
                "%1 is written, but some parts could not be translated and are left as they were."
            ).replace("%1", output)
        else:
            heading = self.tr("%1 is written.").replace("%1", output)
        if r.mostly_left:  # said first, plainly: a document left mostly untranslated is not "written" and done
            heading = self.tr("Note: %1").replace("%1", line_text(r.left_said())) + "\n" + heading
        self.heading.setText(heading)
        captions = (self.tr("Translated"), self.tr("Left as they were"), self.tr("Failed"))
        for row, caption in enumerate(captions):
            label = self.counts.itemAt(row, QFormLayout.ItemRole.LabelRole)
            assert label is not None  # each row has its label
            cast(QLabel, label.widget()).setText(caption)
        self.translated.setText(self.tr("%1 of %2 parts").replace("%1", str(r.translated)).replace("%2", str(r.total)))
        kept = str(r.kept_count)
        if r.kept_reasons:
            reasons = self.tr(", ").join(
                self.tr("%1: %2").replace("%1", line_text(reason)).replace("%2", str(count))
                for reason, count in sorted(r.kept_reasons.items())
            )
            kept = self.tr("%1 (%2)").replace("%1", kept).replace("%2", reasons)
        self.kept.setText(kept)
        self.failed.setText(str(r.failed_count))
        self.failures.setHeaderLabels([self.tr("Where"), self.tr("Text"), self.tr("Reason")])
        self.failures.clear()
        # the failed parts, then where words a reader may miss were left (a PDF's text taken for a figure's)
        listed = [(reason, count, r.failed) for reason, count in r.failed_reasons.items()]
        listed += [(reason, r.kept_reasons[reason], r.kept) for reason in r.left_letters]
        for reason, count, entries in listed:
            named = [e for e in entries if e.reason == reason]
            for entry in named:
                item = QTreeWidgetItem([where_text(entry.where), entry.text, line_text(reason)])
                for column in range(3):
                    item.setToolTip(column, item.text(column))
                self.failures.addTopLevelItem(item)
            if count > len(named):
                more = self.tr("… and %1 more").replace("%1", str(count - len(named)))
                self.failures.addTopLevelItem(QTreeWidgetItem(["", more, line_text(reason)]))
        notes = [line_text(note) for note in r.notes]
        if r.lost_terms:
            lost = self.tr(
                "the glossary's %1 could not be kept (the model broke their placeholders): their sentences were "
                "translated without the glossary"
            )
            notes.insert(0, lost.replace("%1", self.tr(", ").join(f"“{term}”" for term in r.lost_terms)))
        if r.removed_characters:
            removed = self.tr("%1 control characters that the model wrote and no document may hold were left out")
            notes.insert(0, removed.replace("%1", str(r.removed_characters)))
        self.notes.setText("\n".join(self.tr("Note: %1").replace("%1", note) for note in notes))
        self.open_button.setText(self.tr("Open"))
        self.folder_button.setText(self.tr("Show in folder"))
