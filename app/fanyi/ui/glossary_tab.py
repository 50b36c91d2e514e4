"""The settings dialog's Glossary tab: terms and their translations per language pair, edited in a table.

Rows are edited in place (double-click a cell); Add puts an empty row for the pair last used, Remove
deletes the selected rows, Import… merges a CSV file in (a term of the same pair is replaced) and
Export… writes the glossary as CSV (UTF-8 with a byte-order mark, for Excel). Nothing is kept until
the dialog's OK; a row that is not a glossary entry (an empty term, an unknown language code) is
named then and the dialog stays open.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import (
    QAbstractItemView,
    QFileDialog,
    QHeaderView,
    QLabel,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QWidget,
)

from fanyi.glossary import Glossary, GlossaryError, Term, read_csv, write_csv
from fanyi.ui import theme
from fanyi.ui.glossary_messages import message
from fanyi.ui.i18n import Retranslating
from fanyi.ui.layout import STRETCH, hbox, vbox

COLUMNS = 4  # source, target, term, translation


class GlossaryTab(Retranslating, QWidget):
    def __init__(self, glossary: Glossary, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.table = QTableWidget(0, COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        for column, mode in enumerate(
            (QHeaderView.ResizeMode.ResizeToContents,) * 2 + (QHeaderView.ResizeMode.Stretch,) * 2
        ):
            header.setSectionResizeMode(column, mode)
        self.add_button, self.remove_button = QPushButton(), QPushButton()
        self.import_button, self.export_button = QPushButton(), QPushButton()
        self.note = QLabel()
        self.note.setWordWrap(True)
        self.add_button.clicked.connect(self.add_row)
        self.remove_button.clicked.connect(self.remove_selected)
        self.import_button.clicked.connect(self._ask_import)
        self.export_button.clicked.connect(self._ask_export)
        self.setLayout(
            vbox(
                self.note,
                (self.table, 1),
                hbox(self.add_button, self.remove_button, STRETCH, self.import_button, self.export_button),
            )
        )
        self.show_glossary(glossary)
        self.retranslate()

    def retranslate(self) -> None:
        self.table.setHorizontalHeaderLabels([self.tr("From"), self.tr("To"), self.tr("Term"), self.tr("Translation")])
        self.add_button.setText(self.tr("Add"))
        self.remove_button.setText(self.tr("Remove"))
        self.import_button.setText(self.tr("Import…"))
        self.export_button.setText(self.tr("Export…"))
        theme.tint(self.note, None)
        self.note.setText(
            self.tr(
                "How a term is to be translated, per language pair (codes such as en, zh, "
                "zh-Hant, ja; * for any language). An LLM pack is told the terms a paragraph holds; "
                "other packs keep them through placeholders, which a model may drop."
            )
        )

    # --- the table ----------------------------------------------------------------------------------
    def show_glossary(self, glossary: Glossary) -> None:
        self.table.setRowCount(0)
        for term in glossary.terms:
            self._append((term.source, term.target, term.term, term.translation))

    def _append(self, cells: tuple[str, str, str, str]) -> int:
        row = self.table.rowCount()
        self.table.insertRow(row)
        for column, text in enumerate(cells):
            self.table.setItem(row, column, QTableWidgetItem(text))
        return row

    def add_row(self) -> None:
        last = self.table.rowCount() - 1
        pair = (self._cell(last, 0), self._cell(last, 1)) if last >= 0 else ("en", "zh")
        row = self._append((*pair, "", ""))
        self.table.setCurrentCell(row, 2)
        item = self.table.item(row, 2)
        assert item is not None  # _append made it
        self.table.editItem(item)

    def remove_selected(self) -> None:
        for row in sorted({index.row() for index in self.table.selectedIndexes()}, reverse=True):
            self.table.removeRow(row)

    def _cell(self, row: int, column: int) -> str:
        item = self.table.item(row, column)
        return item.text().strip() if item is not None else ""

    def result(self) -> Glossary:
        """The glossary the table shows (empty rows left out); GlossaryError names the first bad row."""
        glossary = Glossary()
        for row in range(self.table.rowCount()):
            cells = [self._cell(row, column) for column in range(COLUMNS)]
            if not any(cells[2:]):
                continue
            try:
                glossary = glossary.with_term(Term(*cells))
            except GlossaryError as exc:
                raise exc.at(row + 1) from None
        return glossary

    def say(self, problem: str) -> None:
        theme.tint(self.note, "error")
        self.note.setText(problem)

    # --- files ----------------------------------------------------------------------------------------
    def import_file(self, path: Path) -> None:
        """Merge a CSV file in: four columns, or two (term, translation) for any language pair (``*``)."""
        try:
            self.show_glossary(self.result().merged(read_csv(path)))
        except GlossaryError as exc:
            self.say(message(exc))

    def export_file(self, path: Path) -> None:
        try:
            write_csv(self.result(), path)
        except GlossaryError as exc:
            self.say(message(exc))
        except OSError as exc:
            self.say(self.tr("{0} cannot be written: {1}").format(path, exc.strerror or exc))

    def _ask_import(self) -> None:
        name, _ = QFileDialog.getOpenFileName(
            self, self.tr("Import a glossary"), "", self.tr("CSV files (*.csv);;All files (*)")
        )
        if name:
            self.import_file(Path(name))

    def _ask_export(self) -> None:
        name, _ = QFileDialog.getSaveFileName(
            self, self.tr("Export the glossary"), "glossary.csv", self.tr("CSV files (*.csv)")
        )
        if name:
            self.export_file(Path(name))
