"""`fanyi --self-test`: a headless end-to-end check of an installation (or a checkout).

It goes through the same path as the app: the main window (offscreen unless QT_QPA_PLATFORM says
otherwise), the icon and UI translation from the bundle, the default pack opened by the app's own
worker thread, and one sentence translated. A release pack (packaging/publish.py) also carries a
reference translation recorded when it was built, equal to PyTorch's; the self-test repeats it and
fails on any difference. Installers' CI runs it on the frozen bundle, where it proves that
onnxruntime's native libraries, Qt's plugins and the assets were all packed, and that the engine
translates there exactly as it did on the build machine.

It also converts a model as a user's download is converted: the tiny MarianMT checkpoint in
assets/selftest (packaging/selftest_model.py) is served by a Hub on 127.0.0.1 (fanyi.library.sources.localhub)
and goes through the app's own path — listed, downloaded, verified, converted by the bundled converter into a
temporary folder — and the pack it makes must translate. Nothing leaves this computer: the Hub is on the
loopback address, asked without a proxy and without a token.

Settings and history go to a temporary folder, so a self-test never reads or writes the user's own; the packs
the user installed are read where they are (never written), so a self-test translates with the pack the app
would use and says whether it came with Fanyi ("bundled"), from FANYI_MODELS_DIR or was installed.

Qt, the app and ONNX Runtime are imported inside the checks, after the report's first line and within its
error handling: in a bundle, a library that was not packed is a failed check with its reason.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import time
import traceback
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

from fanyi import __version__, paths

if TYPE_CHECKING:
    from fanyi.engine import DecodeOptions
    from fanyi.library.installed import PackInfo
    from fanyi.ui.app import FanyiApp
    from fanyi.ui.main_window import MainWindow
    from fanyi.ui.worker import TranslationService

SENTENCE = "Hello, how are you today?"
TIMEOUT_S = 120.0
SELFTEST_MODEL = ("selftest", "tiny-marian")  # under the assets folder
SELFTEST_REPO = "fanyi/selftest-tiny-marian"  # its name on the Hub the self-test serves
Say = Callable[[str, str], None]  # (check, detail): one report line


class SelfTestError(Exception):
    pass


def seconds_since_process_start() -> float | None:
    """Linux only: the kernel knows when the process began, so this includes the bootloader and imports."""
    try:
        stat = Path("/proc/self/stat").read_text()
        start_ticks = int(stat.rsplit(")", 1)[1].split()[19])  # field 22; the name in () may hold spaces
        uptime = float(Path("/proc/uptime").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None
    return uptime - start_ticks / os.sysconf("SC_CLK_TCK")


@contextlib.contextmanager
def _temporary_user_dirs() -> Iterator[None]:
    names = ("FANYI_CONFIG_DIR", "FANYI_DATA_DIR", "FANYI_PACKS_DIR")
    saved = {name: os.environ.get(name) for name in names}
    installed = str(paths.user_packs_dir())  # before the data folder moves: the user's packs stay found
    with tempfile.TemporaryDirectory(prefix="fanyi-self-test-") as tmp:
        for name in names[:2]:
            os.environ[name] = str(Path(tmp) / name.lower())
        os.environ["FANYI_PACKS_DIR"] = installed
        try:
            yield
        finally:
            for name, value in saved.items():
                if value is None:
                    os.environ.pop(name, None)
                else:
                    os.environ[name] = value


def _wait(done: Callable[[], bool], what: str) -> None:
    from PySide6.QtCore import QCoreApplication

    deadline = time.monotonic() + TIMEOUT_S
    while not done():
        if time.monotonic() > deadline:
            raise SelfTestError(f"timed out after {TIMEOUT_S:.0f} s waiting for {what}")
        QCoreApplication.processEvents()
        time.sleep(0.005)


def _check_assets(fanyi: FanyiApp, say: Say) -> None:
    from PySide6.QtCore import QTranslator

    from fanyi.ui import i18n

    # A null pixmap from the SVG means Qt's svg imageformat/iconengine plugins were not bundled.
    if fanyi.icon.pixmap(64, 64).isNull():
        raise SelfTestError("the app icon (assets/icons/fanyi.svg) does not render: Qt's SVG plugins are missing")
    say("icon", "ok, SVG rendered")
    if not QTranslator().load("fanyi_zh_CN", str(i18n.i18n_dir())):
        raise SelfTestError(f"the Chinese UI translation is missing from {i18n.i18n_dir()}")
    say("UI translation", "ok, fanyi_zh_CN.qm")
    # Qt's own dialogs (file dialogs, message-box buttons) speak Chinese only with Qt's translation
    if not QTranslator().load("qtbase_zh_CN", i18n.qt_translations_dir()):
        raise SelfTestError(f"Qt's Chinese translation (qtbase_zh_CN.qm) is missing from {i18n.qt_translations_dir()}")
    say("Qt translation", "ok, qtbase_zh_CN.qm")


@contextlib.contextmanager
def _loopback_only() -> Iterator[None]:
    """The self-test's Hub is asked directly (no proxy a user set), and asked at all (whatever HF_HUB_OFFLINE says)."""
    changes = {"NO_PROXY": "127.0.0.1", "no_proxy": "127.0.0.1", "HF_HUB_OFFLINE": None}
    saved = {name: os.environ.get(name) for name in changes}
    for name, value in changes.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _check_conversion(say: Say) -> None:
    """A model from a Hub becomes a pack that translates, through the app's download and the bundled converter."""
    from fanyi.engine import Translator
    from fanyi.export.errors import ExportError
    from fanyi.library.errors import LibraryError
    from fanyi.library.from_source import Recipe, make_pack
    from fanyi.library.sources.hub import HubSource
    from fanyi.library.sources.localhub import LocalHub
    from fanyi.library.sources.order import Origin

    folder = paths.assets_dir().joinpath(*SELFTEST_MODEL)
    if not (folder / "config.json").is_file():
        raise SelfTestError(f"{folder} is missing: the model the self-test converts was not bundled")
    started = time.monotonic()
    with _loopback_only(), LocalHub() as hub, tempfile.TemporaryDirectory(prefix="fanyi-self-test-") as packs:
        hub.add(SELFTEST_REPO, folder)
        origin = Origin(HubSource(hub.endpoint, "url"), SELFTEST_REPO, "main")
        try:
            pack = make_pack(Recipe(SELFTEST_REPO.split("/")[1], [origin]), packs_dir=Path(packs))
        except (LibraryError, ExportError) as exc:  # the sentence says what failed
            raise SelfTestError(f"converting a model from a Hub failed: {exc}") from None
        text = Translator.open(pack.path, threads=1).translate(SENTENCE)
    if not text.strip():
        raise SelfTestError(f"the pack converted from {SELFTEST_REPO} translates {SENTENCE!r} to nothing")
    say(
        "convert",
        f"ok, {SELFTEST_REPO} from a Hub on 127.0.0.1 → {pack.quantization} pack "
        f"in {time.monotonic() - started:.1f} s, which translates",
    )


def _show_window(window: MainWindow, say: Say, t0: float) -> None:
    window.show()
    _wait(lambda: window.windowHandle() is not None and window.windowHandle().isExposed(), "the main window")
    since_start = seconds_since_process_start()
    if since_start is not None:
        say("window", f"ok, visible {since_start:.2f} s after the process started")
    else:
        say("window", f"ok, visible {time.monotonic() - t0:.2f} s after the self-test started")


def _request(service: TranslationService, text: str, options: DecodeOptions | None) -> str:
    """One translation through the app's worker, as the window asks for it."""
    outcome: dict[str, str] = {}
    req_id = -1

    def finished(rid: int, result: str, _stats: object) -> None:
        if rid == req_id:
            outcome["text"] = result

    def failed(rid: int, message: str) -> None:
        if rid == req_id:
            outcome["failed"] = message

    service.finished.connect(finished)
    service.failed.connect(failed)
    try:
        req_id = service.request(text, options)
        _wait(lambda: bool(outcome), "the translation")
    finally:
        service.finished.disconnect(finished)
        service.failed.disconnect(failed)
    if "failed" in outcome:
        raise SelfTestError(f"translating {text!r} failed: {outcome['failed']}")
    return outcome["text"]


def _translate(fanyi: FanyiApp, pack: PackInfo, say: Say) -> None:
    service = fanyi.service
    failure: list[str] = []
    service.load_failed.connect(failure.append)
    t_load = time.monotonic()
    _wait(lambda: service.model is not None or bool(failure), "the model to load")
    if failure:
        raise SelfTestError(f"the model pack {pack.path} did not load: {failure[0]}")
    ready = time.monotonic() - t_load
    say("model", f"ok, {pack.name} ({pack.quantization}, {pack.origin}), ready {ready:.2f} s after the window")

    t_run = time.monotonic()
    text = _request(service, SENTENCE, fanyi.direction.options()).strip()
    if not text:
        raise SelfTestError(f"translating {SENTENCE!r} gave an empty result")
    shown = text if len(text) <= 40 else text[:40] + "…"
    say("translation", f"ok, {SENTENCE!r} → {shown!r} in {time.monotonic() - t_run:.2f} s")


def _int8_weights() -> str:
    """The int8 weight path this machine runs (engine/int8_weights.py)."""
    from fanyi.engine import needs_reduced_range

    return "reduced" if needs_reduced_range() else "full"


def _check_reference(fanyi: FanyiApp, pack: PackInfo, say: Say) -> None:
    """A release pack records one translation made when it was built; this installation must repeat it."""
    from fanyi.engine import DecodeOptions, ModelPack, PackError

    try:
        reference = ModelPack.open(pack.path, verify=False).reference
    except PackError as exc:
        raise SelfTestError(str(exc)) from None
    if reference is None:
        return  # packs exported locally carry none
    got = _request(fanyi.service, reference.sentence, DecodeOptions(source=reference.source, target=reference.target))
    path = _int8_weights() if pack.quantization == "int8" else None
    if got != reference.output:
        detail = ""
        if path is not None:
            built = ", ".join(reference.int8_weights) or "unknown"
            detail = (
                f" This machine runs the {path} int8 weights; the recorded translation was made with: "
                f"{built}. On x86 CPUs without VNNI the reduced-range int8 fallback "
                "(fanyi/engine/int8_weights.py) may explain a difference."
            )
        raise SelfTestError(
            f"the reference translation differs from the one recorded when the pack was built: "
            f"{reference.sentence!r} → {got!r} here, {reference.output!r} when built.{detail}"
        )
    same = "= PyTorch's" if reference.output == reference.pytorch else f"PyTorch's was {reference.pytorch!r}"
    weights = f"; {path} int8 weights" if path else ""
    say("reference", f"ok, matches the translation recorded when the pack was built ({same}){weights}")


def _run_checks(say: Say) -> None:
    t0 = time.monotonic()
    from PySide6.QtWidgets import QApplication

    from fanyi.library import installed
    from fanyi.ui.app import FanyiApp
    from fanyi.ui.settings import load_settings

    qapp = QApplication.instance() or QApplication(["fanyi"])
    assert isinstance(qapp, QApplication)
    qapp.setQuitOnLastWindowClosed(False)
    fanyi = FanyiApp(load_settings())
    window = None
    try:
        _check_assets(fanyi, say)
        window = fanyi.window
        _show_window(window, say, t0)
        _check_conversion(say)
        pack = fanyi.packs.current
        if pack is None:
            packs = installed.list_packs()
            if broken := next((p for p in packs if not p.usable), None):  # found, but refused at listing
                raise SelfTestError(f"the model pack {broken.path} did not load: {broken.problem}")
            looked = ", ".join(str(folder) for folder in installed.pack_folders())
            raise SelfTestError(f"{installed.no_model_message(packs)} (looked in {looked})")
        _translate(fanyi, pack, say)
        _check_reference(fanyi, pack, say)
        import onnxruntime

        say("onnxruntime", f"ok, {onnxruntime.__version__} ({', '.join(onnxruntime.get_available_providers())})")
    finally:
        if window is not None:
            window.close()
        fanyi.shutdown()
        QApplication.processEvents()


def _utf8_on_windows(stream: TextIO) -> None:
    """Windows gives a pipe (CI's log, `| tee`) the ANSI code page, which has neither "→" nor Chinese."""
    if sys.platform == "win32" and hasattr(stream, "reconfigure"):
        stream.reconfigure(encoding="utf-8", errors="backslashreplace")


def run_self_test(out: TextIO | None = None) -> int:
    """Run every check, print one line per check; 0 when all pass, 1 with the reason when one fails."""
    out = out or sys.stdout or open(os.devnull, "w")  # noqa: SIM115 - a windowed Windows build has no stdout
    err = sys.stderr or out
    for stream in (out, err):
        _utf8_on_windows(stream)
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    where = f"bundle {paths.bundle_root()}" if paths.is_frozen() else f"source {paths.bundle_root()}"
    print(f"fanyi {__version__} self-test ({where}, Qt platform {os.environ['QT_QPA_PLATFORM']})", file=out)

    def say(check: str, detail: str) -> None:
        print(f"  {check:15} {detail}", file=out, flush=True)

    try:
        with _temporary_user_dirs():
            _run_checks(say)
    except SelfTestError as exc:
        print(f"fanyi self-test FAILED: {exc}", file=err, flush=True)
        return 1
    except Exception as exc:  # noqa: BLE001 - in a bundle, typically a module or library that was not packed
        traceback.print_exc(file=err)
        print(f"fanyi self-test FAILED: {type(exc).__name__}: {exc}", file=err, flush=True)
        return 1
    print("self-test passed", file=out, flush=True)
    return 0
