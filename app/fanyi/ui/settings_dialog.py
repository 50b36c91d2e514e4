"""The settings dialog: edits a copy of Settings; the app applies and saves it on OK."""

from __future__ import annotations

import dataclasses

from PySide6.QtCore import QEvent
from PySide6.QtGui import QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QHBoxLayout,
    QKeySequenceEdit,
    QLabel,
    QLineEdit,
    QSpinBox,
    QVBoxLayout,
    QWidget,
)

from fanyi import limits
from fanyi.ui import hotkey, region
from fanyi.ui.api_server import address
from fanyi.ui.i18n import LANGUAGE_NAMES
from fanyi.catalog import DEFAULT_CATALOG_URLS
from fanyi.ui.settings import DOUBLE_COPY, TARGET_VARIANTS, THEMES, Settings, valid_url

HOTKEY_NONE, HOTKEY_DOUBLE_COPY, HOTKEY_COMBO = range(3)


class SettingsDialog(QDialog):
    def __init__(self, settings: Settings, tray_available: bool, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._tray_available = tray_available
        self.beams = QSpinBox(minimum=0, maximum=limits.MAX_BEAMS)
        self.max_length = QSpinBox(minimum=0, maximum=limits.MAX_DECODE_LENGTH, singleStep=16)
        self.threads = QSpinBox(minimum=0, maximum=limits.max_threads())
        self.as_you_type = QCheckBox()
        self.variant = QComboBox()
        for key, label in TARGET_VARIANTS.items():
            self.variant.addItem(label, key)
        self.language = QComboBox()
        self.language.addItem("", "auto")
        for code, name in LANGUAGE_NAMES.items():
            self.language.addItem(name, code)
        self.theme = QComboBox()
        for name in THEMES:
            self.theme.addItem("", name)
        self.hotkey_mode = QComboBox()
        self.hotkey_mode.addItems(["", "", ""])
        self.hotkey_keys = QKeySequenceEdit()
        self.hotkey_keys.setMaximumSequenceLength(1)
        self.hotkey_mode.currentIndexChanged.connect(
            lambda index: self.hotkey_keys.setEnabled(index == HOTKEY_COMBO)
        )
        self.hotkey_note = QLabel()
        self.hotkey_note.setWordWrap(True)
        self.screenshot_keys = QKeySequenceEdit()  # empty: no screenshot hotkey
        self.screenshot_keys.setMaximumSequenceLength(1)
        self.screenshot_keys.setClearButtonEnabled(True)
        self.screenshot_note = QLabel()
        self.screenshot_note.setWordWrap(True)
        self.start_in_tray = QCheckBox()
        self.close_to_tray = QCheckBox()
        self.tray_note = QLabel()
        self.tray_note.setWordWrap(True)
        self.history = QCheckBox()
        self.mirror = QLineEdit(placeholderText="https://…")
        self.catalog_url = QLineEdit(placeholderText=DEFAULT_CATALOG_URLS[0])
        self.download_note = QLabel()
        self.download_note.setWordWrap(True)
        self.api_enabled = QCheckBox()
        self.api_port = QSpinBox(minimum=1024, maximum=65535)
        self.api_key = QLineEdit()
        self.api_address = QLineEdit(readOnly=True)  # to copy into the other app
        self.api_deeplx = QLineEdit(readOnly=True)
        self.api_enabled.toggled.connect(self._update_api_rows)
        self.api_port.valueChanged.connect(self._update_api_rows)

        hotkey_row = QHBoxLayout()
        hotkey_row.addWidget(self.hotkey_mode)
        hotkey_row.addWidget(self.hotkey_keys, 1)
        self.form = QFormLayout()
        rows = [
            self.beams, self.max_length, self.threads, self.as_you_type, self.variant, self.language, self.theme,
            hotkey_row, self.hotkey_note, self.screenshot_keys, self.screenshot_note, self.start_in_tray, self.close_to_tray, self.tray_note, self.history,
            self.mirror, self.catalog_url, self.download_note,
            self.api_enabled, self.api_port, self.api_key, self.api_address, self.api_deeplx,
        ]
        for field in rows:
            self.form.addRow(QLabel(), field)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(self.form)
        layout.addWidget(buttons)

        self._original = settings
        self._load(settings)
        self.retranslate()

    def _load(self, s: Settings) -> None:
        self.beams.setValue(s.beams)
        self.max_length.setValue(s.max_length)
        self.threads.setValue(s.threads)
        self.as_you_type.setChecked(s.translate_as_you_type)
        self.variant.setCurrentIndex(max(0, self.variant.findData(s.target_variant)))
        self.language.setCurrentIndex(max(0, self.language.findData(s.ui_language)))
        self.theme.setCurrentIndex(max(0, self.theme.findData(s.theme)))
        if not s.hotkey:
            self.hotkey_mode.setCurrentIndex(HOTKEY_NONE)
        elif s.hotkey == DOUBLE_COPY:
            self.hotkey_mode.setCurrentIndex(HOTKEY_DOUBLE_COPY)
        else:
            self.hotkey_mode.setCurrentIndex(HOTKEY_COMBO)
            self.hotkey_keys.setKeySequence(QKeySequence(s.hotkey))
        self.hotkey_keys.setEnabled(self.hotkey_mode.currentIndex() == HOTKEY_COMBO)
        self.screenshot_keys.setKeySequence(QKeySequence(s.screenshot_hotkey))
        self.start_in_tray.setChecked(s.start_in_tray)
        self.close_to_tray.setChecked(s.close_to_tray)
        for box in (self.start_in_tray, self.close_to_tray):
            box.setEnabled(self._tray_available)
        self.history.setChecked(s.history)
        self.mirror.setText(s.download_mirror)
        self.catalog_url.setText(s.catalog_url)
        self.api_enabled.setChecked(s.api_enabled)
        self.api_port.setValue(s.api_port)
        self.api_key.setText(s.api_key)
        self._update_api_rows()

    def result_settings(self) -> Settings:
        mode = self.hotkey_mode.currentIndex()
        keys = self.hotkey_keys.keySequence().toString(QKeySequence.SequenceFormat.PortableText)
        if mode == HOTKEY_DOUBLE_COPY:
            hotkey_value = DOUBLE_COPY
        elif mode == HOTKEY_COMBO and keys:
            hotkey_value = keys
        elif mode == HOTKEY_COMBO:
            hotkey_value = self._original.hotkey  # an emptied key field keeps the old combination
        else:
            hotkey_value = ""
        return dataclasses.replace(
            self._original,
            beams=self.beams.value(),
            max_length=self.max_length.value(),
            threads=self.threads.value(),
            translate_as_you_type=self.as_you_type.isChecked(),
            target_variant=self.variant.currentData(),
            ui_language=self.language.currentData(),
            theme=self.theme.currentData(),
            hotkey=hotkey_value,
            screenshot_hotkey=self.screenshot_keys.keySequence().toString(QKeySequence.SequenceFormat.PortableText),
            start_in_tray=self.start_in_tray.isChecked(),
            close_to_tray=self.close_to_tray.isChecked(),
            history=self.history.isChecked(),
            download_mirror=self.mirror.text().strip(),
            catalog_url=self.catalog_url.text().strip(),
            api_enabled=self.api_enabled.isChecked(),
            api_port=self.api_port.value(),
            api_key=self.api_key.text().strip(),
        )

    def accept(self) -> None:
        bad = [box for box in (self.mirror, self.catalog_url) if not valid_url(box.text().strip())]
        if bad:  # say so here rather than drop what the user typed
            self.download_note.setText(self.tr("An address must start with https:// or http://."))
            self.download_note.setStyleSheet("color: #b3261e;")
            bad[0].setFocus()
            return
        super().accept()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Settings"))
        labels = [
            self.tr("Beams"), self.tr("Maximum length"), self.tr("CPU threads"), "", self.tr("Chinese variant"),
            self.tr("Language"), self.tr("Theme"), self.tr("Clipboard hotkey"), "", self.tr("Screenshot hotkey"), "",
            "", "", "", "",
            self.tr("Download mirror"), self.tr("Model list address"), "",
            "", self.tr("Port"), self.tr("API key"), self.tr("LibreTranslate, DeepL"), self.tr("DeepLX"),
        ]
        for row, text in enumerate(labels):
            self.form.itemAt(row, QFormLayout.ItemRole.LabelRole).widget().setText(text)
        self.beams.setSpecialValueText(self.tr("Model default"))
        self.max_length.setSpecialValueText(self.tr("Model default"))
        self.threads.setSpecialValueText(self.tr("Automatic"))
        self.as_you_type.setText(self.tr("Translate as you type"))
        self.language.setItemText(0, self.tr("Follow the system"))
        for index, text in enumerate((self.tr("System"), self.tr("Light"), self.tr("Dark"))):
            self.theme.setItemText(index, text)
        for index, text in enumerate((self.tr("None"), self.tr("Press Ctrl+C twice"), self.tr("Key combination"))):
            self.hotkey_mode.setItemText(index, text)
        ok, why = hotkey.availability()
        command = "fanyi --translate-clipboard"
        if ok:
            note = self.tr("Copy text, then press the hotkey. You can also bind “%1” to a desktop shortcut.")
        else:
            note = why + " " + self.tr("Global hotkeys cannot work here; bind “%1” to a desktop shortcut instead.")
        self.hotkey_note.setText(note.replace("%1", command))
        can_capture, why_not = region.availability()
        if not can_capture:
            shot_note = why_not
        elif ok:
            shot_note = self.tr("Press it, then drag around text on the screen to translate it. You can also bind "
                                "“%1” to a desktop shortcut.")
        else:
            shot_note = self.tr("Bind “%1” to a desktop shortcut to translate text on the screen.")
        self.screenshot_note.setText(shot_note.replace("%1", "fanyi --translate-region"))
        self.start_in_tray.setText(self.tr("Start in the tray"))
        self.close_to_tray.setText(self.tr("Closing the window keeps Fanyi in the tray"))
        self.tray_note.setText("" if self._tray_available else self.tr("This desktop has no system tray."))
        self.tray_note.setVisible(not self._tray_available)
        self.history.setText(self.tr("Keep a history of translations"))
        self.download_note.setStyleSheet("")
        self.download_note.setText(self.tr(
            "Optional. A mirror is tried first when a model is downloaded (for example where GitHub is slow); "
            "every download is still checked against the model list's checksums. The system proxy is used."))
        self.api_enabled.setText(self.tr("Let other apps on this computer use Fanyi"))
        self.api_enabled.setToolTip(self.tr("Apps such as Pot, Zotero, Immersive Translate or Calibre then translate "
                                            "with Fanyi: enter the address below in them. Only programs on this "
                                            "computer can connect."))
        self.api_key.setPlaceholderText(self.tr("Optional: apps must then send this key"))

    def _update_api_rows(self) -> None:
        """The addresses to paste into other apps, for the port chosen; usable only while the setting is on."""
        url = address(self.api_port.value())
        self.api_address.setText(url)
        self.api_deeplx.setText(url + "/translate")
        for widget in (self.api_port, self.api_key, self.api_address, self.api_deeplx):
            widget.setEnabled(self.api_enabled.isChecked())

    def changeEvent(self, event: QEvent) -> None:
        if event.type() == QEvent.Type.LanguageChange:
            self.retranslate()
        super().changeEvent(event)
