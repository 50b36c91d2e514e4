"""The main window: source and target panes, the model/variant selector, documents, status bar.

Typing restarts a short timer; when it fires (or on Ctrl+Enter) the whole source is sent to the
worker. The engine caches sentences, so re-sending a long text only decodes what changed, and the
target view keeps what is already right on screen. A word or a short phrase the installed dictionary has
gets its entry above the translation (fanyi.ui.dictionary_card).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QByteArray, QDir, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QAction, QCloseEvent, QDragEnterEvent, QDropEvent, QKeySequence, QShortcut
from PySide6.QtWidgets import (
    QBoxLayout,
    QButtonGroup,
    QComboBox,
    QFileDialog,
    QLabel,
    QLayout,
    QMainWindow,
    QMenu,
    QMessageBox,
    QSizePolicy,
    QSplitter,
    QStackedWidget,
    QStyle,
    QStyleOptionComboBox,
    QToolButton,
)

from fanyi import routing, summaries
from fanyi.dictionary import Found
from fanyi.documents.registry import SUPPORTED_SUFFIXES
from fanyi.languages import BCP47, CANTONESE, SIMPLIFIED, TRADITIONAL, VARIANT_NAMES, language_of
from fanyi.library.installed import PackInfo
from fanyi.rewriter import NAME as REWRITER
from fanyi.routing import Choice
from fanyi.ui import setting_actions, summary_text
from fanyi.ui import settings as settings_values
from fanyi.ui.controllers.dictionary import DictionaryController
from fanyi.ui.controllers.direction import DirectionController
from fanyi.ui.controllers.documents import DocumentController
from fanyi.ui.controllers.history import HistoryController
from fanyi.ui.controllers.packs import PackController
from fanyi.ui.controllers.settings import LiveSettings
from fanyi.ui.dictionary_card import DictionaryCard
from fanyi.ui.history import Draft, Entry
from fanyi.ui.i18n import Retranslating, direction, quantization_name, variant_names
from fanyi.ui.jobs_panel import JobsPanel
from fanyi.ui.language_names import language_label, pair_label
from fanyi.ui.language_picker import LanguagePicker, widen_list
from fanyi.ui.layout import STRETCH, container, hbox, vbox
from fanyi.ui.memory_check import confirm_load
from fanyi.ui.no_model_page import NoModelPage
from fanyi.ui.pack_ops import PackOperations
from fanyi.ui.panes import SourcePane, TargetPane, text_font
from fanyi.ui.request_stream import RequestStream
from fanyi.ui.summary_dialog import SummaryDialog
from fanyi.ui.summary_service import SummaryService, SummaryStream
from fanyi.ui.theme import CHECKED_TOGGLES
from fanyi.ui.worker import ModelInfo

DEBOUNCE_MS = 350  # a pause this long counts as "done typing"
NOTICE_MS = 20_000  # how long a one-time notice (a damaged history file was replaced) stays in the status bar
PAGE_TRANSLATE, PAGE_NO_MODEL = range(2)
CHANNEL = "main"  # the window's requests (the popup has its own)
SUMMARY_CHANNEL = "main-summary"


def _mismatched(choice: Choice) -> bool:
    """The text is not in the language its direction translates from."""
    detected = choice.detected
    return detected is not None and language_of(detected) != language_of(choice.direction.from_language)


class MainWindow(Retranslating, QMainWindow):
    history_requested = Signal()
    models_requested = Signal()
    settings_requested = Signal()
    quit_requested = Signal()  # closed while Fanyi does not keep running in the tray
    kept_in_tray = Signal()  # closed, and Fanyi goes on in the tray

    def __init__(
        self,
        settings: LiveSettings,
        packs: PackController,
        direction: DirectionController,
        history: HistoryController,
        documents: DocumentController,
        ops: PackOperations,
        keep_in_tray: Callable[[], bool],
        *,
        dictionary: DictionaryController | None = None,
        summary_service: SummaryService | None = None,
    ) -> None:
        super().__init__()
        self.settings = settings
        self.summary_service = summary_service
        self.dictionary = dictionary
        self.found: Found | None = None  # the dictionary's entry for the source text
        self._found_for = ""  # the source text it was looked up for
        self.packs = packs
        self.direction = direction
        self.history = history
        self.documents = documents
        self.service = packs.service
        self._keep_in_tray = keep_in_tray
        self.setObjectName("mainWindow")
        self.setAcceptDrops(True)
        self._req_key: tuple | None = None  # (text, options) of the running request
        self._done_key: tuple | None = None  # (text, options) of what the target pane shows
        self._draft: Draft | None = None  # the history entry of the text being edited
        self.download_offer: QMessageBox | None = None  # Documents… without a model: the download, offered
        self._choice: Choice | None = None
        self._documents_folder = QDir.homePath()
        self._status: Callable[[], str] = str  # makes the status bar's text, again when the UI language changes

        top_bar = self._top_bar()
        self.source = SourcePane()
        self.target = TargetPane()
        self.card = DictionaryCard()
        target_layout = self.target.layout()
        assert isinstance(target_layout, QBoxLayout)
        target_layout.insertWidget(2, self.card)  # below the pane's header and error line, above the translation
        self.stream = RequestStream(
            self.service,
            CHANNEL,
            self.target.view,
            self.target.untranslated,
            self.target.lost_terms,
            finished=self._finished,
            failed=self._failed,
            cancelled=self._cancelled,
        )
        self.splitter = QSplitter(Qt.Orientation.Horizontal)
        self.splitter.addWidget(self.source)
        self.splitter.addWidget(self.target)
        self.splitter.setChildrenCollapsible(False)
        # how Chinese is written belongs to the translation: above it, where there is room for five buttons
        self.target.header.addWidget(self.variant_box)
        self.target.header.addStretch()
        self.source.header.addWidget(self.hint_bar)
        self.jobs_panel = JobsPanel(documents.jobs)
        self.no_model = NoModelPage(ops)
        self.pages = QStackedWidget()
        self.pages.addWidget(container(vbox((self.splitter, 1), self.jobs_panel, margin=0)))
        self.pages.addWidget(self.no_model)
        self.setCentralWidget(container(vbox(top_bar, (self.pages, 1))))
        self.model_label = QLabel()
        self.stats_label = QLabel()
        self.statusBar().addWidget(self.stats_label, 1)
        self.statusBar().addPermanentWidget(self.model_label)
        self._debounce = QTimer(self, singleShot=True, interval=DEBOUNCE_MS)
        self.summary_stream: SummaryStream | None = None
        self.summary_dialog: SummaryDialog | None = None
        self.summarize_action = QAction(self)
        self.summarize_action.triggered.connect(self.summarize_document)
        first = self.documents_menu.actions()[0]
        self.documents_menu.insertAction(first, self.summarize_action)
        self.documents_menu.insertSeparator(first)
        self.summarize_action.setVisible(summary_service is not None)
        if summary_service is not None:
            self.summary_stream = SummaryStream(
                summary_service,
                SUMMARY_CHANNEL,
                self.target.view,
                progress=lambda *step: self.target.activity.setText(summary_text.stage(*step)),
                finished=self._summary_finished,
                failed=self._summary_failed,
            )
            self.source.summarize_button.show()
            self.source.summarize_requested.connect(self.summarize_now)
        self._connect()

        self.resize(980, 600)
        self.source.edit.setFocus()  # typing right after the start goes into the source pane
        self._restore_layout(settings.window_geometry.value, settings.splitter_state.value)
        self.set_text_size(settings.text_size.value)
        self.retranslate()
        if self.service.model is not None:
            self._on_loaded(self.service.model)

    def _top_bar(self) -> QLayout:
        """Direction (the pack, or a many-to-many pack's languages), Auto, and the actions; and the variant
        buttons, which go above the translation."""
        self.pack_box = QComboBox()
        self.pack_box.setSizeAdjustPolicy(QComboBox.SizeAdjustPolicy.AdjustToContents)
        self.pack_box.setMinimumContentsLength(16)  # its width beside a many-to-many pack's pickers
        self.swap_button = QToolButton(clicked=self.swap_direction)
        self.swap_button.setText("⇄")
        self.source_picker = LanguagePicker()
        self.target_picker = LanguagePicker()
        # automatic direction: on, or off to keep the direction the user chose; what was detected
        self.auto_button = QToolButton(checkable=True)
        self.auto_button.setObjectName("autoDirection")
        self.auto_button.setStyleSheet(CHECKED_TOGGLES)
        self.detected_label = QLabel()
        # it takes what room is left (its tooltip has the rest) and never pushes the buttons about
        self.detected_label.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Preferred)
        self.detected_label.setObjectName("detectedLanguage")
        self.detected_label.setStyleSheet("color: palette(placeholder-text);")
        # a direction pinned by hand while the text is in another language: said above the text (the top bar
        # has no room to spare beside a many-to-many pack's pickers), with one click to the direction that fits
        self.hint = QLabel()
        self.switch_button = QToolButton(clicked=self._take_suggestion)
        self.hint_bar = container(hbox(self.hint, self.switch_button, STRETCH, margin=0))
        self.hint_bar.hide()
        self.variant_group = QButtonGroup(self)
        self.variant_group.setExclusive(True)
        buttons = []
        for key, label in VARIANT_NAMES.items():
            buttons.append(QToolButton(text=label, checkable=True, autoRaise=False))
            buttons[-1].setProperty("variant", key)
            self.variant_group.addButton(buttons[-1])
        self.variant_box = container(hbox(*buttons, margin=0, spacing=2))
        self.variant_box.setStyleSheet(CHECKED_TOGGLES)
        self.documents_button = QToolButton(popupMode=QToolButton.ToolButtonPopupMode.MenuButtonPopup)
        self.documents_menu = QMenu(self)
        self.bilingual_action = setting_actions.toggle(self.documents_menu, self.settings.bilingual_documents)
        self.layout_section = self.documents_menu.addSection("")
        self.layout_actions = setting_actions.choice(
            self.documents_menu, self.settings.bilingual_layout, settings_values.BILINGUAL_LAYOUTS
        )
        self.pdf_section = self.documents_menu.addSection("")
        self.pdf_actions = setting_actions.choice(
            self.documents_menu, self.settings.pdf_output, settings_values.PDF_OUTPUTS
        )
        self.documents_button.setMenu(self.documents_menu)
        self.history_button = QToolButton()
        self.models_button = QToolButton()
        self.settings_button = QToolButton()
        # connected here, not as clicked= in the constructor: PySide6 calls what that keyword is given,
        # and a signal cannot be called (the three buttons did nothing)
        self.history_button.clicked.connect(self.history_requested)
        self.models_button.clicked.connect(self.models_requested)
        self.settings_button.clicked.connect(self.settings_requested)
        return hbox(
            self.pack_box,
            self.source_picker,
            self.swap_button,
            self.target_picker,
            self.auto_button,
            (self.detected_label, 1),
            self.documents_button,
            self.history_button,
            self.models_button,
            self.settings_button,
        )

    def _connect(self) -> None:
        self.pack_box.activated.connect(self._on_pack_chosen)
        for picker in (self.source_picker, self.target_picker):
            picker.chosen.connect(self._on_language_chosen)
        self.auto_button.clicked.connect(self.direction.set_auto)
        self.variant_group.buttonClicked.connect(lambda b: self.direction.set_variant(b.property("variant")))
        self.documents_button.clicked.connect(self.open_documents)
        self._debounce.timeout.connect(self.translate_now)
        self.source.edit.textChanged.connect(self._on_source_changed)
        self.source.translate_requested.connect(lambda: self.translate_now(force=True))
        for keys in ("Ctrl+Return", "Ctrl+Enter"):
            QShortcut(QKeySequence(keys), self, activated=lambda: self.translate_now(force=True))
        self.service.loading.connect(self._on_loading)
        self.service.loaded.connect(self._on_loaded)
        self.service.load_failed.connect(self._on_load_failed)
        self.packs.changed.connect(self.refresh_packs)
        self.direction.changed.connect(self._on_options_changed)
        self.settings.text_size.changed.connect(self.set_text_size)
        self.card.copied.connect(self._on_copied)
        if self.dictionary is not None:
            self.dictionary.changed.connect(self._on_dictionary_changed)

    # --- packs and variants ---------------------------------------------------------------------
    def refresh_packs(self) -> None:
        packs = self.packs.installed
        self.pack_box.clear()
        for pack in packs:
            languages = (
                self.tr("%1 languages").replace(
                    "%1", str(routing.language_count(pack.source_languages, pack.languages))
                )
                if pack.languages
                else direction(pack.source_lang, pack.target_lang)
            )
            # the name first: beside a many-to-many pack's pickers the box is cut at its right
            self.pack_box.addItem(f"{pack.name}  ·  {languages}", pack.name)
        widen_list(self.pack_box)
        self.pages.setCurrentIndex(PAGE_TRANSLATE if packs else PAGE_NO_MODEL)
        for widget in (self.pack_box, self.swap_button, self.auto_button, self.detected_label):
            widget.setVisible(bool(packs))
        self._update_variants(self.service.model)
        self._update_languages(self.service.model)
        self._select_current_pack()
        self._update_swap()
        if not packs:
            self.model_label.setText("")
            self._set_status(lambda: self.tr("No model installed"))

    def _select_current_pack(self) -> None:
        if self.packs.current is not None:
            self.pack_box.setCurrentIndex(self.pack_box.findData(self.packs.current.name))

    def _on_pack_chosen(self, index: int) -> None:
        pack = self.packs.named(self.pack_box.itemData(index))
        if pack is not None and pack != self.packs.current:
            if not confirm_load(self, pack.name, pack.memory_bytes):
                self._select_current_pack()
                return
            self.direction.set_auto(False)  # a direction chosen by hand stays until Auto is pressed
            self.packs.choose(pack)

    def _reverse(self) -> routing.Direction | None:
        current = self.direction.current()
        return self.direction.reverse(current) if current is not None else None

    def _update_swap(self) -> None:
        reverse = self._reverse()
        self.swap_button.setEnabled(reverse is not None)
        if reverse is None:
            self.swap_button.setToolTip(self.tr("Install a model for the other direction to swap"))
        elif reverse.source is not None:
            self.swap_button.setToolTip(self.tr("Swap the source and target languages"))
        else:
            self.swap_button.setToolTip(
                self.tr("Swap direction: %1").replace(
                    "%1", direction(reverse.pack.source_lang, reverse.pack.target_lang)
                )
            )

    def swap_direction(self) -> None:
        """Translate the other way: the languages of a many-to-many pack, else the pack for the other direction."""
        reverse = self._reverse()
        if reverse is None:
            return
        translation = self.target.view.text()
        self.direction.set_auto(False)
        self.direction.follow(reverse)
        self._draft = None
        self.source.set_text(translation)

    def _update_direction(self) -> None:
        """The Auto button, and what was detected in the text: with automatic direction beside it; with a
        direction pinned by hand, above the text when it is in another language, with a switch to one that
        fits."""
        auto = self.direction.auto
        self.auto_button.setChecked(auto)
        choice = self._choice
        suggested = choice.suggested if choice is not None and not auto else None
        pinned_hint = choice is not None and not auto and (suggested is not None or _mismatched(choice))
        for label, shown in ((self.detected_label, auto), (self.hint, pinned_hint)):
            said = shown and choice is not None and choice.detected is not None
            text, tip = self._detected_text(choice) if said and choice is not None else ("", "")
            label.setText(text)
            label.setToolTip(tip)
        self.hint_bar.setVisible(pinned_hint)
        self.switch_button.setVisible(suggested is not None)
        if suggested is not None:
            self.switch_button.setText(
                self.tr("Switch to %1").replace("%1", pair_label(suggested.from_language, suggested.to_language))
            )

    def _detected_text(self, choice: Choice) -> tuple[str, str]:
        """What was detected, and its tooltip."""
        name = language_label(str(choice.detected))
        if choice.supported:
            return (
                self.tr("Detected: %1").replace("%1", name),
                self.tr("Choose a direction by hand to keep it; Auto goes back"),
            )
        return (
            self.tr("Detected: %1 (no model)").replace("%1", name),
            self.tr("No installed model translates from %1: download one in Models.").replace("%1", name),
        )

    def _take_suggestion(self) -> None:
        """Translate the text in the direction that fits its language; the direction stays pinned."""
        if self._choice is not None and self._choice.suggested is not None:
            self.direction.follow(self._choice.suggested)

    def _loaded_pack(self, model: ModelInfo | None) -> PackInfo | None:
        """The window's pack once its model is loaded (a model is given only then)."""
        return self.packs.current if model is not None else None

    def _update_languages(self, model: ModelInfo | None) -> None:
        pack = self._loaded_pack(model)
        shown = pack is not None and routing.multilingual(pack)
        for picker in (self.source_picker, self.target_picker):
            picker.setVisible(shown)
        # beside the two pickers the pack box gives up width (its label is cut after the pack's name, its list
        # is whole) so the top bar still fits a 1000-pixel window
        self.pack_box.setSizeAdjustPolicy(
            QComboBox.SizeAdjustPolicy.AdjustToMinimumContentsLengthWithIcon
            if shown
            else QComboBox.SizeAdjustPolicy.AdjustToContents
        )
        self.pack_box.setMinimumWidth(self._name_width() if shown else 0)
        if pack is not None and shown:
            source, target = routing.saved_languages(pack, self.settings.pack_languages.value)
            self.source_picker.set_languages(list(pack.source_languages), source)
            self.target_picker.set_languages(list(pack.languages), target)

    def _name_width(self) -> int:
        """The pack box's width that shows the longest installed pack's name whole."""
        box = self.pack_box
        text = max((box.fontMetrics().horizontalAdvance(p.name) for p in self.packs.installed), default=0)
        option = QStyleOptionComboBox()
        box.initStyleOption(option)
        contents = QSize(text, box.fontMetrics().height())
        return box.style().sizeFromContents(QStyle.ContentsType.CT_ComboBox, option, contents, box).width()

    def _on_language_chosen(self) -> None:
        chosen = self.source_picker.code(), self.target_picker.code()  # before pinning redraws the pickers
        self.direction.set_auto(False)
        self.direction.set_languages(*chosen)

    def _update_variants(self, model: ModelInfo | None) -> None:
        """简体, 繁體（台灣）… as the window's direction offers them: a pack's target tokens, and Taiwan's and
        Hong Kong's Traditional wherever it writes Simplified Chinese."""
        current = self.direction.current() if self._loaded_pack(model) is not None else None
        offered = routing.ways_of_writing(current) if current is not None else []
        chosen = self.direction.written(current) if current is not None else None
        for button in self.variant_group.buttons():
            key = button.property("variant")
            button.setVisible(key in offered)
            button.setChecked(key == chosen)
        self.variant_box.setVisible(bool(offered))

    # --- translating ----------------------------------------------------------------------------
    def _on_source_changed(self) -> None:
        if not self.source.text().strip():
            self._draft = None  # an emptied pane starts a new history entry
        if self.settings.translate_as_you_type.value:
            self._debounce.start()

    def translate_now(self, force: bool = False) -> None:
        self._debounce.stop()
        if self.summary_stream is not None:
            self.summary_stream.cancel()  # typing again: the translation, not the summary
        text = self.source.text()
        self._look_up(text)
        if not text.strip():
            self.stream.cancel()
            self._done_key = None
            self.target.clear_error()
            self.stream.clear_notes()
            self.target.view.set_text("")
            self.target.activity.setText("")
            self._choice = None
            self._update_direction()
            return
        self._choice = self.direction.choose(text)
        self._update_direction()
        if self._choice is not None and self.direction.follow(self._choice.direction):
            return  # translated again once the other pack is loaded or the languages are set
        rewrite = self.direction.rewrite(self._choice)  # Chinese into Chinese: OpenCC, no model
        if self.service.model is None and rewrite is None:
            return  # _on_loaded translates once the model is ready
        options = self.direction.options()
        key = (text, options, rewrite)
        if not force and key in (self._done_key, self._req_key if self.stream.req_id else None):
            return
        self._done_key = None
        self.target.clear_error()
        self.stream.clear_notes()
        self.target.view.begin()
        self.target.activity.setText(self.tr("Translating…"))
        self._set_status(str)
        self.stream.request(text, options, rewrite=rewrite)
        self._req_key = key

    def _finished(self, text: str, stats: dict) -> None:
        self._done_key = self._req_key
        self.target.view.finish(text)
        self.target.activity.setText("")
        self._set_status(lambda: self._describe(stats))
        if self.packs.current is not None:
            assert self._req_key is not None  # set with the request
            source, _options, rewrite = self._req_key
            pack = REWRITER if rewrite is not None else self.packs.current.name
            found = self.found if self._found_for == source else None
            self._draft = self.history.record(source, text, self._draft, pack=pack, found=found)

    # --- summaries ----------------------------------------------------------------------------
    def summary_target(self) -> str | None:
        """The summary's language: the window's translation's, written as the user chose; None without a
        direction (the text's own)."""
        current = self.direction.current()
        if current is None:
            return None
        code = language_of(current.to_language).code
        written = self.direction.written(current) if code == "zh" else None
        return BCP47[written] if written not in (None, SIMPLIFIED, CANTONESE) else code

    def summarize_now(self) -> None:
        """The source text's summary in the target pane, streamed (fanyi.summaries)."""
        text = self.source.text()
        if self.summary_stream is None or not text.strip():
            return
        self._debounce.stop()
        self.stream.cancel()
        self._done_key = None  # the next edit translates again
        self.target.clear_error()
        self.stream.clear_notes()
        self.target.activity.setText(self.tr("Summarizing…"))
        self._set_status(str)
        self.summary_stream.request(text=text, target=self.summary_target())

    def _summary_finished(self, summary: summaries.Summary) -> None:
        self.target.view.finish(summary_text.shown(summary))
        self.target.activity.setText("")
        self._set_status(lambda: summary_text.note(summary))

    def _summary_failed(self, message: str) -> None:
        self.target.activity.setText("")
        self.target.show_error(self.tr("No summary: %1").replace("%1", message))

    def summarize_document(self) -> None:
        """Documents → Summarize…: a document of any format Fanyi reads, its summary in a dialog."""
        if self.summary_service is None:
            return
        name, _ = QFileDialog.getOpenFileName(
            self, self.tr("Summarize a document"), self._documents_folder, self._documents_filter()
        )
        if name:
            self._documents_folder = str(Path(name).parent)
            self.show_summary_of(Path(name))

    def show_summary_of(self, path: Path) -> None:
        assert self.summary_service is not None
        if self.summary_dialog is not None:
            self.summary_dialog.close()
        self.summary_dialog = SummaryDialog(self.summary_service, path, self.summary_target(), self)
        self.summary_dialog.show()

    def _on_copied(self, text: str) -> None:
        self.show_notice(self.tr("Copied: %1").replace("%1", text))

    def _on_dictionary_changed(self) -> None:
        self._look_up(self.source.text())

    def _look_up(self, text: str) -> None:
        """The dictionary's entry for the source text above the translation, when it is a word it has."""
        found = self.dictionary.lookup(text) if self.dictionary is not None and text.strip() else None
        self._found_for = text
        if found != self.found:
            self.found = found
            self.card.show_found(found)

    def _failed(self, message: str) -> None:
        self.target.activity.setText("")
        self.target.show_error(self.tr("Translation failed: %1").replace("%1", message))
        self._set_status(lambda: self.tr("Translation failed"))

    def _cancelled(self) -> None:
        self.target.activity.setText("")  # a model switch cancelled it: _on_loaded translates again

    def _describe(self, stats: dict) -> str:
        seconds, tokens = float(stats.get("seconds", 0.0)), int(stats.get("tokens", 0))
        if "opencc" in stats:  # the way of writing as the buttons name it (a pack's own 繁體 asked for: OpenCC's)
            way = VARIANT_NAMES.get(stats.get("written", ""), "") if stats.get("written") != TRADITIONAL else "繁體"
            return self.tr("Chinese written in %1 by OpenCC, no model").replace("%1", way or stats["opencc"])
        if tokens == 0:
            return self.tr("%1 s · from cache").replace("%1", f"{seconds:.2f}")
        rate = tokens / seconds if seconds > 0 else 0.0
        return self.tr("%1 s · %2 tokens/s").replace("%1", f"{seconds:.2f}").replace("%2", f"{rate:.0f}")

    def _on_options_changed(self) -> None:
        self._update_variants(self.service.model)
        self._update_languages(self.service.model)
        self._update_swap()
        self._update_direction()
        self.translate_now()

    def _on_loading(self, _pack_dir: str) -> None:
        self._set_status(lambda: self.tr("Loading the model…"))
        self._select_current_pack()
        self._update_swap()

    def _on_loaded(self, model: ModelInfo) -> None:
        self._show_model(model)
        self._set_status(lambda: self.tr("Ready"))
        self.target.clear_error()
        self._update_variants(model)
        self._update_languages(model)
        self._update_swap()
        self._done_key = None
        self.translate_now()

    def _show_model(self, model: ModelInfo | None) -> None:
        self.model_label.setText(f"{model.name} · {quantization_name(model.quantization)}" if model else "")

    def _on_load_failed(self, message: str) -> None:
        self.model_label.setText("")
        self._set_status(lambda: self.tr("The model could not be opened"))
        self.target.show_error(self.tr("The model could not be opened: %1").replace("%1", message))

    def _set_status(self, text: Callable[[], str]) -> None:
        """The status bar's own text, made by ``text`` now and again in another UI language."""
        self._status = text
        self.stats_label.setText(text())

    def show_notice(self, text: str) -> None:
        self.statusBar().showMessage(text, NOTICE_MS)

    def show_source(self, text: str) -> None:
        """Put ``text`` in the source pane (from the popup) and translate it, as a new history entry."""
        self._draft = None
        self.source.set_text(text)
        self.translate_now()

    def reopen(self, entry: Entry) -> None:
        """Put a history entry's text in the source pane and translate it; the entry is the draft, so
        translating it again (or editing it) updates that entry rather than adding a copy."""
        self._draft = Draft(entry.id, entry.source, entry.pack)
        self.source.set_text(entry.source)
        self.translate_now()

    # --- documents ------------------------------------------------------------------------------
    def open_documents(self) -> None:
        if self.packs.current is None:  # said before a file is chosen, not after
            self.offer_download()
            return
        # The user's home, then the folder chosen last; never the folder Fanyi happened to be started in.
        files, _ = QFileDialog.getOpenFileNames(
            self, self.tr("Translate documents"), self._documents_folder, self._documents_filter()
        )
        for name in files:
            self.enqueue_document(Path(name))
        if files:
            self._documents_folder = str(Path(files[0]).parent)

    def _documents_filter(self) -> str:
        patterns = " ".join(f"*{suffix}" for suffix in SUPPORTED_SUFFIXES)
        return self.tr("Documents (%1)").replace("%1", patterns)

    def enqueue_document(self, path: Path) -> None:
        if not self.documents.enqueue(path):
            self.offer_download()

    def offer_download(self) -> None:
        """Documents need a model and none is installed: say so, with the no-model page's own Download."""
        page = self.no_model
        box = QMessageBox(QMessageBox.Icon.Information, self.tr("Translate documents"), "", parent=self)
        box.setText(self.tr("Documents are translated by a model, and none is installed yet."))
        box.setInformativeText(page.model_note.text())
        download = box.addButton(page.download_button.text(), QMessageBox.ButtonRole.AcceptRole)
        download.setEnabled(page.download_button.isEnabled())  # not while a download runs
        download.clicked.connect(page.download_button.click)
        box.addButton(QMessageBox.StandardButton.Cancel)
        box.setDefaultButton(download)
        self.download_offer = box
        box.open()

    def dragEnterEvent(self, event: QDragEnterEvent) -> None:
        if any(url.isLocalFile() for url in event.mimeData().urls()):
            event.acceptProposedAction()

    def dropEvent(self, event: QDropEvent) -> None:
        for url in event.mimeData().urls():
            if url.isLocalFile() and Path(url.toLocalFile()).is_file():
                self.enqueue_document(Path(url.toLocalFile()))
        event.acceptProposedAction()

    # --- window ---------------------------------------------------------------------------------
    def set_text_size(self, points: int) -> None:
        """The panes' text in ``points`` (0: the default size)."""
        for edit in (self.source.edit, self.target.view):
            edit.setFont(text_font(points))

    def remember_layout(self) -> None:
        """Keep where the window is and how its panes are split, for the next start."""
        self.settings.update(
            window_geometry=bytes(self.saveGeometry().toBase64().data()).decode("ascii"),
            splitter_state=bytes(self.splitter.saveState().toBase64().data()).decode("ascii"),
        )

    def _restore_layout(self, geometry: str, splitter: str) -> None:
        # Qt checks what it restores: a blob it cannot read is ignored, and a window saved on a screen
        # that is gone is moved onto one that is there.
        if geometry:
            self.restoreGeometry(QByteArray.fromBase64(geometry.encode("ascii")))
        if splitter:
            self.splitter.restoreState(QByteArray.fromBase64(splitter.encode("ascii")))

    def closeEvent(self, event: QCloseEvent) -> None:
        self.remember_layout()
        if self._keep_in_tray():
            event.ignore()
            self.hide()
            self.kept_in_tray.emit()
        else:
            event.accept()
            self.quit_requested.emit()

    def retranslate(self) -> None:
        self.setWindowTitle(self.tr("Fanyi — offline translator"))
        self.pack_box.setToolTip(self.tr("Languages and model"))
        self.source_picker.setToolTip(self.tr("Translate from (type to search)"))
        self.target_picker.setToolTip(self.tr("Translate into (type to search)"))
        names = variant_names()
        for button in self.variant_group.buttons():
            button.setToolTip(names[button.property("variant")])
        self.auto_button.setText(self.tr("Auto"))
        self.auto_button.setToolTip(self.tr("Choose the direction from the language of the text"))
        self._update_direction()
        self.documents_button.setText(self.tr("Documents…"))
        self.documents_button.setToolTip(self.tr("Translate documents (or drop files on the window)"))
        self.summarize_action.setText(self.tr("Summarize a document…"))
        self.bilingual_action.setText(self.tr("Bilingual output (original and translation)"))
        self.layout_section.setText(self.tr("Bilingual PDF"))
        self.layout_actions["side"].setText(self.tr("Original and translation side by side"))
        self.layout_actions["alternate"].setText(self.tr("Original and translated pages alternating"))
        self.pdf_section.setText(self.tr("Translate a PDF into"))
        self.pdf_actions["pdf"].setText(self.tr("A PDF with its layout"))
        self.pdf_actions["docx"].setText(self.tr("A Word document (its text only)"))
        self.history_button.setText(self.tr("History"))
        self.models_button.setText(self.tr("Models"))
        self.settings_button.setText(self.tr("Settings"))
        self.refresh_packs()  # the selector names languages in the UI language
        self.stats_label.setText(self._status())
        if self.service.model is not None:
            self._show_model(self.service.model)
