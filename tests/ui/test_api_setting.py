""" "Let other apps on this computer use Fanyi": the setting starts and stops the local API, which
translates with the model the window's worker already loaded, and the server stops with the app."""

from __future__ import annotations

import os
import socket
import stat

import pytest
import requests
from libretranslatepy import LibreTranslateAPI
from PySide6.QtWidgets import QLineEdit
from ui_fakes import LOAD_TIMEOUT

from fanyi.engine.options import DecodeOptions
from fanyi.ui.settings import Settings, load_settings, save_settings
from fanyi.ui.settings_dialog import SettingsDialog


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def refused(url: str) -> bool:
    try:
        requests.get(url, timeout=10)
    except requests.ConnectionError:
        return True
    return False


@pytest.fixture
def counting(backend):
    """The backend's opener, counting the models it opens."""
    opened = []

    def opener(path, threads=None):
        opened.append(path)
        return backend.opener(path, threads)

    return opener, opened


def test_the_setting_starts_and_stops_the_server_over_the_loaded_model(qtbot, make_app, backend, counting):
    opener, opened = counting
    app = make_app(backend, opener=opener)
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    messages: list[str] = []
    app.notice.connect(messages.append)
    port = free_port()
    url = f"http://127.0.0.1:{port}"
    assert refused(url)

    app.settings.update(api_enabled=True, api_port=port)
    assert app.api.address == url and load_settings().api_enabled
    assert messages[-1] == f"Other apps on this computer can use Fanyi at {url}"
    text = "Good morning. The weather is fine today."
    # zh-Hant: the pack's Simplified in Taiwan's Traditional (OpenCC); cmn_Hant: the model's own
    for code, options in (
        ("zh", DecodeOptions(target="cmn_Hans")),
        ("cmn_Hant", DecodeOptions(target="cmn_Hant")),
        ("zh-Hant", DecodeOptions(target="cmn_Hans", convert="zh-TW")),
    ):
        answer = LibreTranslateAPI(url).translate(text, "en", code)
        assert answer == backend.translate(text, options)
    assert len(opened) == 1  # the worker's model answered: no second copy was loaded

    app.settings.update(api_enabled=False)
    assert app.api.address is None and refused(url)
    assert messages[-1] == "Other apps can no longer use Fanyi."


def test_a_key_and_a_new_port_restart_it(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    first, second = free_port(), free_port()
    app.settings.update(api_enabled=True, api_port=first)
    app.settings.update(api_port=second, api_key="sekret")
    assert refused(f"http://127.0.0.1:{first}")
    url = f"http://127.0.0.1:{second}/translate"
    assert requests.post(url, json={"q": "Hi.", "target": "zh"}, timeout=30).status_code == 403
    answer = requests.post(url, json={"q": "Hi.", "source": "en", "target": "zh", "api_key": "sekret"}, timeout=30)
    assert answer.json() == {"translatedText": "HI。"}


def test_a_port_in_use_is_said_and_nothing_runs(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    messages: list[str] = []
    app.notice.connect(messages.append)
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        app.settings.update(api_enabled=True, api_port=port)
    assert app.api.address is None
    assert messages == [f"Other apps cannot use Fanyi: cannot listen on 127.0.0.1:{port}: the port is in use"]


def test_the_server_stops_with_the_app(qtbot, make_app, fake_backend):
    port = free_port()
    app = make_app(fake_backend, settings=Settings(api_enabled=True, api_port=port))
    app.start()  # the normal start turns it on as the saved settings say
    assert app.api.address == f"http://127.0.0.1:{port}"
    app.shutdown()
    assert refused(f"http://127.0.0.1:{port}")


def test_the_dialog_shows_the_address_to_paste(qtbot):
    dialog = SettingsDialog(Settings(), tray_available=True)
    qtbot.addWidget(dialog)
    assert not dialog.api_enabled.isChecked() and not dialog.api_port.isEnabled()
    dialog.api_enabled.setChecked(True)
    dialog.api_port.setValue(5123)
    dialog.api_key.setText(" sekret ")
    assert dialog.api_address.text() == "http://127.0.0.1:5123" and dialog.api_address.isEnabled()
    assert dialog.api_deeplx.text() == "http://127.0.0.1:5123/translate"
    assert dialog.api_openai.text() == "http://127.0.0.1:5123/v1/chat/completions" and dialog.api_openai.isEnabled()
    assert (dialog.api_immersive.text(), dialog.api_kiss.text()) == (
        "http://127.0.0.1:5123/imme",
        "http://127.0.0.1:5123/kiss",
    )
    chosen = dialog.result_settings()
    assert (chosen.api_enabled, chosen.api_port, chosen.api_key) == (True, 5123, "sekret")
    assert dialog.api_key.echoMode() != QLineEdit.EchoMode.Normal  # not shown to whoever looks at the screen


@pytest.mark.skipif(os.name == "nt", reason="POSIX permissions")
def test_settings_holding_a_key_are_readable_by_their_owner_only(tmp_path):
    path = tmp_path / "settings.json"
    save_settings(Settings(api_key="sekret"), path)
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    save_settings(Settings(api_key=""), path)  # no secret: the usual permissions
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~_umask()


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def test_origins_in_the_settings_may_use_the_server(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    port = free_port()
    app.settings.update(api_enabled=True, api_port=port, api_origins=["http://localhost:3000"])
    url = f"http://127.0.0.1:{port}/translate"

    def from_page(origin: str) -> int:
        return requests.post(
            url, data={"q": "Hi.", "source": "en", "target": "zh"}, headers={"Origin": origin}, timeout=30
        ).status_code

    assert from_page("http://localhost:3000") == 200 and from_page("https://evil.example") == 403
    app.settings.update(api_origins=[])  # restarts with no page allowed
    assert from_page("http://localhost:3000") == 403
