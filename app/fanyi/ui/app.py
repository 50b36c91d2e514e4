"""The desktop app: ``run(argv)`` is what `fanyi` (no subcommand) and `python -m fanyi` call.

``FanyiApp`` wires the pieces together and holds the state they share: the settings, the chosen
pack, the translation service, the document queue, the history, the tray and the hotkey.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import os
import signal
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal
from PySide6.QtGui import QClipboard, QGuiApplication, QIcon
from PySide6.QtWidgets import QApplication

from fanyi import autostart, library, paths
from fanyi.engine.language_choice import base_language
from fanyi.engine.options import DecodeOptions
from fanyi import langid
from fanyi.ui import direction as directions
from fanyi.ui import i18n, region, theme
from fanyi.ui.api_server import ApiServer
from fanyi.ui.direction import Choice, Direction
from fanyi.ui.history import Draft, History, history_path
from fanyi.ui.hotkey import GlobalHotkey
from fanyi.ui.instance import SHOW, TRANSLATE_CLIPBOARD, TRANSLATE_REGION, SingleInstance
from fanyi.ui.jobs import DocumentJobs, RunDocument, translate_document
from fanyi.ui.ocr_service import OcrService, Recognise, recognise_text
from fanyi.ui.pack_ops import PackOperations
from fanyi.ui.region import RegionPicker, Shot, grab_screens
from fanyi.ui.settings import Settings, load_settings, save_settings
from fanyi.ui.tray import Tray
from fanyi.ui.worker import ModelInfo, OpenTranslator, TranslationService, open_translator

log = logging.getLogger(__name__)

HOTKEY_DELAY_MS = 200  # the application that was copied from needs a moment to own the clipboard
PACKS_SETTLE_MS = 400  # an install renames folders in steps: look at the packs once it has settled


def app_icon() -> QIcon:
    return QIcon(str(paths.assets_dir() / "icons" / "fanyi.svg"))


class FanyiApp(QObject):
    packs_changed = Signal()
    options_changed = Signal()  # beams, length or variant: what is shown must be re-translated
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
        self.settings = settings
        self.service = TranslationService(opener)
        self.jobs = DocumentJobs(opener, run_document)
        self.ops = PackOperations(lambda: self.settings)
        self.ops.succeeded.connect(self._on_pack_installed)
        self.icon = app_icon()
        self.tray = Tray(self.icon)
        self.tray.show_requested.connect(self.show_main)
        self.tray.translate_clipboard_requested.connect(self.translate_clipboard)
        self.tray.translate_region_requested.connect(self.translate_screen_region)
        self.tray.quit_requested.connect(self.quit)
        self.hotkey = GlobalHotkey()
        self.hotkey.triggered.connect(lambda: QTimer.singleShot(HOTKEY_DELAY_MS, self.translate_clipboard))
        self.screenshot_hotkey = GlobalHotkey()
        self.screenshot_hotkey.triggered.connect(self.translate_screen_region)
        self._grab = grab or grab_screens
        self.region_picker = RegionPicker()
        self.region_picker.picked.connect(self._recognise_region)
        self.ocr = OcrService(recognise)
        self.ocr.recognised.connect(self._on_recognised)
        self.ocr.failed.connect(self._on_ocr_failed)
        self._ocr_request: int | None = None
        self.api = ApiServer(self.service.gate, lambda: self.packs, opener, self._api_options,
                             lambda: self.settings.threads or None)
        self.api.status_changed.connect(self.notice)
        self.packs: list[library.PackInfo] = []
        self.pack: library.PackInfo | None = None
        self._history: History | None = None
        self._history_failed = False  # said once; the next attempt may work again
        self._window = None
        self._popup = None
        self._dialogs: dict[str, QObject] = {}  # non-modal windows kept alive while open
        self._started = False  # tests build the app without start(): no global hotkey then
        # Packs installed or removed by the model manager or `fanyi models` in a terminal show at once.
        self._watcher = QFileSystemWatcher(self)
        self._packs_settle = QTimer(self, singleShot=True, interval=PACKS_SETTLE_MS)
        self._packs_settle.timeout.connect(self.refresh_packs)
        self._watcher.directoryChanged.connect(lambda _path: self._packs_settle.start())
        self.service.loaded.connect(self._on_model_loaded)
        self.refresh_packs()

    # --- lifecycle ------------------------------------------------------------------------------
    def start(self, in_tray: bool = False) -> None:
        """The normal start: the hotkey, then the window unless the user asked to start in the tray
        (in Settings, or with ``--tray`` as at login)."""
        self._started = True
        self.tray.show()
        self.hotkey.set_hotkey(self.settings.hotkey)
        self.screenshot_hotkey.set_hotkey(self.settings.screenshot_hotkey)
        if not ((in_tray or self.settings.start_in_tray) and self.tray.available):
            self.show_main()
        self._apply_api()  # after the window, whose status bar says where other apps reach Fanyi
        if self.settings.start_at_login:
            self._change_autostart(autostart.refresh)  # the app may have moved since the entry was written

    @property
    def started(self) -> bool:
        return self._started

    def handle_request(self, command: str) -> None:
        """A later launch of Fanyi: its window comes forward, or its popup opens."""
        if command == TRANSLATE_CLIPBOARD:
            self.translate_clipboard()
            return
        if command == TRANSLATE_REGION:
            self.translate_screen_region()
            return
        if not self._started:  # this process was started for the popup only: now it is the app
            self.start()
        self.show_main()

    def keeps_running_in_tray(self) -> bool:
        return self.tray.available and self.settings.close_to_tray

    def quit(self) -> None:
        self.quit_requested.emit()

    def shutdown(self) -> None:
        if self._window is not None:
            self.remember_window()
        self.api.stop()  # first: its requests may be waiting for the translation worker's model
        self.hotkey.stop()
        self.screenshot_hotkey.stop()
        self.region_picker.close()
        self.ocr.shutdown()
        self.tray.hide()
        self.ops.wait()
        self.service.shutdown()
        self.jobs.shutdown()
        if self._history is not None:
            self._history.close()

    # --- windows --------------------------------------------------------------------------------
    @property
    def window(self):
        if self._window is None:
            from fanyi.ui.main_window import MainWindow

            self._window = MainWindow(self)
            self._window.setWindowIcon(self.icon)
        return self._window

    @property
    def popup(self):
        if self._popup is None:
            from fanyi.ui.popup import TranslatePopup

            self._popup = TranslatePopup(self)
            # under the popup's own pack, which auto direction may have chosen apart from the window's
            self._popup.translated.connect(
                lambda source, target: self.record(source, target, pack=self._popup.pack_name))
        return self._popup

    def show_main(self) -> None:
        self.window.show()
        self.window.raise_()
        self.window.activateWindow()

    def translate_clipboard(self) -> None:
        """The hotkey, the tray and `fanyi --translate-clipboard`: the copied (or selected) text in the popup."""
        if self._say_no_model():
            return
        self.popup.show_text(self.copied_text())

    def copied_text(self) -> str:
        """The clipboard's text, or with the selection setting (X11) the selected text when there is some."""
        clipboard = QGuiApplication.clipboard()
        if self.settings.translate_selection and clipboard.supportsSelection():
            if selected := clipboard.text(QClipboard.Mode.Selection):
                return selected
        return clipboard.text()

    def open_in_window(self, text: str) -> None:
        """The popup's "Open in main window": its text in the source pane, translated there."""
        self.window.show_source(text)
        self.show_main()

    def _say_no_model(self) -> bool:
        if self.packs:
            return False
        self.popup.show_no_model()
        return True

    def translate_screen_region(self) -> None:
        """Cover the screens to choose a region; its text is recognised and translated in the popup."""
        if self.region_picker.active or self._say_no_model():
            return
        ok, why = region.availability()
        shots = self._grab() if ok else []
        if not shots:
            self.popup.show_message(why or self.tr("The screen could not be captured."))
            return
        self.region_picker.start(shots)

    def _recognise_region(self, image) -> None:
        self._ocr_request = self.ocr.request(image)

    def _on_recognised(self, req_id: int, text: str) -> None:
        if req_id != self._ocr_request:
            return
        self._ocr_request = None
        if text.strip():
            self.popup.show_text(text)
        else:
            self.popup.show_message(self.tr("No text was found in the selected region."))

    def _on_ocr_failed(self, req_id: int, message: str) -> None:
        if req_id == self._ocr_request:
            self._ocr_request = None
            self.popup.show_message(message)

    def show_settings(self) -> None:
        from fanyi.ui.settings_dialog import SettingsDialog

        dialog = SettingsDialog(self.settings, self.tray.available, self.window)
        if dialog.exec():
            self.apply_settings(dialog.result_settings())
        dialog.deleteLater()  # parented to the window, it would otherwise live as long as the window

    def show_models(self) -> None:
        from fanyi.ui.model_manager import ModelManager

        default = self.default_pack()
        manager = ModelManager(self.ops, default.name if default else "", self.window)
        manager.packs_changed.connect(self.refresh_packs)
        manager.default_chosen.connect(self.set_default_pack)
        self._keep_open("models", manager)

    def show_history(self) -> None:
        from fanyi.ui.history_dialog import HistoryDialog

        recording = self.settings.history
        try:
            # while history is off, a history that does not exist yet is not created just to be looked at
            history = self.history if recording or self._history or history_path().exists() else None
        except (sqlite3.Error, OSError) as exc:
            self._history_unavailable(exc)
            return
        dialog = HistoryDialog(history, recording, self.window)
        dialog.reopen.connect(self.window.reopen)
        self._keep_open("history", dialog)

    def _keep_open(self, name: str, dialog) -> None:
        if old := self._dialogs.pop(name, None):
            old.close()
        self._dialogs[name] = dialog
        dialog.finished.connect(lambda _result: self._dialogs.pop(name, None))
        dialog.show()

    # --- packs ----------------------------------------------------------------------------------
    def refresh_packs(self) -> None:
        # Broken packs are for the model manager to show and remove; nothing here may choose one.
        packs = [p for p in library.list_packs() if p.usable]
        self._watch_pack_folders()
        if packs == self.packs and self.pack is not None:
            return
        self.packs = packs
        self.service.drop_spare()  # its pack may be the one removed or updated
        if langid.needs_ngrams(directions.one_way_languages(packs)):
            langid.preload()  # several one-way packs from languages of one script (en, fr, de → zh)
        same = next((p for p in packs if self.pack is not None and p.path == self.pack.path), None)
        if same is None:
            self.pack = None
            if chosen := self.default_pack():
                self.choose_pack(chosen)
        elif same != self.pack:
            self.choose_pack(same)  # updated in place: open the new version
        self.packs_changed.emit()

    def _watch_pack_folders(self) -> None:
        """Watch the pack folders, or while one does not exist yet, the folder it will be made in."""
        wanted = set()
        for folder in [paths.user_packs_dir(), *paths.bundled_packs_dirs()]:
            while not folder.is_dir() and folder.parent != folder:
                folder = folder.parent
            wanted.add(str(folder))
        watched = set(self._watcher.directories())
        if stale := watched - wanted:
            self._watcher.removePaths(sorted(stale))
        if new := wanted - watched:
            self._watcher.addPaths(sorted(new))

    def default_pack(self) -> library.PackInfo | None:
        """The user's choice, else the first English→Chinese pack, else any pack."""
        for pack in self.packs:
            if pack.name == self.settings.default_pack:
                return pack
        for pack in self.packs:
            if (pack.source_lang, pack.target_lang) == ("en", "zh"):
                return pack
        return self.packs[0] if self.packs else None

    def live_threads(self) -> int:
        """Threads for translate-as-you-type: by default all cores but one, so the window keeps one."""
        return self.settings.threads or max(1, min(4, (os.cpu_count() or 1) - 1))

    def choose_pack(self, pack: library.PackInfo) -> None:
        self.pack = pack
        self.service.load(pack.path, self.live_threads())

    def set_default_pack(self, name: str) -> None:
        """Remember the default pack and show it in the window."""
        self._save(dataclasses.replace(self.settings, default_pack=name))
        pack = next((p for p in self.packs if p.name == name), None)
        if pack is not None and pack != self.pack:
            self.choose_pack(pack)

    # --- direction ------------------------------------------------------------------------------
    def current_direction(self) -> Direction | None:
        """The window's direction: its pack, and a loaded many-to-many pack's languages."""
        if self.pack is None:
            return None
        model = self.service.model
        if model is not None and model.path == self.pack.path:
            return Direction(self.pack, *self.pack_languages(model))
        return Direction(self.pack)

    def choose_direction(self, text: str, start: Direction | None = None) -> Choice | None:
        """The direction to translate ``text`` in: detected from it, or the window's when the user pinned one."""
        current = start or self.current_direction()
        if current is None or not self.settings.auto_direction:
            return Choice(current, None) if current is not None else None
        return directions.choose(text, current, self.packs, self.service.model, self.settings.default_pack)

    def reverse_direction(self, direction: Direction) -> Direction | None:
        return directions.reverse(direction, self.packs, self.service.model)

    def follow(self, direction: Direction) -> bool:
        """Make ``direction`` the window's; True when it had another, then the window translates again
        once the pack is loaded or the languages are set."""
        if self.pack is None:
            return False
        if direction.pack.path != self.pack.path:
            self.choose_pack(direction.pack)
            return True
        if direction.source is not None and (direction.source, direction.target) != \
                self.pack_languages(self.service.model):
            self.set_pack_languages(direction.source, direction.target)
            return True
        return False

    def set_auto_direction(self, on: bool) -> None:
        """Automatic direction on, or off to keep the one the user chose."""
        if on != self.settings.auto_direction:
            self._save(dataclasses.replace(self.settings, auto_direction=on))
            self.options_changed.emit()

    def _on_model_loaded(self, model: ModelInfo) -> None:
        if model.many_to_many and langid.needs_ngrams(model.source_languages):
            langid.preload()  # detection never waits for it: see fanyi.langid

    def _on_pack_installed(self, info: library.PackInfo) -> None:
        first = not self.packs
        self.refresh_packs()
        if first:
            self.set_default_pack(info.name)

    # --- options and settings -------------------------------------------------------------------
    def variant(self, model: ModelInfo | None) -> str | None:
        """The target token to ask for: the user's choice where the model offers it."""
        if model is None or not model.target_tokens:
            return None
        if self.settings.target_variant in model.target_tokens:
            return self.settings.target_variant
        return model.default_target

    def pack_languages(self, model: ModelInfo | None) -> tuple[str | None, str | None]:
        """(source, target) of a many-to-many model: the pair last chosen for the pack, else English →
        the pack's default target; (None, None) for other models."""
        if model is None or not model.many_to_many:
            return None, None
        saved = self.settings.pack_languages.get(model.name) or [None, None]
        sources, targets = model.source_languages, model.target_languages
        english = next((c for c in sources if base_language(c) == "en"), sources[0])
        source = saved[0] if saved[0] in sources else english
        target = saved[1] if saved[1] in targets else \
            model.default_target if model.default_target in targets else targets[0]
        return source, target

    def set_pack_languages(self, source: str, target: str) -> None:
        """Remember the languages chosen for the loaded many-to-many pack and translate again."""
        model = self.service.model
        if model is None or not model.many_to_many or (source, target) == self.pack_languages(model):
            return
        chosen = dict(self.settings.pack_languages, **{model.name: [source, target]})
        self._save(dataclasses.replace(self.settings, pack_languages=chosen))
        self.options_changed.emit()

    def options(self) -> DecodeOptions:
        """Decoding options for the window's direction."""
        model = self.service.model
        source, target = self.pack_languages(model)
        return self._decode_options(source, target or self.variant(model))

    def options_for(self, direction: Direction) -> DecodeOptions:
        """Decoding options for ``direction`` (the popup's, which may be another pack than the window's)."""
        variant = self.settings.target_variant if self.settings.target_variant in direction.pack.target_tokens \
            else None
        return self._decode_options(direction.source, direction.target or variant)

    def _decode_options(self, source: str | None, target: str | None) -> DecodeOptions:
        s = self.settings
        return DecodeOptions(beams=s.beams or None, max_length=s.max_length or None, target=target, source=source)

    def _api_options(self) -> DecodeOptions:
        """Beams and length for API requests (read in the server's thread); the target comes with each request."""
        s = self.settings
        return DecodeOptions(beams=s.beams or None, max_length=s.max_length or None)

    def _apply_api(self) -> None:
        s = self.settings
        self.api.apply(s.api_enabled, s.api_port, s.api_key, s.api_origins)

    def set_variant(self, key: str) -> None:
        self._save(dataclasses.replace(self.settings, target_variant=key))
        self.options_changed.emit()

    def apply_settings(self, new: Settings) -> None:
        old = self.settings
        self._save(new)
        if new.ui_language != old.ui_language:
            i18n.install(new.ui_language)
        if new.theme != old.theme:
            theme.apply(new.theme)
        if new.hotkey != old.hotkey and self._started:
            self.hotkey.set_hotkey(new.hotkey)
        if new.screenshot_hotkey != old.screenshot_hotkey and self._started:
            self.screenshot_hotkey.set_hotkey(new.screenshot_hotkey)
        api = ("api_enabled", "api_port", "api_key", "api_origins")
        if any(getattr(new, name) != getattr(old, name) for name in api):
            self._apply_api()
        if new.text_size != old.text_size and self._window is not None:
            self._window.set_text_size(new.text_size)
        if new.start_at_login != old.start_at_login and \
                not self._change_autostart(lambda: autostart.set_enabled(new.start_at_login)):
            self._save(dataclasses.replace(self.settings, start_at_login=old.start_at_login))  # as it still is
        if new.threads != old.threads and self.pack is not None:
            self.choose_pack(self.pack)  # the window re-translates once the model is reopened
        elif (new.beams, new.max_length, new.target_variant) != (old.beams, old.max_length, old.target_variant):
            self.options_changed.emit()

    def _change_autostart(self, change: Callable[[], None]) -> bool:
        try:
            change()
        except OSError as exc:  # a read-only home or a locked-down registry: say so, keep running
            log.warning("start at login: %s", exc)
            self.notice.emit(self.tr("Starting at login could not be changed: %1").replace("%1", str(exc)))
            return False
        return True

    def remember_window(self) -> None:
        """Keep where the main window is and how its panes are split, for the next start."""
        geometry, splitter = self.window.saved_layout()
        if (geometry, splitter) != (self.settings.window_geometry, self.settings.splitter_state):
            self._save(dataclasses.replace(self.settings, window_geometry=geometry, splitter_state=splitter))

    def _save(self, settings: Settings) -> None:
        self.settings = settings
        try:
            save_settings(settings)
        except OSError as exc:  # a read-only config folder must not take the app down
            log.warning("could not save settings: %s", exc)

    # --- history and documents ------------------------------------------------------------------
    @property
    def history(self) -> History:
        if self._history is None:
            self._history = History(on_moved_aside=self._history_moved_aside)
        return self._history

    def _history_moved_aside(self, kept: Path) -> None:
        self.notice.emit(self.tr("The history file was damaged. It was kept as %1 and a new history was started.")
                         .replace("%1", str(kept)))

    def _history_unavailable(self, exc: Exception) -> None:
        log.warning("history: %s", exc)
        if not self._history_failed:
            self._history_failed = True
            self.notice.emit(self.tr("History cannot be saved: %1").replace("%1", str(exc)))

    def record(self, source: str, target: str, draft: Draft | None = None, *,
               pack: str | None = None) -> Draft | None:
        """Save a finished translation when history is on; returns the draft to pass next time.

        The main window passes the draft it got last, so that a text being edited stays one entry;
        without one (the clipboard popup), each translation is an entry of its own. `pack`: the one
        that translated, when not the window's.
        """
        pack = pack or (self.pack.name if self.pack is not None else None)
        if not self.settings.history or pack is None:
            return None
        try:
            return self.history.record(source, target, pack, draft)
        except (sqlite3.Error, OSError) as exc:  # a locked, read-only or full disk: translating goes on
            self._history_unavailable(exc)
            return None

    def enqueue_document(self, path: Path, bilingual: bool = False) -> bool:
        if self.pack is None:
            return False
        # Documents run in the background at the engine's own default (None) unless the user chose.
        self.jobs.enqueue(path, self.pack.path, self.settings.threads or None, self.options(), bilingual)
        return True


def run(argv: list[str], *, opener: OpenTranslator = open_translator) -> int:
    """Run the desktop app; ``argv`` is the command line after the program name.

    ``--translate-clipboard`` shows only the popup for the clipboard's text and returns when it is
    closed, for binding to a desktop shortcut where global hotkeys cannot work; ``--translate-region``
    does the same for a region of the screen (and returns at once when it is cancelled); ``--tray``
    starts without the window (where there is a tray). When Fanyi already runs for this user, these
    hand over to it (its window comes forward, or its popup or region picker opens) and return 0 at once.
    """
    from fanyi.cli import APP_OPTIONS

    parser = argparse.ArgumentParser(prog="fanyi", description="Offline English-Chinese translator.")
    one_shot = parser.add_mutually_exclusive_group()
    for flag in ("--translate-clipboard", "--translate-region"):
        one_shot.add_argument(flag, action="store_true", help=APP_OPTIONS[flag])
    parser.add_argument("--tray", action="store_true", help=APP_OPTIONS["--tray"])
    args, qt_args = parser.parse_known_args(argv)
    qapp = QApplication.instance() or QApplication(["fanyi", *qt_args])
    stop_handling_ctrl_c = _quit_on_ctrl_c(qapp)
    qapp.setApplicationName("Fanyi")
    qapp.setDesktopFileName("fanyi")
    instance = SingleInstance()
    command = TRANSLATE_CLIPBOARD if args.translate_clipboard else TRANSLATE_REGION if args.translate_region else SHOW
    if not instance.claim():
        if instance.send(command):
            return 0
        print("fanyi: Fanyi is already running but does not answer; quit it (or end its process) and start "
              "Fanyi again.", file=sys.stderr)
        return 1
    try:
        return _run_first(qapp, instance, command if command != SHOW else None, args.tray, opener)
    finally:
        stop_handling_ctrl_c()
        instance.release()


def _run_first(qapp: QApplication, instance: SingleInstance, popup_only: str | None, in_tray: bool,
               opener: OpenTranslator) -> int:
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
            fanyi.region_picker.cancelled.connect(lambda: None if fanyi.started else qapp.quit())
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
