"""The desktop app: ``run(argv)`` is what `fanyi` (no subcommand) and `python -m fanyi` call.

``FanyiApp`` builds the controllers (fanyi.ui.controllers), the windows and the ways in — the
tray, the global hotkeys, a later launch of Fanyi — and connects them; each controller does its
own job, and each window is given the controllers it needs. The dialogs the window opens are
fanyi.ui.dialogs'; what the clipboard hotkey reads is fanyi.ui.clipboard's.
"""

from __future__ import annotations

import signal
import sys
from collections.abc import Callable

from PySide6.QtCore import QObject, Qt, QTimer, Signal
from PySide6.QtGui import QIcon
from PySide6.QtWidgets import QApplication

from fanyi import paths
from fanyi.app_options import app_parser
from fanyi.documents.job import translate_document
from fanyi.ui import i18n, theme
from fanyi.ui.clipboard import copied_text
from fanyi.ui.controllers.api import ApiController
from fanyi.ui.controllers.autostart import AutostartController
from fanyi.ui.controllers.dictionary import DictionaryController
from fanyi.ui.controllers.direction import DirectionController
from fanyi.ui.controllers.documents import DocumentController
from fanyi.ui.controllers.glossary import GlossaryController
from fanyi.ui.controllers.history import HistoryController
from fanyi.ui.controllers.packs import PackController
from fanyi.ui.controllers.screen_text import ScreenTextController
from fanyi.ui.controllers.settings import LiveSettings
from fanyi.ui.dialogs import Dialogs
from fanyi.ui.hotkey import GlobalHotkey
from fanyi.ui.instance import SHOW, TRANSLATE_CLIPBOARD, TRANSLATE_REGION, SingleInstance
from fanyi.ui.jobs import DocumentJobs, RunDocument
from fanyi.ui.main_window import MainWindow
from fanyi.ui.ocr_service import Recognise, recognise_text
from fanyi.ui.pack_ops import PackOperations
from fanyi.ui.popup import TranslatePopup
from fanyi.ui.region import Shot
from fanyi.ui.settings import Settings, load_settings
from fanyi.ui.summary_service import SummaryService
from fanyi.ui.tray import Tray
from fanyi.ui.worker import OpenTranslator, TranslationService, open_translator

HOTKEY_DELAY_MS = 200  # the application that was copied from needs a moment to own the clipboard


def app_icon() -> QIcon:
    return QIcon(str(paths.assets_dir() / "icons" / "fanyi.svg"))


class FanyiApp(QObject):
    quit_requested = Signal()
    notice = Signal(str)  # for the status bar: something to know once, or where other apps reach Fanyi

    def __init__(
        self,
        settings: Settings,
        *,
        opener: OpenTranslator = open_translator,
        run_document: RunDocument = translate_document,
        recognise: Recognise = recognise_text,
        grab: Callable[[], list[Shot]] | None = None,
    ) -> None:
        super().__init__()
        self.settings = LiveSettings(settings)
        self.service = TranslationService(opener)
        self.ops = PackOperations(lambda: self.settings.current)
        self.packs = PackController(self.settings, self.service, self.ops)
        self.summaries = SummaryService(self.service.gate, lambda: self.packs.usable, opener)
        self.glossary = GlossaryController()
        self.direction = DirectionController(self.settings, self.packs, self.glossary)
        self.history = HistoryController(self.settings)
        self.dictionary = DictionaryController()
        self.ops.dictionary_installed.connect(lambda _info: self.dictionary.refresh())
        self.documents = DocumentController(
            DocumentJobs(opener, run_document), self.settings, self.packs, self.direction
        )
        self.screen_text = ScreenTextController(recognise, grab)
        self.api = ApiController(self.settings, self.packs, opener, self.direction.user_options, self.glossary.entries)
        self.autostart = AutostartController(self.settings)
        self.icon = app_icon()
        self.tray = Tray(self.icon)
        self.hotkey = GlobalHotkey()
        self.screenshot_hotkey = GlobalHotkey()
        # the dialogs belong to the window, which is built when first asked for
        self.dialogs = Dialogs(
            self.settings, self.packs, self.ops, self.glossary, self.history, self.tray, lambda: self.window
        )
        self._window: MainWindow | None = None
        self._popup: TranslatePopup | None = None
        self._started = False  # tests build the app without start(): no global hotkey then
        self._connect()

    def _connect(self) -> None:
        self.tray.show_requested.connect(self.show_main)
        self.tray.translate_clipboard_requested.connect(self.translate_clipboard)
        self.tray.translate_region_requested.connect(self.translate_screen_region)
        self.tray.quit_requested.connect(self.quit)
        self.hotkey.triggered.connect(lambda: QTimer.singleShot(HOTKEY_DELAY_MS, self.translate_clipboard))
        self.screenshot_hotkey.triggered.connect(self.translate_screen_region)
        self.screen_text.found.connect(lambda text: self.popup.show_text(text))
        self.screen_text.message.connect(lambda text: self.popup.show_message(text))
        for source in (
            self.history.notice,
            self.api.status_changed,
            self.autostart.notice,
            self.dialogs.notice,
            self.dictionary.notice,
        ):
            source.connect(self.notice)
        self.settings.ui_language.changed.connect(i18n.install)
        self.settings.theme.changed.connect(theme.apply)
        for hotkey, keys in (
            (self.hotkey, self.settings.hotkey),
            (self.screenshot_hotkey, self.settings.screenshot_hotkey),
        ):
            # a global hotkey is taken only by a started app (tests build one without starting it)
            keys.changed.connect(lambda value, hotkey=hotkey: hotkey.set_hotkey(value) if self._started else None)

    # --- lifecycle ------------------------------------------------------------------------------
    def start(self, in_tray: bool = False) -> None:
        """The normal start: the hotkey, then the window unless the user asked to start in the tray
        (in Settings, or with ``--tray`` as at login)."""
        self._started = True
        self.tray.show()
        self.hotkey.set_hotkey(self.settings.hotkey.value)
        self.screenshot_hotkey.set_hotkey(self.settings.screenshot_hotkey.value)
        if not ((in_tray or self.settings.start_in_tray.value) and self.tray.available):
            self.show_main()
        self.api.apply()  # after the window, whose status bar says where other apps reach Fanyi
        self.autostart.refresh()

    @property
    def started(self) -> bool:
        return self._started

    def handle_request(self, command: str) -> None:
        """A later launch of Fanyi: its window comes forward, or its popup opens."""
        if command == TRANSLATE_CLIPBOARD:
            self.translate_clipboard()
        elif command == TRANSLATE_REGION:
            self.translate_screen_region()
        else:
            if not self._started:  # this process was started for the popup only: now it is the app
                self.start()
            self.show_main()

    def keeps_running_in_tray(self) -> bool:
        return self.tray.available and self.settings.close_to_tray.value

    def _say_kept_in_tray(self) -> None:
        """The first time the window is closed to the tray, a notice by the icon says where Fanyi went."""
        if self.settings.told_about_tray.value:
            return
        self.settings.told_about_tray.set(True)
        self.tray.notify(
            self.tr("Fanyi is still running"),
            self.tr(
                "It is in the tray, where the clipboard hotkey still works. Quit it from the tray icon's menu, or "
                "untick “Closing the window keeps Fanyi in the tray” in Settings."
            ),
        )

    def quit(self) -> None:
        self.quit_requested.emit()

    def shutdown(self) -> None:
        if self._window is not None:
            self._window.remember_layout()
        self.api.stop()  # first: its requests may be waiting for the translation worker's model
        self.hotkey.stop()
        self.screenshot_hotkey.stop()
        self.screen_text.shutdown()
        self.tray.hide()
        self.ops.wait()
        self.summaries.shutdown()  # before the worker: a summary may hold its gate
        self.service.shutdown()
        self.documents.shutdown()
        self.history.close()

    # --- windows --------------------------------------------------------------------------------
    @property
    def window(self) -> MainWindow:
        if self._window is None:
            self._window = MainWindow(
                self.settings,
                self.packs,
                self.direction,
                self.history,
                self.documents,
                self.ops,
                self.keeps_running_in_tray,
                dictionary=self.dictionary,
                summary_service=self.summaries,
            )
            self._window.setWindowIcon(self.icon)
            self._window.history_requested.connect(self.dialogs.show_history)
            self._window.models_requested.connect(self.dialogs.show_models)
            self._window.settings_requested.connect(self.dialogs.show_settings)
            self._window.quit_requested.connect(self.quit)
            self._window.kept_in_tray.connect(self._say_kept_in_tray)
            self.notice.connect(self._window.show_notice)
        return self._window

    @property
    def popup(self) -> TranslatePopup:
        if self._popup is None:
            popup = self._popup = TranslatePopup(self.service, self.direction, self.dictionary, self.summaries)
            # under the popup's own pack, which auto direction may have chosen apart from the window's
            popup.translated.connect(
                lambda source, target: (
                    popup.pack_name and self.history.record(source, target, pack=popup.pack_name, found=popup.found)
                )
            )
            popup.open_requested.connect(self.open_in_window)
            # started for the popup alone, this process becomes the app: the window's download page stays
            popup.download_requested.connect(lambda: self.handle_request(SHOW))
        return self._popup

    def show_main(self) -> None:
        """The window to the front: shown, and brought back from the taskbar when it was minimised."""
        window = self.window
        window.setWindowState(window.windowState() & ~Qt.WindowState.WindowMinimized)
        window.show()
        window.raise_()
        window.activateWindow()

    def translate_clipboard(self) -> None:
        """The hotkey, the tray and `fanyi --translate-clipboard`: the copied (or selected) text in the popup."""
        text = copied_text(self.settings.translate_selection.value)
        if not self._say_no_model(text):
            self.popup.show_text(text)

    def translate_screen_region(self) -> None:
        """Cover the screens to choose a region; its text is recognised and translated in the popup."""
        if not (self.screen_text.active or self._say_no_model()):
            self.screen_text.start()

    def open_in_window(self, text: str) -> None:
        """The popup's "Open in main window": its text in the source pane, translated there."""
        self.window.show_source(text)
        self.show_main()

    def _say_no_model(self, text: str = "") -> bool:
        """No model: the popup says so, below the dictionary's entry for `text` where there is one."""
        if self.packs.installed:
            return False
        self.popup.show_no_model(text=text)
        return True


def run(argv: list[str], *, opener: OpenTranslator = open_translator) -> int:
    """Run the desktop app; ``argv`` is the command line after the program name.

    ``--translate-clipboard`` shows only the popup for the clipboard's text and returns when it is
    closed, for binding to a desktop shortcut where global hotkeys cannot work; ``--translate-region``
    does the same for a region of the screen (and returns at once when it is cancelled); ``--tray``
    starts without the window (where there is a tray). When Fanyi already runs for this user, these
    hand over to it (its window comes forward, or its popup or region picker opens) and return 0 at once.
    """
    args, qt_args = app_parser().parse_known_args(argv)
    qapp = QApplication.instance() or QApplication(["fanyi", *qt_args])
    assert isinstance(qapp, QApplication)
    stop_handling_ctrl_c = _quit_on_ctrl_c(qapp)
    qapp.setApplicationName("Fanyi")
    qapp.setDesktopFileName("fanyi")
    instance = SingleInstance()
    command = TRANSLATE_CLIPBOARD if args.translate_clipboard else TRANSLATE_REGION if args.translate_region else SHOW
    if not instance.claim():
        if instance.send(command):
            return 0
        print(
            "fanyi: Fanyi is already running but does not answer; quit it (or end its process) and start Fanyi again.",
            file=sys.stderr,
        )
        return 1
    try:
        return _run_first(qapp, instance, command if command != SHOW else None, args.tray, opener)
    finally:
        stop_handling_ctrl_c()
        instance.release()


def _run_first(
    qapp: QApplication, instance: SingleInstance, popup_only: str | None, in_tray: bool, opener: OpenTranslator
) -> int:
    """``popup_only``: TRANSLATE_CLIPBOARD or TRANSLATE_REGION for a one-shot launch, None for the app."""
    # The tray, the popup and the hidden window outlive "the last window": quitting is explicit.
    qapp.setQuitOnLastWindowClosed(False)
    settings = load_settings()
    i18n.install(settings.ui_language)
    theme.apply(settings.theme)
    fanyi = FanyiApp(settings, opener=opener)
    qapp.setWindowIcon(fanyi.icon)
    fanyi.quit_requested.connect(qapp.quit)
    instance.requested.connect(fanyi.handle_request)
    if popup_only:
        # Only the popup, unless a later launch asks for the window: then this is the app.
        fanyi.popup.closed.connect(lambda: None if fanyi.started else qapp.quit())
        if popup_only == TRANSLATE_CLIPBOARD:
            fanyi.translate_clipboard()
        else:
            fanyi.screen_text.picker.cancelled.connect(lambda: None if fanyi.started else qapp.quit())
            QTimer.singleShot(0, fanyi.translate_screen_region)  # once the event loop runs
    else:
        fanyi.start(in_tray=in_tray)
    try:
        return qapp.exec()
    finally:
        fanyi.shutdown()


def _quit_on_ctrl_c(qapp: QApplication) -> Callable[[], None]:
    """Ctrl+C in the terminal quits; returns what puts the previous handler back.

    Python runs signal handlers only between bytecodes, so a timer lets it in now and then while
    Qt's loop runs in C. The quit is queued rather than called: a quit() before exec() has started
    (a Ctrl+C while the window is being built) does nothing, and that Ctrl+C was lost.
    """
    previous = signal.signal(signal.SIGINT, lambda *_: QTimer.singleShot(0, qapp.quit))
    poll = QTimer(qapp, interval=250)
    poll.timeout.connect(lambda: None)
    poll.start()

    def stop() -> None:
        poll.stop()
        poll.deleteLater()
        signal.signal(signal.SIGINT, previous)

    return stop
