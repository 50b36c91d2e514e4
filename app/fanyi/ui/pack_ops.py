"""Getting model packs from the UI: make a pack of the catalog from the model's own files (download,
convert, install), refresh the catalog, import a folder or .zip; and dictionaries (download, convert).

Each takes from a second (a catalog, checksums of a pack folder) to minutes (a download and a conversion),
so it runs in a thread and reports through signals; the model manager and the no-model page share one
instance and show it with ``PackOpProgress``: bytes, speed and time left while downloading, the layer while
converting, and Cancel. The download sources and the Hugging Face token are the settings' (Settings →
Downloads). The work itself is fanyi.library.install / fanyi.library.installed: no Qt there.
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Callable
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QDir, QLocale, QObject, QThread, Signal
from PySide6.QtWidgets import QFileDialog, QHBoxLayout, QLabel, QProgressBar, QPushButton, QWidget

from fanyi.cancel import Cancelled, CancelToken
from fanyi.library import catalog, dictionaries, install
from fanyi.library.catalog import Catalog, CatalogEntry, DictionaryEntry
from fanyi.library.download import TransferProgress
from fanyi.library.errors import AccessDenied, DownloadError, LibraryError
from fanyi.library.from_source import NotAModel, import_folder_or_pack
from fanyi.library.installed import PackInfo
from fanyi.library.sources.order import Preference
from fanyi.sizes import GIB
from fanyi.ui.i18n import Retranslating

log = logging.getLogger(__name__)

# A progress bar holds an int: sizes go to it in KiB so packs of several GB still fit.
BAR_UNIT = 1024


# Why an operation failed, said in the UI language of the moment it is called (a page redraws it when the
# language changes); None when the user cancelled.
Failure = Callable[[], str] | None


class _GitHubUnreachable(Exception):
    """A dictionary's download found GitHub (and its mirror) out of reach: said in the UI language of the moment."""


class _Call(QThread):
    def __init__(
        self, fn: Callable[[], object], done: Callable[[object], None], fail: Callable[[Failure], None]
    ) -> None:
        super().__init__()
        self._fn, self._done, self._fail = fn, done, fail

    def run(self) -> None:
        try:
            result = self._fn()
        except Cancelled:
            self._fail(None)
        except AccessDenied as exc:
            self._fail(functools.partial(gated_text, exc))
        except NotAModel as exc:
            self._fail(functools.partial(not_a_model_text, exc.folder))
        except _GitHubUnreachable:
            self._fail(github_unreachable_text)
        except DownloadError as exc:
            message = str(exc)
            self._fail(unreachable_text if exc.unreachable else lambda: message)
        except Exception as exc:  # noqa: BLE001 - LibraryError/PackError carry a sentence; a bug shows, not crashes
            log.warning("pack operation failed: %s", exc)
            message = str(exc) or type(exc).__name__
            self._fail(lambda: message)
        else:
            self._done(result)


def unreachable_text() -> str:
    return QCoreApplication.translate(
        "pack_ops",
        "The download servers cannot be reached. Check the internet connection or the proxy. Where "
        "huggingface.co is blocked or slow (as in mainland China), choose hf-mirror.com or ModelScope in "
        "Settings → Downloads. Or import a pack.",
    )


def github_unreachable_text() -> str:
    return QCoreApplication.translate(
        "pack_ops",
        "GitHub cannot be reached. Check the internet connection or the proxy. Where GitHub is blocked or slow "
        "(as in mainland China), enter a GitHub mirror in Settings → Downloads, or import ECDICT's file with "
        "Import dictionary….",
    )


def not_a_model_text(folder: Path) -> str:
    return QCoreApplication.translate(
        "pack_ops",
        "%1 is neither a model pack (it has no manifest.json) nor a Hugging Face model folder (it has no "
        "config.json): choose the folder that holds one of them.",
    ).replace("%1", str(folder))


def gated_text(exc: AccessDenied) -> str:
    """A gated model (TranslateGemma on the Hub): what to do, in the UI language."""
    if exc.token_sent:
        text = QCoreApplication.translate(
            "pack_ops",
            "Hugging Face refuses the access token for this model. Open %1, log in with the token's account and "
            "accept the model's licence, then try again.",
        )
    else:
        text = QCoreApplication.translate(
            "pack_ops",
            "This model is gated on Hugging Face. Open %1, log in and accept its licence, then enter an access "
            "token in Settings → Downloads (huggingface.co → Settings → Access Tokens) and try again.",
        )
    return text.replace("%1", exc.page)


class PackOperations(QObject):
    """One pack operation at a time; `settings` is asked for the mirror and catalog address when one starts."""

    started = Signal(str)  # what is being done, for the user
    progress = Signal(int, int)  # done, total (0 total: no measure, show a busy bar)
    transfer = Signal(object)  # fanyi.library.download.TransferProgress of a download or install
    succeeded = Signal(object)  # installed.PackInfo of an installed pack
    dictionary_installed = Signal(object)  # library.dictionaries.DictionaryInfo of an installed dictionary
    catalog_changed = Signal(object)  # fanyi.library.catalog.Catalog, after a refresh
    failed = Signal(str)  # "" when cancelled by the user
    finished = Signal()
    _failure = Signal(object)  # Failure, from the operation's thread

    def __init__(self, settings: Callable[[], object], parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._settings = settings
        self._call: _Call | None = None
        self._token: CancelToken | None = None
        self.can_cancel = False
        self.catalog: Catalog | None = catalog.load()
        self.catalog_changed.connect(self._remember_catalog)  # queued here when a worker thread emits it
        self.failure: Failure = None  # why the last operation failed, to say again in another UI language
        self._failure.connect(self._on_failure)

    @property
    def busy(self) -> bool:
        return self._call is not None

    def import_pack(self, source: Path) -> None:
        """A pack folder or .zip, installed as it is, or a Hugging Face model folder, converted (minutes for a large
        model, so it can be cancelled; nothing is left either way)."""
        self._start(
            self.tr("Importing %1…").replace("%1", Path(source).name),
            lambda token: import_folder_or_pack(Path(source), progress=self.transfer.emit, cancel=token),
            self.succeeded.emit,
            cancellable=True,
        )

    def _source(self) -> Preference:
        """Where to download from, as Settings → Downloads says (read when an operation starts)."""
        settings = self._settings()
        return Preference(
            getattr(settings, "download_source", "auto"),
            getattr(settings, "download_source_url", ""),
            getattr(settings, "hf_token", ""),
        )

    def install(self, entry: CatalogEntry) -> None:
        source = self._source()
        self._start(
            self.tr("Getting %1…").replace("%1", entry.id),
            lambda token: install.install(entry, source=source, progress=self.transfer.emit, cancel=token),
            self.succeeded.emit,
            cancellable=True,
        )

    def install_dictionary(self, entry: DictionaryEntry) -> None:
        """A dictionary of the catalog, from GitHub through the settings' GitHub mirror, converted here."""
        mirror = getattr(self._settings(), "github_mirror", "")

        def run(token: CancelToken) -> object:
            try:
                return dictionaries.install(entry, mirror=mirror, progress=self.transfer.emit, cancel=token)
            except DownloadError as exc:
                if exc.unreachable:  # what to do is GitHub's, not the model sources'
                    raise _GitHubUnreachable from None
                raise

        self._start(
            self.tr("Getting %1…").replace("%1", entry.id), run, self.dictionary_installed.emit, cancellable=True
        )

    def import_dictionary(self, source: Path) -> None:
        """A file of ECDICT's data the user has (ecdict.csv, stardict.db, a .zip of one), converted as it is."""
        self._start(
            self.tr("Importing %1…").replace("%1", Path(source).name),
            lambda token: dictionaries.import_file(Path(source), progress=self.transfer.emit, cancel=token),
            self.dictionary_installed.emit,
            cancellable=True,
        )

    def install_default(self) -> None:
        """The no-model page's button: the catalog's default pack, reading the catalog first if there is none."""
        if self.catalog is not None and (entry := self.catalog.default_entry()) is not None:
            self.install(entry)
            return
        user_url = getattr(self._settings(), "catalog_url", "") or None
        source = self._source()

        def run(token: CancelToken) -> PackInfo:
            cat = install.load_catalog(refresh=True, user_url=user_url)
            self.catalog_changed.emit(cat)
            entry = cat.default_entry()
            if entry is None:
                raise LibraryError("the list of packs is empty")
            return install.install(entry, source=source, progress=self.transfer.emit, cancel=token)

        self._start(self.tr("Getting the English→Chinese model…"), run, self.succeeded.emit, cancellable=True)

    def refresh_catalog(self) -> None:
        user_url = getattr(self._settings(), "catalog_url", "") or None
        self._start(
            self.tr("Reading the list of models…"),
            lambda _token: install.load_catalog(refresh=True, user_url=user_url),
            self.catalog_changed.emit,
            cancellable=False,
        )

    def refreshable(self) -> bool:
        """Whether Refresh can bring a newer list of models (fanyi.library.install.refreshable)."""
        return install.refreshable(self.catalog, getattr(self._settings(), "catalog_url", "") or None)

    def cancel(self) -> None:
        if self._token is not None:
            self._token.cancel()

    def wait(self) -> None:
        """Block until a running operation ends (at shutdown)."""
        self.cancel()
        if self._call is not None:
            self._call.wait()

    def _start(
        self, description: str, fn: Callable[[CancelToken], object], done: Callable[[object], None], cancellable: bool
    ) -> None:
        if self.busy:
            raise RuntimeError("a pack operation is already running")
        token = CancelToken()
        self._token = token
        self.can_cancel = cancellable
        # The thread reports through this object's signals, which Qt queues into the GUI thread.
        self._call = _Call(lambda: fn(token), done, self._failure.emit)
        self._call.finished.connect(self._on_thread_finished)
        self.failure = None
        self.started.emit(description)
        self.progress.emit(0, 0)
        self._call.start()

    def _remember_catalog(self, cat: Catalog) -> None:
        self.catalog = cat

    def _on_failure(self, failure: Failure) -> None:
        self.failure = failure
        self.failed.emit(failure() if failure is not None else "")

    def _on_thread_finished(self) -> None:
        self._call = None
        self._token = None
        self.can_cancel = False
        self.finished.emit()


def size_text(size: int, decimals: int = 0) -> str:
    """Sizes as Windows and most file managers print them: 1024-based, "78 MB"."""
    return QLocale().formattedDataSize(size, decimals, QLocale.DataSizeFormat.DataSizeTraditionalFormat)


def listed_size_text(size: int) -> str:
    """A pack's or a download's size in a list, as fanyi.sizes.listed_size writes it, in the UI's locale: whole
    megabytes, gigabytes to one decimal."""
    return size_text(size, 1 if size >= GIB else 0)


def transfer_text(p: TransferProgress) -> str:
    """ "12.3 MB of 78.1 MB from hf-mirror.com · 2.1 MB/s · about 25 s left", "Converting: layer 3 of 12" in the UI
    language."""
    if p.phase == "connecting":
        return QCoreApplication.translate("pack_ops", "Asking %1 for the model's files…").replace("%1", p.detail)
    if p.phase == "converting":
        if not p.total:
            return QCoreApplication.translate("pack_ops", "Converting…")
        return (
            QCoreApplication.translate("pack_ops", "Converting: layer %1 of %2")
            .replace("%1", str(p.done))
            .replace("%2", str(p.total))
        )
    if p.phase == "indexing":
        percent = p.done * 100 // p.total if p.total else 0
        return QCoreApplication.translate("pack_ops", "Converting the dictionary: %1%").replace("%1", str(percent))
    if p.phase != "downloading":
        return QCoreApplication.translate("pack_ops", "Checking and installing…")
    parts = [
        QCoreApplication.translate("pack_ops", "%1 of %2")
        .replace("%1", size_text(p.done, 1))
        .replace("%2", size_text(p.total, 1))
    ]
    if p.source:  # which download source is used
        parts[0] = QCoreApplication.translate("pack_ops", "%1 from %2").replace("%1", parts[0]).replace("%2", p.source)
    if p.bytes_per_second > 0:
        speed = size_text(int(p.bytes_per_second), 1)
        parts.append(QCoreApplication.translate("pack_ops", "%1/s").replace("%1", speed))
    if p.seconds_left is not None:
        parts.append(duration_text(p.seconds_left))
    return " · ".join(parts)


def duration_text(seconds: float) -> str:
    if seconds < 60:
        return QCoreApplication.translate("pack_ops", "about %1 s left").replace("%1", str(max(1, round(seconds))))
    if seconds < 3600:
        return QCoreApplication.translate("pack_ops", "about %1 min left").replace("%1", str(round(seconds / 60)))
    return QCoreApplication.translate("pack_ops", "about %1 h left").replace("%1", f"{seconds / 3600:.1f}")


class PackOpProgress(Retranslating, QWidget):
    """A label, a progress bar and Cancel for the running pack operation; hidden when idle."""

    def __init__(self, ops: PackOperations, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self._ops = ops
        self.label = QLabel()
        self.label.setWordWrap(True)
        self.detail = QLabel()
        self.bar = QProgressBar()
        self.bar.setTextVisible(False)
        self.cancel_button = QPushButton(clicked=self._cancel)
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(self.label, 1)
        layout.addWidget(self.bar, 1)
        layout.addWidget(self.detail)
        layout.addWidget(self.cancel_button)
        ops.started.connect(self._on_started)
        ops.progress.connect(self._on_progress)
        ops.transfer.connect(self._on_transfer)
        ops.finished.connect(self.hide)
        self.setVisible(ops.busy)
        self.retranslate()

    def _on_started(self, description: str) -> None:
        self.label.setText(description)
        self.detail.clear()
        self.cancel_button.setEnabled(True)
        self.cancel_button.setVisible(self._ops.can_cancel)
        self.show()

    def _cancel(self) -> None:
        # a stalled server is only noticed at the next chunk or the read timeout: say it is under way
        self._ops.cancel()
        self.cancel_button.setEnabled(False)
        self.label.setText(self.tr("Cancelling…"))

    def _on_progress(self, done: int, total: int) -> None:
        self.bar.setRange(0, max(total, 0) // BAR_UNIT)
        self.bar.setValue(done // BAR_UNIT)

    def _on_transfer(self, p: TransferProgress) -> None:
        if p.phase == "converting":  # layers, not bytes
            self.bar.setRange(0, p.total)
            self.bar.setValue(p.done)
        elif p.phase == "indexing":  # a dictionary's file read: in thousandths, whatever its size
            self.bar.setRange(0, 1000 if p.total else 0)
            self.bar.setValue(p.done * 1000 // p.total if p.total else 0)
        else:
            self._on_progress(p.done, p.total)
        self.detail.setText(transfer_text(p))

    def retranslate(self) -> None:
        self.cancel_button.setText(self.tr("Cancel"))


def ask_and_import(ops: PackOperations, parent: QWidget, archive: bool) -> None:
    """Let the user pick a pack folder (or a .zip) and import it; the dialog opens in the home folder."""
    home = QDir.homePath()
    if archive:
        title = QCoreApplication.translate("pack_ops", "Import a model pack (.zip)")
        path, _ = QFileDialog.getOpenFileName(
            parent, title, home, QCoreApplication.translate("pack_ops", "Model pack (*.zip)")
        )
    else:
        title = QCoreApplication.translate("pack_ops", "Import a model pack folder, or a model's folder to convert")
        path = QFileDialog.getExistingDirectory(parent, title, home)
    if path:
        ops.import_pack(Path(path))
