"""The settings dialog: edits a copy of Settings in tabs; the app applies and saves it on OK.

Each tab is a form, and a row is added to one with a single ``_row(tab, field, label, tip)`` call;
label and tooltip are functions, read again whenever the UI language changes.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from PySide6.QtGui import QGuiApplication, QKeySequence
from PySide6.QtWidgets import (
    QCheckBox,
    QComboBox,
    QDialog,
    QDialogButtonBox,
    QFormLayout,
    QKeySequenceEdit,
    QLabel,
    QLayout,
    QLineEdit,
    QSpinBox,
    QTabWidget,
    QWidget,
)

from fanyi import limits
from fanyi.defaults import api_address
from fanyi.glossary import Glossary, GlossaryError
from fanyi.languages import VARIANT_NAMES
from fanyi.library.sources.order import AUTO, HF, HF_MIRROR, MODELSCOPE, URL
from fanyi.ui import hotkey, region, theme
from fanyi.ui.glossary_messages import message
from fanyi.ui.glossary_tab import GlossaryTab
from fanyi.ui.i18n import LANGUAGE_NAMES, Retranslating
from fanyi.ui.layout import hbox, vbox
from fanyi.ui.settings import DOUBLE_COPY, TEXT_SIZES, THEMES, Settings, valid_url

HOTKEY_NONE, HOTKEY_DOUBLE_COPY, HOTKEY_COMBO = range(3)
SOURCES = (AUTO, HF, HF_MIRROR, MODELSCOPE, URL)  # the download source box's entries, in order
Text = Callable[[], str]


def _note() -> QLabel:
    label = QLabel()
    label.setWordWrap(True)
    return label


MIN_WIDTH = 560  # the dialog's narrowest, when its tabs' titles need less
FIELD_GAP = 16  # between a caption and its field ("LibreTranslate、DeepL" touched its field with the style's 6)


class SettingsDialog(Retranslating, QDialog):
    def __init__(
        self, settings: Settings, tray_available: bool, parent: QWidget | None = None, glossary: Glossary | None = None
    ) -> None:
        super().__init__(parent)
        self._tray_available = tray_available
        self._texts: list[tuple[QLabel, QWidget | QLayout, Text | None, Text | None]] = []
        self._tab_titles: list[Text] = []
        self.tabs = QTabWidget()
        self.translation_tab = self._translation_tab()
        self.appearance_tab = self._appearance_tab()
        self.shortcuts_tab = self._shortcuts_tab()
        self.downloads_tab = self._downloads_tab()
        self.apps_tab = self._apps_tab()
        self.glossary_tab = GlossaryTab(glossary or Glossary())
        self.tabs.addTab(self.glossary_tab, "")
        self._tab_titles.append(lambda: self.tr("Glossary"))
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Ok | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        self.setLayout(vbox(self.tabs, buttons))

        self._original = settings
        self._load(settings)
        self.retranslate()

    def _translation_tab(self) -> QFormLayout:
        """Typing, the Chinese variant, beams, length, cores, history."""
        self.beams = QSpinBox(minimum=0, maximum=limits.MAX_BEAMS)
        self.max_length = QSpinBox(minimum=0, maximum=limits.MAX_DECODE_LENGTH, singleStep=16)
        self.threads = QSpinBox(minimum=0, maximum=limits.max_threads())
        self.as_you_type = QCheckBox()
        self.variant = QComboBox()
        for key, label in VARIANT_NAMES.items():
            self.variant.addItem(label, key)
        self.history = QCheckBox()
        tab = self._tab(lambda: self.tr("Translation"))
        self._row(tab, self.as_you_type)
        self._row(
            tab,
            self.variant,
            lambda: self.tr("Chinese variant"),
            lambda: self.tr(
                "How Chinese is written. 台灣正體 and 香港繁體: the model's Simplified, converted "
                "into Traditional with the words Taiwan or Hong Kong use (OpenCC), for every model "
                "that writes Chinese. 模型繁體 and 粤语: as the model writes them, where it can."
            ),
        )
        self._row(
            tab,
            self.beams,
            lambda: self.tr("Candidates compared"),
            lambda: self.tr(
                "How many candidate translations the model weighs against each other as it writes (beam search). "
                "More can read a little better but is slower; 1 is the fastest. “Model default” uses the model's "
                "own choice (4 for the OPUS-MT models)."
            ),
        )
        self._row(
            tab,
            self.max_length,
            lambda: self.tr("Longest translation"),
            lambda: self.tr(
                "A sentence's translation is cut off after this many tokens (word pieces; a Chinese character is "
                "about one). It matters only for very long sentences, and it stops a model that repeats itself. "
                "“Model default” uses the model's own limit (512 for the OPUS-MT models)."
            ),
        )
        self._row(
            tab,
            self.threads,
            lambda: self.tr("Processor cores"),
            lambda: self.tr(
                "How many processor cores a translation may use. More is faster, up to about four. “Automatic” "
                "leaves one core free so that the window keeps responding."
            ),
        )
        self._row(tab, self.history)
        return tab

    def _appearance_tab(self) -> QFormLayout:
        """The UI language, the theme, the panes' text size."""
        self.language = QComboBox()
        self.language.addItem("", "auto")
        for code, name in LANGUAGE_NAMES.items():
            self.language.addItem(name, code)
        self.theme = QComboBox()
        for name in THEMES:
            self.theme.addItem("", name)
        self.text_size = QComboBox()
        self.text_size.addItem("", 0)
        for points in TEXT_SIZES:
            self.text_size.addItem(str(points), points)
        tab = self._tab(lambda: self.tr("Appearance"))
        self._row(tab, self.language, lambda: self.tr("Language"))
        self._row(tab, self.theme, lambda: self.tr("Theme"))
        self._row(
            tab,
            self.text_size,
            lambda: self.tr("Text size"),
            lambda: self.tr("Size of the text you type and of the translation, in points"),
        )
        return tab

    def _shortcuts_tab(self) -> QFormLayout:
        """The clipboard and screenshot hotkeys, starting at login, the tray."""
        self.hotkey_mode = QComboBox()
        self.hotkey_mode.addItems(["", "", ""])
        self.hotkey_keys = QKeySequenceEdit()
        self.hotkey_keys.setMaximumSequenceLength(1)
        self.hotkey_mode.currentIndexChanged.connect(lambda index: self.hotkey_keys.setEnabled(index == HOTKEY_COMBO))
        self.hotkey_note = _note()
        self.start_at_login = QCheckBox()
        self.translate_selection = QCheckBox()
        self.screenshot_keys = QKeySequenceEdit()  # empty: no screenshot hotkey
        self.screenshot_keys.setMaximumSequenceLength(1)
        self.screenshot_keys.setClearButtonEnabled(True)
        self.screenshot_note = _note()
        self.start_in_tray = QCheckBox()
        self.close_to_tray = QCheckBox()
        self.tray_note = _note()
        tab = self._tab(lambda: self.tr("Shortcuts && tray"))
        self._row(tab, hbox(self.hotkey_mode, (self.hotkey_keys, 1)), lambda: self.tr("Clipboard hotkey"))
        self._row(tab, self.hotkey_note)
        self._row(tab, self.translate_selection)
        # X11's primary selection: offered only where the platform has one (not on Windows or macOS)
        tab.setRowVisible(self.translate_selection, QGuiApplication.clipboard().supportsSelection())
        self._row(tab, self.screenshot_keys, lambda: self.tr("Screenshot hotkey"))
        self._row(tab, self.screenshot_note)
        self._row(tab, self.start_at_login)
        self._row(tab, self.start_in_tray)
        self._row(tab, self.close_to_tray)
        self._row(tab, self.tray_note)
        return tab

    def _downloads_tab(self) -> QFormLayout:
        """Where models are downloaded from, the Hugging Face token, the list of models."""
        self.source = QComboBox()
        for kind in SOURCES:
            self.source.addItem("", kind)
        self.source_url = QLineEdit(placeholderText="https://…")
        self.source.currentIndexChanged.connect(lambda _i: self.source_url.setEnabled(self.source.currentData() == URL))
        self.hf_token = QLineEdit(echoMode=QLineEdit.EchoMode.Password, placeholderText="hf_…")
        self.catalog_url = QLineEdit(placeholderText="https://…")
        self.github_mirror = QLineEdit(placeholderText="https://…/")
        self.download_note = _note()
        tab = self._tab(lambda: self.tr("Downloads"))
        self._row(
            tab,
            hbox(self.source, (self.source_url, 1)),
            lambda: self.tr("Download models from"),
            lambda: self.tr(
                "Models come from where their authors publish them. Automatic tries the source that worked last "
                "time first, then Hugging Face, its mirror hf-mirror.com and ModelScope, and uses the first that "
                "answers (one silent for 3 seconds is passed over). In mainland China, choose hf-mirror.com or "
                "ModelScope. A custom address is a server that works like Hugging Face."
            ),
        )
        self._row(
            tab,
            self.hf_token,
            lambda: self.tr("Hugging Face token"),
            lambda: self.tr(
                "Only for models that Hugging Face gives out after you accept their licence (TranslateGemma). "
                "Create one at huggingface.co → Settings → Access Tokens. It is sent to Hugging Face only "
                "(to hf-mirror.com too when you choose it), and kept in your settings file."
            ),
        )
        self._row(tab, self.catalog_url, lambda: self.tr("Model list address"))
        self._row(
            tab,
            self.github_mirror,
            lambda: self.tr("GitHub mirror (dictionaries)"),
            lambda: self.tr(
                "The dictionary comes from GitHub. Where GitHub is blocked or slow, enter a GitHub proxy's address: "
                "it is put before GitHub's (https://proxy/https://github.com/…) and tried first. The file is "
                "checked against what the dictionary's recipe pins, whichever address sends it."
            ),
        )
        self._row(tab, self.download_note)
        return tab

    def _apps_tab(self) -> QFormLayout:
        """The local API: on or off, port, key, and the addresses to give other apps."""
        self.api_enabled = QCheckBox()
        self.api_port = QSpinBox(minimum=1024, maximum=65535)
        self.api_key = QLineEdit(echoMode=QLineEdit.EchoMode.PasswordEchoOnEdit)  # shown only while typed
        self.api_address = QLineEdit(readOnly=True)  # to copy into the other app
        self.api_deeplx = QLineEdit(readOnly=True)
        self.api_openai = QLineEdit(readOnly=True)  # OpenAI's chat completions (Ollama's clients take the address)
        self.api_immersive = QLineEdit(readOnly=True)
        self.api_kiss = QLineEdit(readOnly=True)
        self.api_enabled.toggled.connect(self._update_api_rows)
        self.api_port.valueChanged.connect(self._update_api_rows)
        tab = self._tab(lambda: self.tr("Other apps"))
        self._row(
            tab,
            self.api_enabled,
            tip=lambda: self.tr(
                "Apps such as Pot, Zotero, Immersive Translate or Calibre then translate with Fanyi: enter the "
                "address below in them. Only programs on this computer can connect."
            ),
        )
        self._row(tab, self.api_port, lambda: self.tr("Port"))
        self._row(tab, self.api_key, lambda: self.tr("API key"))
        self._row(tab, self.api_address, lambda: self.tr("LibreTranslate, DeepL, Ollama"))
        self._row(tab, self.api_deeplx, lambda: self.tr("DeepLX, MTranServer"))
        self._row(tab, self.api_openai, lambda: self.tr("OpenAI"))
        self._row(tab, self.api_immersive, lambda: self.tr("Immersive Translate"))
        self._row(tab, self.api_kiss, lambda: self.tr("KISS Translator"))
        return tab

    def _tab(self, title: Text) -> QFormLayout:
        page = QWidget()
        form = QFormLayout(page)
        form.setHorizontalSpacing(FIELD_GAP)
        self.tabs.addTab(page, "")
        self._tab_titles.append(title)
        return form

    def _row(
        self, tab: QFormLayout, field: QWidget | QLayout, label: Text | None = None, tip: Text | None = None
    ) -> None:
        """Add ``field`` to ``tab``; a checkbox or a note needs no label (its own text says it)."""
        caption = QLabel()
        tab.addRow(caption, field)
        self._texts.append((caption, field, label, tip))

    def tab_of(self, field: QWidget) -> str:
        """The title of the tab that holds ``field``."""
        for index in range(self.tabs.count()):
            page = self.tabs.widget(index)
            if page is not None and page.isAncestorOf(field):
                return self.tabs.tabText(index)
        raise LookupError(field)

    def _load(self, s: Settings) -> None:
        self.beams.setValue(s.beams)
        self.max_length.setValue(s.max_length)
        self.threads.setValue(s.threads)
        self.as_you_type.setChecked(s.translate_as_you_type)
        self.variant.setCurrentIndex(max(0, self.variant.findData(s.target_variant)))
        self.language.setCurrentIndex(max(0, self.language.findData(s.ui_language)))
        self.theme.setCurrentIndex(max(0, self.theme.findData(s.theme)))
        if self.text_size.findData(s.text_size) < 0:  # a size set by hand in the file
            self.text_size.addItem(str(s.text_size), s.text_size)
        self.text_size.setCurrentIndex(self.text_size.findData(s.text_size))
        if not s.hotkey:
            self.hotkey_mode.setCurrentIndex(HOTKEY_NONE)
        elif s.hotkey == DOUBLE_COPY:
            self.hotkey_mode.setCurrentIndex(HOTKEY_DOUBLE_COPY)
        else:
            self.hotkey_mode.setCurrentIndex(HOTKEY_COMBO)
            self.hotkey_keys.setKeySequence(QKeySequence(s.hotkey))
        self.hotkey_keys.setEnabled(self.hotkey_mode.currentIndex() == HOTKEY_COMBO)
        self.start_at_login.setChecked(s.start_at_login)
        self.translate_selection.setChecked(s.translate_selection)
        self.screenshot_keys.setKeySequence(QKeySequence(s.screenshot_hotkey))
        self._show_tray_settings()
        self.history.setChecked(s.history)
        self.source.setCurrentIndex(max(0, self.source.findData(s.download_source)))
        self.source_url.setText(s.download_source_url)
        self.source_url.setEnabled(s.download_source == URL)
        self.hf_token.setText(s.hf_token)
        self.catalog_url.setText(s.catalog_url)
        self.github_mirror.setText(s.github_mirror)
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
            text_size=self.text_size.currentData(),
            hotkey=hotkey_value,
            start_at_login=self.start_at_login.isChecked(),
            translate_selection=self.translate_selection.isChecked(),
            screenshot_hotkey=self.screenshot_keys.keySequence().toString(QKeySequence.SequenceFormat.PortableText),
            # without a tray these are shown unticked (they cannot work) and kept as they were
            start_in_tray=self.start_in_tray.isChecked() if self._tray_available else self._original.start_in_tray,
            close_to_tray=self.close_to_tray.isChecked() if self._tray_available else self._original.close_to_tray,
            history=self.history.isChecked(),
            download_source=self.source.currentData(),
            download_source_url=self.source_url.text().strip(),
            hf_token=self.hf_token.text().strip(),
            catalog_url=self.catalog_url.text().strip(),
            github_mirror=self.github_mirror.text().strip(),
            api_enabled=self.api_enabled.isChecked(),
            api_port=self.api_port.value(),
            api_key=self.api_key.text().strip(),
        )

    def set_tray_available(self, available: bool) -> None:
        """A tray appeared (or went) while the dialog is open: the tray settings follow."""
        self._tray_available = available
        self._show_tray_settings()
        self.retranslate()

    def _show_tray_settings(self) -> None:
        """Usable and as saved where there is a tray; greyed and unticked where there is none."""
        for box, saved in (
            (self.start_in_tray, self._original.start_in_tray),
            (self.close_to_tray, self._original.close_to_tray),
        ):
            box.setEnabled(self._tray_available)
            box.setChecked(saved and self._tray_available)

    def result_glossary(self) -> Glossary:
        return self.glossary_tab.result()

    def accept(self) -> None:
        try:
            self.glossary_tab.result()
        except GlossaryError as exc:  # say which row, and keep what the user typed
            self.glossary_tab.say(message(exc))
            self.tabs.setCurrentWidget(self.glossary_tab)
            return
        bad = [
            box for box in (self.source_url, self.catalog_url, self.github_mirror) if not valid_url(box.text().strip())
        ]
        if self.source.currentData() == URL and not self.source_url.text().strip():
            bad.insert(0, self.source_url)
        if bad:  # say so here rather than drop what the user typed
            self.download_note.setText(self.tr("An address must start with https:// or http://."))
            theme.tint(self.download_note, "error")
            page = self.downloads_tab.parentWidget()
            assert page is not None  # the tab's page
            self.tabs.setCurrentWidget(page)
            bad[0].setFocus()
            return
        super().accept()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Settings"))
        for index, title in enumerate(self._tab_titles):
            self.tabs.setTabText(index, title())
        # every tab's title whole in this UI language, no scroll arrows (English cut the Glossary tab to "G")
        self.tabs.setMinimumWidth(self.tabs.tabBar().sizeHint().width())
        layout = self.layout()
        assert layout is not None  # set in __init__, before the texts
        self.setMinimumWidth(max(MIN_WIDTH, layout.minimumSize().width()))
        for caption, field, label, tip in self._texts:
            caption.setText(label() if label else "")
            caption.setVisible(label is not None)
            if tip is not None:
                caption.setToolTip(tip())
                if isinstance(field, QWidget):
                    field.setToolTip(tip())
        self.beams.setSpecialValueText(self.tr("Model default"))
        self.max_length.setSpecialValueText(self.tr("Model default"))
        self.max_length.setSuffix(self.tr(" tokens"))
        self.threads.setSpecialValueText(self.tr("Automatic"))
        self.as_you_type.setText(self.tr("Translate as you type"))
        self.history.setText(self.tr("Keep a history of translations"))
        self.language.setItemText(0, self.tr("Follow the system"))
        for index, text in enumerate((self.tr("System"), self.tr("Light"), self.tr("Dark"))):
            self.theme.setItemText(index, text)
        self.text_size.setItemText(0, self.tr("Default"))
        for index, text in enumerate((self.tr("None"), self.tr("Press Ctrl+C twice"), self.tr("Key combination"))):
            self.hotkey_mode.setItemText(index, text)
        ok, why = hotkey.availability()
        command = "fanyi --translate-clipboard"
        if ok:
            note = self.tr("Copy text, then press the hotkey. You can also bind “%1” to a desktop shortcut.")
        else:
            note = why + " " + self.tr("Global hotkeys cannot work here; bind “%1” to a desktop shortcut instead.")
        self.hotkey_note.setText(note.replace("%1", command))
        self.start_at_login.setText(self.tr("Start Fanyi when I log in (in the tray)"))
        self.translate_selection.setText(self.tr("The hotkey translates selected text (no need to copy it)"))
        self.translate_selection.setToolTip(
            self.tr("Select text in any window and press the hotkey; without a selection, the clipboard is translated.")
        )
        can_capture, why_not = region.availability()
        if not can_capture:
            shot_note = why_not
        elif ok:
            shot_note = self.tr(
                "Press it, then drag around text on the screen to translate it. You can also bind "
                "“%1” to a desktop shortcut."
            )
        else:
            shot_note = self.tr("Bind “%1” to a desktop shortcut to translate text on the screen.")
        self.screenshot_note.setText(shot_note.replace("%1", "fanyi --translate-region"))
        self.start_in_tray.setText(self.tr("Start in the tray"))
        self.close_to_tray.setText(self.tr("Closing the window keeps Fanyi in the tray"))
        self.tray_note.setText("" if self._tray_available else self.tr("This desktop has no system tray."))
        self.tray_note.setVisible(not self._tray_available)
        for index, text in enumerate(
            (
                self.tr("Automatic"),
                self.tr("Hugging Face"),
                "hf-mirror.com",
                self.tr("ModelScope"),
                self.tr("Custom address"),
            )
        ):
            self.source.setItemText(index, text)
        theme.tint(self.download_note, None)
        self.download_note.setText(
            self.tr(
                "In mainland China, where huggingface.co is blocked or slow, choose hf-mirror.com or ModelScope. "
                "Every file is checked against the checksums of the model's pinned revision, whichever source "
                "sends it. The system proxy is used. The model list address is optional: the list comes with Fanyi."
            )
        )
        self.api_enabled.setText(self.tr("Let other apps on this computer use Fanyi"))
        self.api_key.setPlaceholderText(self.tr("Optional: apps must then send this key"))

    def _update_api_rows(self) -> None:
        """The addresses to paste into other apps, for the port chosen; usable only while the setting is on."""
        url = api_address(self.api_port.value())
        self.api_address.setText(url)
        self.api_deeplx.setText(url + "/translate")
        self.api_openai.setText(url + "/v1/chat/completions")
        self.api_immersive.setText(url + "/imme")
        self.api_kiss.setText(url + "/kiss")
        rows = (self.api_address, self.api_deeplx, self.api_openai, self.api_immersive, self.api_kiss)
        for widget in (self.api_port, self.api_key, *rows):
            widget.setEnabled(self.api_enabled.isChecked())
