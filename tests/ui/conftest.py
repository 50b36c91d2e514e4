"""UI test fixtures: offscreen Qt, fresh user folders, the tiny pack installed, and a switchable engine.

``backend`` runs a test twice: with FakeTranslator (a realistic cost per token) and with the real
Translator on the tiny random-weight pack from tests/conftest.py.
"""

from __future__ import annotations

import os

os.environ["QT_QPA_PLATFORM"] = "offscreen"  # before anything imports Qt
os.environ.pop("DISPLAY", None)  # no global hotkeys, even when the suite runs under a desktop
os.environ.pop("WAYLAND_DISPLAY", None)

from dataclasses import dataclass
from pathlib import Path

import pytest
from ui_fakes import LOAD_TIMEOUT, FakeTranslator

from fanyi.engine.options import DecodeOptions
from fanyi.ui.worker import open_translator


@dataclass
class Backend:
    kind: str
    opener: object
    reference: object  # a Translator (or fake) in the test thread, for translate_batch comparisons

    def translate(self, text: str, options: DecodeOptions | None = None) -> str:
        return self.reference.translate_batch([text], options)[0]


ASSETS = Path(__file__).resolve().parents[2] / "assets"


@pytest.fixture
def ui_dirs(user_dirs, monkeypatch) -> Path:
    """Fresh user folders and no packs, but the real assets (icons, translations)."""
    monkeypatch.setattr("fanyi.paths.assets_dir", lambda: ASSETS)
    return user_dirs


@pytest.fixture
def pack_dir(ui_dirs, tiny_pack) -> Path:
    """The tiny en→zh pack, visible to fanyi.library.installed as a bundled pack."""
    link = ui_dirs / "bundled" / tiny_pack.name
    link.symlink_to(tiny_pack, target_is_directory=True)
    return link


@pytest.fixture(params=["fake", "real"])
def backend(request, pack_dir) -> Backend:
    if request.param == "fake":
        return Backend("fake", FakeTranslator.opener(), FakeTranslator(pack_dir, slow=False))
    tiny_translator = request.getfixturevalue("tiny_translator")
    return Backend("real", open_translator, tiny_translator)


@pytest.fixture
def fake_backend(pack_dir) -> Backend:
    return Backend("fake", FakeTranslator.opener(), FakeTranslator(pack_dir, slow=False))


@pytest.fixture
def make_app(qtbot):
    """Build FanyiApp instances (no exec loop, no hotkey) and shut them down after the test."""
    from fanyi.ui.app import FanyiApp
    from fanyi.ui.settings import load_settings

    apps = []

    def make(backend: Backend | None = None, settings=None, **kwargs):
        if backend is not None:
            kwargs.setdefault("opener", backend.opener)
        app = FanyiApp(settings or load_settings(), **kwargs)
        apps.append(app)
        return app

    yield make
    for app in apps:
        for widget in (app._window, app._popup):
            if widget is not None:
                widget.hide()
                widget.deleteLater()
        app.shutdown()


@pytest.fixture
def window(qtbot, make_app, backend):
    """The main window with the model loaded."""
    app = make_app(backend)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    return win


@pytest.fixture(autouse=True)
def english_ui(qapp):
    """Tests read English strings; one that switches language (or runs the app) must not leak it."""
    from fanyi.ui import i18n, theme

    yield
    i18n.install("en")
    theme.apply("system")
