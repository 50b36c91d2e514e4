"""The installed packs, the one the window translates with, and keeping the worker's model in step.

Packs installed or removed by the model manager, or by `fanyi models` in a terminal, show at once:
the pack folders are watched, and looked at again once an install has settled.
"""

from __future__ import annotations

from PySide6.QtCore import QFileSystemWatcher, QObject, QTimer, Signal

from fanyi import defaults, langid, paths, routing
from fanyi.library import installed
from fanyi.library.installed import PackInfo
from fanyi.ui.controllers.settings import LiveSettings
from fanyi.ui.pack_ops import PackOperations
from fanyi.ui.worker import ModelInfo, TranslationService

PACKS_SETTLE_MS = 400  # an install renames folders in steps: look at the packs once it has settled


class PackController(QObject):
    changed = Signal()  # the list of installed packs

    def __init__(self, settings: LiveSettings, service: TranslationService, ops: PackOperations) -> None:
        super().__init__()
        self._settings = settings
        self.service = service
        self.installed: list[PackInfo] = []  # the packs that translate
        self.usable: list[PackInfo] = []  # and those that only summarize (BART): what a summary may use
        self.current: PackInfo | None = None  # the window's pack
        self._watcher = QFileSystemWatcher(self)
        self._settle = QTimer(self, singleShot=True, interval=PACKS_SETTLE_MS)
        self._settle.timeout.connect(self.refresh)
        self._watcher.directoryChanged.connect(lambda _path: self._settle.start())
        service.loaded.connect(self._on_model_loaded)
        ops.succeeded.connect(self._on_pack_installed)
        settings.threads.changed.connect(self._reopen)
        self.refresh()

    def refresh(self) -> None:
        # Broken packs are for the model manager to show and remove; nothing here may choose one.
        self.usable = [p for p in installed.list_packs() if p.usable]
        packs = [p for p in self.usable if p.translates]
        self._watch_pack_folders()
        if packs == self.installed and self.current is not None:
            return
        self.installed = packs
        self.service.drop_spare()  # its pack may be the one removed or updated
        if langid.needs_ngrams(routing.one_way_languages(packs)):
            langid.preload()  # several one-way packs from languages of one script (en, fr, de → zh)
        same = next((p for p in packs if self.current is not None and p.path == self.current.path), None)
        if same is None:
            self.current = None
            if chosen := self.default():
                self.choose(chosen)
        elif same != self.current:
            self.choose(same)  # updated in place: open the new version
        self.changed.emit()

    def default(self) -> PackInfo | None:
        """The user's choice, else the first English→Chinese pack, else any pack."""
        return routing.default_pack(self.installed, self._settings.default_pack.value)

    def named(self, name: str) -> PackInfo | None:
        return next((p for p in self.installed if p.name == name), None)

    def live_threads(self) -> int:
        """Threads for translate-as-you-type: by default all cores but one, so the window keeps one."""
        return self._settings.threads.value or defaults.threads(spare=1)

    def choose(self, pack: PackInfo) -> None:
        """Translate in the window with ``pack`` (the worker opens it)."""
        self.current = pack
        self.service.load(pack.path, self.live_threads())

    def set_default(self, name: str) -> None:
        """Remember the default pack and show it in the window."""
        self._settings.default_pack.set(name)
        pack = self.named(name)
        if pack is not None and pack != self.current:
            self.choose(pack)

    def _reopen(self) -> None:
        if self.current is not None:
            self.choose(self.current)  # the window translates again once the model is reopened

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

    def _on_model_loaded(self, model: ModelInfo) -> None:
        if model.many_to_many and langid.needs_ngrams(model.source_languages):
            langid.preload()  # detection never waits for it: see fanyi.langid

    def _on_pack_installed(self, info: PackInfo) -> None:
        first = not self.installed
        self.refresh()
        if first:
            self.set_default(info.name)
