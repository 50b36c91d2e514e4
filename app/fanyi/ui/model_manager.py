"""The model manager: installed packs (import, remove user packs, choose the default) and the packs
available from the catalog (download, update, refresh the list); the dictionaries likewise, listed after
the packs in both tables (download, import ECDICT's file, remove)."""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QDir, QLocale, Qt, Signal
from PySide6.QtGui import QColor, QPalette, QShowEvent
from PySide6.QtWidgets import (
    QAbstractItemView,
    QDialog,
    QDialogButtonBox,
    QFileDialog,
    QHeaderView,
    QLabel,
    QMessageBox,
    QPushButton,
    QTableWidget,
    QTableWidgetItem,
    QTabWidget,
    QWidget,
)

from fanyi import __version__, routing
from fanyi.library import dictionaries, install, installed
from fanyi.library.catalog import CatalogEntry, DictionaryEntry
from fanyi.library.dictionaries import DictionaryInfo
from fanyi.library.errors import LibraryError
from fanyi.library.install import Available, Status
from fanyi.library.memory import memory_needed
from fanyi.ui import i18n, theme
from fanyi.ui.i18n import Retranslating, direction, quantization_name
from fanyi.ui.language_names import language_label
from fanyi.ui.layout import STRETCH, container, hbox, vbox
from fanyi.ui.memory_check import confirm_load, memory_text
from fanyi.ui.pack_ops import (
    Failure,
    PackOperations,
    PackOpProgress,
    ask_and_import,
    listed_size_text,
    size_text,
)

LANGUAGES_COLUMN = 1
LANGUAGES_MIN_WIDTH = 160  # what the languages column keeps when the dialog grows to show the others whole


def _table(columns: int) -> QTableWidget:
    table = QTableWidget(0, columns)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.setWordWrap(False)
    table.verticalHeader().hide()
    header = table.horizontalHeader()
    header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
    # an LLM pack lists dozens of languages: that column takes the width left and cuts its text short (the
    # tooltip has them all) rather than squeezing the name or pushing size, memory and licence out of sight
    header.setSectionResizeMode(LANGUAGES_COLUMN, QHeaderView.ResizeMode.Stretch)
    return table


def _fill(table: QTableWidget, rows: Sequence[Sequence[str]], right_aligned: int) -> None:
    table.setRowCount(len(rows))
    for row, cells in enumerate(rows):
        for column, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if column == right_aligned:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            if column == LANGUAGES_COLUMN:
                item.setToolTip(text)
            table.setItem(row, column, item)


def _selected_row(table: QTableWidget) -> int | None:
    rows = table.selectionModel().selectedRows()
    return rows[0].row() if rows else None


def _chosen(table: QTableWidget, keys: Sequence[str]) -> str | None:
    """What the selected row shows, by its key (the row's index in ``keys``)."""
    row = _selected_row(table)
    return keys[row] if row is not None and row < len(keys) else None


def _choose(table: QTableWidget, keys: Sequence[str], key: str | None) -> None:
    if key in keys:
        table.selectRow(keys.index(key))


def _languages(sources: Sequence[str], targets: Sequence[str], translates: bool = True) -> str:
    if not translates:  # a summarizer (BART): what it summarizes, not a direction
        return QCoreApplication.translate("ModelManager", "Summaries: %1").replace("%1", language_label(sources[0]))
    if len(sources) == 1 and len(targets) == 1:
        return direction(sources[0], targets[0])
    codes = {*sources, *targets}  # each named once, with its script where two share a language
    names = " · ".join(sorted({language_label(code, codes) for code in codes}))
    count = QCoreApplication.translate("ModelManager", "%1 languages: %2")
    return count.replace("%1", str(routing.language_count(sources, targets))).replace("%2", names)


def _quality(entry: CatalogEntry) -> str:
    q = entry.quality
    bleu = q.bleu.of(entry.quantization) if q is not None else None
    if q is None or bleu is None:
        return "—"
    chrf = q.chrf.of(entry.quantization)
    return f"BLEU {bleu:.1f}" + (f" · chrF {chrf:.1f}" if chrf is not None else "")


class ModelManager(Retranslating, QDialog):
    packs_changed = Signal()
    default_chosen = Signal(str)  # pack name

    def __init__(self, ops: PackOperations, default_pack: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._ops = ops
        self.default_pack = default_pack
        self.packs: list[installed.PackInfo] = []
        self.installed_dictionaries: list[DictionaryInfo] = []  # rows after the packs' in the installed table
        self.rows: list[Available] = []
        self.dictionary_rows: list[tuple[DictionaryEntry, Status]] = []  # rows after the packs' in the available one
        self._list_failed = False  # the list of models could not be fetched: said above, not "click Refresh"
        self._said: Failure = None  # the error shown, in the UI language of the moment (pack_ops.Failure)

        # --- installed ---
        self.table = _table(8)
        self.table.itemSelectionChanged.connect(self._update_buttons)
        self.empty = QLabel()
        self.import_folder_button = QPushButton(clicked=lambda: ask_and_import(ops, self, archive=False))
        self.import_zip_button = QPushButton(clicked=lambda: ask_and_import(ops, self, archive=True))
        self.import_dictionary_button = QPushButton(clicked=self.import_dictionary)
        self.remove_button = QPushButton(clicked=self.remove_selected)
        self.default_button = QPushButton(clicked=self.set_selected_default)
        installed_page = container(
            vbox(
                self.table,
                self.empty,
                hbox(
                    self.import_folder_button,
                    self.import_zip_button,
                    self.import_dictionary_button,
                    STRETCH,
                    self.default_button,
                    self.remove_button,
                ),
            )
        )

        # --- available ---
        self.available = _table(9)
        self.available.itemSelectionChanged.connect(self._update_buttons)
        self.catalog_note = QLabel()
        self.catalog_note.setWordWrap(True)
        self.download_button = QPushButton(clicked=self.download_selected)
        self.refresh_button = QPushButton(clicked=ops.refresh_catalog)
        available_page = container(
            vbox(self.available, hbox((self.catalog_note, 1), self.refresh_button, self.download_button))
        )

        self.tabs = QTabWidget()
        self.tabs.addTab(installed_page, "")
        self.tabs.addTab(available_page, "")
        self.error = QLabel()
        self.error.setWordWrap(True)
        theme.tint(self.error, "error")
        self.error.hide()
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Close)
        buttons.rejected.connect(self.reject)

        self.setLayout(vbox(self.tabs, self.error, PackOpProgress(ops), buttons))
        self.resize(1000, 420)

        ops.started.connect(self._on_started)
        ops.finished.connect(self._update_buttons)
        ops.succeeded.connect(lambda _info: self.refresh())
        ops.dictionary_installed.connect(lambda _info: self.refresh())
        ops.catalog_changed.connect(lambda _cat: self.refresh())
        ops.failed.connect(lambda message: self._show_error(message, ops.failure))
        self.retranslate()

    def showEvent(self, event: QShowEvent) -> None:
        """As wide as the catalog's columns need, within the screen: quality and status not behind a scroll bar."""
        super().showEvent(event)
        header = self.available.horizontalHeader()
        columns = sum(header.sectionSize(i) for i in range(header.count()) if i != LANGUAGES_COLUMN)
        needed = columns + LANGUAGES_MIN_WIDTH + self.width() - self.available.viewport().width()
        screen = self.screen().availableGeometry().width()
        if needed > self.width():
            self.resize(min(needed, screen * 95 // 100), self.height())

    # --- contents ---------------------------------------------------------------------------------
    def refresh(self) -> None:
        # what is selected stays selected, known by what it is: rows after the packs' (the dictionaries') were
        # dropped and added again, and the selection fell on the row above (a language switch moved it)
        chosen = _chosen(self.table, self._installed_keys()), _chosen(self.available, self._available_keys())
        self.table.clearSelection()
        self.available.clearSelection()
        self.packs = installed.list_packs()
        self.table.clearSpans()
        self.table.setRowCount(len(self.packs))
        greyed = self.palette().color(QPalette.ColorGroup.Disabled, QPalette.ColorRole.Text)
        for row, pack in enumerate(self.packs):
            kind = self.tr("bundled") if pack.bundled else self.tr("user-installed")
            marker = "✓" if pack.name == self.default_pack and pack.usable else ""
            if pack.usable:
                sources, targets = (
                    (pack.source_languages, pack.languages)
                    if pack.languages
                    else ((pack.source_lang,), (pack.target_lang,))
                )
                details = (
                    _languages(sources, targets, pack.translates),
                    pack.family,
                    size_text(pack.size_bytes, 1),
                    memory_text(pack.memory_bytes),
                    quantization_name(pack.quantization),
                )
            else:  # one cell across languages, size and quantization: the reason, without the folder
                reason = (pack.problem or "").replace(f"{pack.path}{os.sep}", "")
                details = (self.tr("Broken: %1").replace("%1", reason), "", "", "", "")
                self.table.setSpan(row, 1, 1, len(details))
            for column, text in enumerate((pack.name, *details, kind, marker)):
                item = QTableWidgetItem(text)
                if column in (3, 4):
                    item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
                if not pack.usable:  # still selectable, so that it can be removed
                    item.setForeground(greyed)
                    item.setToolTip(pack.problem or "")
                elif column == LANGUAGES_COLUMN:
                    item.setToolTip(text)
                self.table.setItem(row, column, item)
        self._list_dictionaries(greyed)
        self.table.setVisible(bool(self.packs or self.installed_dictionaries))
        self.empty.setVisible(not self.packs)

        cat = self._ops.catalog
        self.rows = install.available(cat) if cat is not None else []
        language = i18n.current()
        statuses = {
            Status.NOT_INSTALLED: "",
            Status.INSTALLED: self.tr("Installed"),
            Status.UPDATE: self.tr("Update available"),
        }
        gated = self.tr("Token needed")  # the Hub gives a gated model's files only with one (Settings → Downloads)
        _fill(
            self.available,
            [
                (
                    r.entry.title(language),
                    _languages(r.entry.source_langs, r.entry.target_langs, r.entry.translates),
                    r.entry.family_title,
                    listed_size_text(r.entry.download_size),
                    memory_text(memory_needed(r.entry)),
                    quantization_name(r.entry.quantization),
                    r.entry.license.name,
                    _quality(r.entry),
                    gated if r.entry.gated and r.status is Status.NOT_INSTALLED else statuses[r.status],
                )
                for r in self.rows
            ],
            right_aligned=3,
        )
        self.dictionary_rows = install.available_dictionaries(cat) if cat is not None else []
        for entry, status in self.dictionary_rows:
            self._add_row(
                self.available,
                (
                    entry.title(language),
                    self._dictionary_languages(),
                    self.tr("Dictionary"),
                    listed_size_text(entry.download_size),
                    "—",
                    "—",
                    entry.license.name,
                    self.tr("%1 entries").replace("%1", QLocale().toString(entry.entries)),
                    statuses[status],
                ),
                right_aligned=3,
            )
        if cat is None and self._list_failed:
            self.catalog_note.setText(
                self.tr("Without the list of models, a model pack can still be imported (Installed → Import).")
            )
        elif cat is None:
            self.catalog_note.setText(self.tr("The list of models has not been downloaded yet: click Refresh list."))
        elif not self._ops.refreshable():  # Refresh would do nothing: which list this is, and when it was made
            self.catalog_note.setText(
                (
                    self.tr(
                        "The list of models shipped with Fanyi %1, made %2. It names no address to fetch a newer one "
                        "from: one can be set in Settings → Downloads."
                    )
                    if install.shipped(cat)
                    else self.tr(
                        "The list of models saved at the last refresh, made %2. It names no address to fetch a newer "
                        "one from: one can be set in Settings → Downloads."
                    )
                )
                .replace("%1", __version__)
                .replace("%2", cat.generated[:10])
            )
        else:
            self.catalog_note.setText(self.tr("List of models published %1.").replace("%1", cat.generated[:10]))
        _choose(self.table, self._installed_keys(), chosen[0])
        _choose(self.available, self._available_keys(), chosen[1])
        self._update_buttons()

    def _installed_keys(self) -> list[str]:
        return [f"pack:{p.path}" for p in self.packs] + [f"dictionary:{d.name}" for d in self.installed_dictionaries]

    def _available_keys(self) -> list[str]:
        return [f"pack:{r.entry.id}" for r in self.rows] + [f"dictionary:{d.id}" for d, _status in self.dictionary_rows]

    def _dictionary_languages(self) -> str:
        return self.tr("English ↔ Chinese")

    def _add_row(self, table: QTableWidget, cells: Sequence[str], right_aligned: int) -> None:
        row = table.rowCount()
        table.insertRow(row)
        for column, text in enumerate(cells):
            item = QTableWidgetItem(text)
            if column == right_aligned:
                item.setTextAlignment(Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter)
            table.setItem(row, column, item)

    def _list_dictionaries(self, greyed: QColor) -> None:
        """The installed dictionaries, after the packs: entries, size; a broken one greyed with its reason."""
        self.installed_dictionaries = dictionaries.list_dictionaries()
        for d in self.installed_dictionaries:
            row = self.table.rowCount()
            if d.usable:
                family = self.tr("Dictionary (%1 entries)").replace("%1", QLocale().toString(d.entries))
                cells = (d.name, self._dictionary_languages(), family, size_text(d.size_bytes, 1), "—", "—")
            else:
                cells = (d.name, self.tr("Broken: %1").replace("%1", d.problem or ""), "", "", "", "")
            self._add_row(self.table, (*cells, self.tr("user-installed"), ""), right_aligned=3)
            if not d.usable:
                self.table.setSpan(row, 1, 1, 5)
                for column in range(self.table.columnCount()):
                    if (item := self.table.item(row, column)) is not None:
                        item.setForeground(greyed)
                        item.setToolTip(d.problem or "")

    def selected(self) -> installed.PackInfo | None:
        row = _selected_row(self.table)
        return self.packs[row] if row is not None and row < len(self.packs) else None

    def selected_dictionary(self) -> DictionaryInfo | None:
        row = _selected_row(self.table)
        if row is None or row < len(self.packs):
            return None
        return self.installed_dictionaries[row - len(self.packs)]

    def selected_available(self) -> Available | None:
        row = _selected_row(self.available)
        return self.rows[row] if row is not None and row < len(self.rows) else None

    def selected_available_dictionary(self) -> tuple[DictionaryEntry, Status] | None:
        row = _selected_row(self.available)
        if row is None or row < len(self.rows):
            return None
        return self.dictionary_rows[row - len(self.rows)]

    def select(self, name: str) -> None:
        for row, pack in enumerate(self.packs):
            if pack.name == name:
                self.table.selectRow(row)

    # --- actions ----------------------------------------------------------------------------------
    def remove_selected(self) -> None:
        if (dictionary := self.selected_dictionary()) is not None:
            self._remove_dictionary(dictionary)
            return
        pack = self.selected()
        if pack is None or pack.bundled:
            return
        answer = QMessageBox.question(
            self, self.tr("Remove model"), self.tr("Remove %1 from this computer?").replace("%1", pack.name)
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        try:
            installed.remove_pack(str(pack.path))  # by folder: a broken pack has no name of its own
        except (LibraryError, OSError) as exc:
            self._show_error(str(exc), None)
            return
        self.refresh()
        self.packs_changed.emit()

    def _remove_dictionary(self, dictionary: DictionaryInfo) -> None:
        answer = QMessageBox.question(
            self,
            self.tr("Remove dictionary"),
            self.tr("Remove the dictionary %1 from this computer?").replace("%1", dictionary.name),
        )
        if answer != QMessageBox.StandardButton.Yes:
            return
        try:
            dictionary.path.unlink()
        except OSError as exc:
            self._show_error(str(exc), None)
            return
        self.refresh()  # the window's dictionary controller watches the folder: it sees the file go

    def import_dictionary(self) -> None:
        """ECDICT's data the user has (ecdict.csv, stardict.db, ecdict-sqlite-28.zip), converted as it is."""
        path, _ = QFileDialog.getOpenFileName(
            self,
            self.tr("Import a dictionary (ECDICT)"),
            QDir.homePath(),
            self.tr("ECDICT data (*.csv *.db *.zip)"),
        )
        if path:
            self._ops.import_dictionary(Path(path))

    def set_selected_default(self) -> None:
        if (pack := self.selected()) and pack.usable:
            self.default_pack = pack.name
            self.default_chosen.emit(pack.name)
            self.refresh()
            self.select(pack.name)

    def download_selected(self) -> None:
        if (chosen := self.selected_available_dictionary()) is not None:
            dictionary, status = chosen
            if status is not Status.INSTALLED and (not dictionary.license.must_ask or self._accept_licence(dictionary)):
                self._ops.install_dictionary(dictionary)
            return
        row = self.selected_available()
        if row is None or row.status is Status.INSTALLED:
            return
        entry = row.entry
        if entry.license.must_ask and not self._accept_licence(entry):
            return
        if not confirm_load(self, entry.title(i18n.current()), memory_needed(entry)):
            return
        self._ops.install(entry)

    def _accept_licence(self, entry: CatalogEntry | DictionaryEntry) -> bool:
        """The licence's terms, as the catalog states them, and the question; True when accepted."""
        lic = entry.license
        terms = list(lic.summary(i18n.current()))
        if not lic.commercial_use:
            terms.insert(0, self.tr("It does not allow commercial use."))
        box = QMessageBox(
            QMessageBox.Icon.Question,
            self.tr("Licence"),
            self.tr("%1 is published under %2.").replace("%1", entry.title(i18n.current())).replace("%2", lic.name),
            QMessageBox.StandardButton.Yes | QMessageBox.StandardButton.No,
            self,
        )
        box.setInformativeText(
            "\n".join(f"• {t}" for t in terms)
            + "\n\n"
            + lic.url
            + "\n\n"
            + self.tr("Do you accept these terms and download it?")
        )
        box.setDefaultButton(QMessageBox.StandardButton.No)
        return box.exec() == QMessageBox.StandardButton.Yes

    def _on_started(self) -> None:
        self.error.hide()
        self._update_buttons()

    def _show_error(self, message: str, said: Failure) -> None:
        """``said``: the message in the UI language of the moment, to say it again after a language switch (None:
        it has only the one, an operating system's or the library's)."""
        self._said = said
        if message:  # "" means the user cancelled
            self.error.setText(message)
            self.error.show()
        if self._ops.catalog is None:
            self._list_failed = bool(message)
            self.refresh()

    def _update_buttons(self) -> None:
        busy = self._ops.busy
        pack = self.selected()
        removable = (pack is not None and not pack.bundled) or self.selected_dictionary() is not None
        self.remove_button.setEnabled(removable and not busy)
        self.default_button.setEnabled(pack is not None and pack.usable and pack.name != self.default_pack)
        for button in (self.import_folder_button, self.import_zip_button, self.import_dictionary_button):
            button.setEnabled(not busy)
        refreshable = self._ops.refreshable()
        self.refresh_button.setEnabled(not busy and refreshable)
        self.refresh_button.setToolTip(
            "" if refreshable else self.tr("The list of models names no address to fetch a newer one from")
        )
        row = self.selected_available()
        chosen = self.selected_available_dictionary()
        status = row.status if row is not None else chosen[1] if chosen is not None else None
        self.download_button.setText(self.tr("Update") if status is Status.UPDATE else self.tr("Download"))
        self.download_button.setEnabled(status is not None and status is not Status.INSTALLED and not busy)

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Models"))
        self.tabs.setTabText(0, self.tr("Installed"))
        self.tabs.setTabText(1, self.tr("Available"))
        self.table.setHorizontalHeaderLabels(
            [
                self.tr("Name"),
                self.tr("Languages"),
                self.tr("Family"),
                self.tr("Size"),
                self.tr("Memory"),
                self.tr("Quantization"),
                self.tr("Installed"),
                self.tr("Default"),
            ]
        )
        self.available.setHorizontalHeaderLabels(
            [
                self.tr("Name"),
                self.tr("Languages"),
                self.tr("Family"),
                self.tr("Download size"),
                self.tr("Memory"),
                self.tr("Quantization"),
                self.tr("Licence"),
                self.tr("Quality"),
                self.tr("Status"),
            ]
        )
        self.empty.setText(self.tr("No model is installed."))
        self.import_folder_button.setText(self.tr("Import folder…"))
        self.import_zip_button.setText(self.tr("Import .zip…"))
        self.import_dictionary_button.setText(self.tr("Import dictionary…"))
        self.import_dictionary_button.setToolTip(
            self.tr("ECDICT's data you already have: ecdict.csv, stardict.db or ecdict-sqlite-28.zip")
        )
        self.remove_button.setText(self.tr("Remove"))
        self.default_button.setText(self.tr("Set as default"))
        self.refresh_button.setText(self.tr("Refresh list"))
        if self._said is not None and not self.error.isHidden():
            self.error.setText(self._said())  # said again in the UI language now chosen
        self.refresh()
