"""``fanyi serve`` as a user runs it (a subprocess), and serving where Python has no ssl module."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
import time

import pytest
import requests
from api_helpers import EN, ZH
from libretranslatepy import LibreTranslateAPI

from fanyi.engine.options import DecodeOptions

STARTUP = 120  # seconds to print the address; the pack is opened first


class Serving:
    """A `fanyi serve …` subprocess; the address is read from its first line."""

    def __init__(self, *args: str, env_extra: dict | None = None, code: str | None = None) -> None:
        command = [sys.executable, "-c", code] if code else [sys.executable, "-m", "fanyi", "serve", *args]
        self.process = subprocess.Popen(
            command,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env=dict(os.environ, **(env_extra or {})),
        )
        first = self.process.stdout.readline()
        assert first.startswith("Fanyi serves http://"), first + self.process.stderr.read()
        self.address = first.split()[2]
        self.banner = first + "".join(self.process.stdout.readline() for _ in range(2))

    def stop(self) -> tuple[int, str]:
        """Ctrl+C; the exit code and the rest of stdout (stderr, uvicorn's log, is kept in ``log``)."""
        self.process.send_signal(signal.SIGINT)
        out, self.log = self.process.communicate(timeout=60)
        return self.process.returncode, out


@pytest.fixture
def installed(tmp_path, tiny_pack, tiny_pack_zh_en):
    """Both tiny packs installed as bundled packs of a fresh user."""
    bundled = tmp_path / "bundled"
    bundled.mkdir()
    for pack in (tiny_pack, tiny_pack_zh_en):
        (bundled / pack.name).symlink_to(pack, target_is_directory=True)
    return {
        "FANYI_DATA_DIR": str(tmp_path / "data"),
        "FANYI_CONFIG_DIR": str(tmp_path / "config"),
        "FANYI_MODELS_DIR": str(bundled),
    }


def test_serve_answers_every_installed_direction_and_stops_on_ctrl_c(installed, tiny_translator, tiny_translator_zh_en):
    serving = Serving("--port", "0", env_extra=installed)
    try:
        assert "tiny-en-zh (en→zh)" in serving.banner and "tiny-zh-en (zh→en)" in serving.banner
        assert serving.address.startswith("http://127.0.0.1:")
        client = LibreTranslateAPI(serving.address)
        assert client.translate(EN[1], "en", "zh") == tiny_translator.translate(EN[1], DecodeOptions(target="cmn_Hans"))
        assert client.translate(ZH[0], "auto", "en") == tiny_translator_zh_en.translate(ZH[0])
    finally:
        code, out = serving.stop()
    assert code == 0 and out.strip().endswith("stopped")


def test_the_official_openai_and_ollama_clients_against_fanyi_serve(installed, tiny_translator):
    """`fanyi serve` as a user runs it, asked by the official clients, streaming and not (Pot's prompt)."""
    import ollama
    import openai

    serving = Serving("--port", "0", env_extra=installed)
    try:
        messages = [{"role": "user", "content": f'Translate into Simplified Chinese:\n"""\n{EN[2]}\n"""'}]
        expected = tiny_translator.translate(EN[2], DecodeOptions(target="cmn_Hans"))
        client = openai.OpenAI(base_url=f"{serving.address}/v1", api_key="x", max_retries=0, timeout=60)
        assert client.chat.completions.create(model="fanyi", messages=messages).choices[0].message.content == expected
        chunks = client.chat.completions.create(model="fanyi", messages=messages, stream=True)
        assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == expected
        assert "tiny-en-zh" in [m.id for m in client.models.list()]
        local = ollama.Client(host=serving.address)
        assert "".join(p.message.content for p in local.chat("fanyi", messages, stream=True)) == expected
        assert local.chat("fanyi", messages).message.content == expected
    finally:
        code, _ = serving.stop()
    assert code == 0


def test_serve_with_a_key_and_one_model(tiny_pack, tiny_translator):
    serving = Serving("--port", "0", "--model", str(tiny_pack), "--api-key", "sekret", "--beams", "1")
    try:
        url = serving.address + "/translate"
        assert requests.post(url, json={"q": EN[0], "target": "zh"}, timeout=60).status_code == 403
        answer = requests.post(url, json={"q": EN[0], "target": "zh", "api_key": "sekret"}, timeout=60).json()
        assert answer["translatedText"] == tiny_translator.translate(EN[0], DecodeOptions(beams=1, target="cmn_Hans"))
        assert (
            requests.post(
                url, json={"q": ZH[0], "source": "zh", "target": "en", "api_key": "sekret"}, timeout=60
            ).status_code
            == 400
        )  # only the en→zh pack is served
    finally:
        serving.stop()


def test_a_port_in_use_is_one_line_and_exit_2(tiny_pack):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = subprocess.run(
            [sys.executable, "-m", "fanyi", "serve", "--model", str(tiny_pack), "--port", str(port)],
            capture_output=True,
            text=True,
            timeout=STARTUP,
        )
    assert result.returncode == 2
    assert result.stderr.strip() == f"fanyi: cannot listen on 127.0.0.1:{port}: the port is in use"


@pytest.mark.parametrize("port", ["99999", "-1"])
def test_a_port_out_of_range_is_one_line_and_exit_2(tiny_pack, port):
    result = subprocess.run(
        [sys.executable, "-m", "fanyi", "serve", "--model", str(tiny_pack), "--port", port],
        capture_output=True,
        text=True,
        timeout=STARTUP,
    )
    assert result.returncode == 2
    assert result.stderr.strip() == (
        f"fanyi: cannot listen on port {port}: a port is a number from 0 to 65535 (0: any free port)"
    )


def test_keys_never_appear_in_the_access_log(tiny_pack):
    serving = Serving("--port", "0", "--model", str(tiny_pack), "--api-key", "sekret-key")
    try:
        for query in ("api_key=sekret-key", "token=sekret-key", "auth_key=sekret-key&x=1"):
            answer = requests.post(
                f"{serving.address}/translate?{query}", json={"q": EN[0], "target": "zh"}, timeout=60
            )
            assert answer.status_code == 200
    finally:
        _, out = serving.stop()
    logged = serving.banner + out + serving.log  # uvicorn's access log is on stdout
    assert "sekret-key" not in logged
    assert "/translate?api_key=*** HTTP/1.1" in logged and "auth_key=***&x=1" in logged


def test_a_cors_origin_that_is_no_origin_is_one_line(tiny_pack):
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "fanyi",
            "serve",
            "--model",
            str(tiny_pack),
            "--port",
            "0",
            "--cors-origin",
            "localhost:3000/app",
        ],
        capture_output=True,
        text=True,
        timeout=STARTUP,
    )
    assert result.returncode == 2
    assert result.stderr.strip() == (
        "fanyi: 'localhost:3000/app' is not an origin (scheme://host[:port], e.g. http://localhost:3000)"
    )


def test_a_listed_cors_origin_is_let_in(tiny_pack):
    serving = Serving("--port", "0", "--model", str(tiny_pack), "--cors-origin", "http://localhost:3000")
    try:
        url = serving.address + "/translate"
        assert (
            requests.post(
                url, data={"q": EN[0], "target": "zh"}, headers={"Origin": "http://localhost:3000"}, timeout=60
            ).status_code
            == 200
        )
        assert (
            requests.post(
                url, data={"q": EN[0], "target": "zh"}, headers={"Origin": "http://localhost:3001"}, timeout=60
            ).status_code
            == 403
        )
    finally:
        serving.stop()


def test_sigterm_answers_what_runs_and_waits_503_and_exits_0(tiny_pack):
    serving = Serving("--port", "0", "--model", str(tiny_pack), "--beams", "4")
    answers: list[requests.Response] = []

    def ask(n: int) -> None:  # ~20,000 characters of different sentences: seconds of work each
        text = " ".join(f"Sentence {n} number {i} is about the weather today." for i in range(380))
        answers.append(
            requests.post(serving.address + "/translate", json={"q": text, "source": "en", "target": "zh"}, timeout=120)
        )

    clients = [threading.Thread(target=ask, args=(n,)) for n in range(3)]  # one translating, two in line
    for client in clients:
        client.start()
    time.sleep(1.5)
    serving.process.send_signal(signal.SIGTERM)
    out, log = serving.process.communicate(timeout=60)
    for client in clients:
        client.join(60)
    assert serving.process.returncode == 0 and out.strip().endswith("stopped")
    assert "Traceback" not in log and "CancelledError" not in log
    assert [a.status_code for a in answers] == [503] * 3
    assert all(a.json() == {"error": "Fanyi is stopping; try again once it runs again"} for a in answers)


def fresh_user(tmp_path) -> dict[str, str]:
    """A user with nothing installed, and no packs that came with Fanyi."""
    return {
        "FANYI_DATA_DIR": str(tmp_path / "data"),
        "FANYI_CONFIG_DIR": str(tmp_path / "config"),
        "FANYI_MODELS_DIR": str(tmp_path / "none"),
    }


def test_serve_with_only_a_dictionary_starts_and_says_no_pack_in_each_protocols_shape(tmp_path):
    """It refused to start; the dictionary and Chinese written anew (OpenCC) need no model."""
    from dictionary_data import write_csv

    env = fresh_user(tmp_path)
    imported = subprocess.run(
        [sys.executable, "-m", "fanyi", "models", "import", str(write_csv(tmp_path / "ecdict.csv"))],
        capture_output=True,
        text=True,
        env=dict(os.environ, **env),
        timeout=120,
    )
    assert imported.returncode == 0, imported.stderr
    serving = Serving("--port", "0", env_extra=env)
    try:
        assert "with no translation model (the dictionary ecdict only" in serving.banner, serving.banner
        url = serving.address
        said = "no translation model is installed"
        libre = requests.post(f"{url}/translate", json={"q": "Hello.", "source": "en", "target": "zh"}, timeout=30)
        assert libre.status_code == 503 and list(libre.json()) == ["error"] and said in libre.json()["error"]
        deepl = requests.post(
            f"{url}/v2/translate",
            json={"text": ["Hello."], "target_lang": "ZH"},
            timeout=30,
            headers={"Authorization": "DeepL-Auth-Key k"},
        )
        assert deepl.status_code == 503 and list(deepl.json()) == ["message"] and said in deepl.json()["message"]
        deeplx = requests.post(f"{url}/translate", json={"text": "Hello.", "target_lang": "ZH"}, timeout=30)
        assert deeplx.status_code == 503 and deeplx.json()["code"] == 503 and said in deeplx.json()["message"]
        assert "fanyi models install" in libre.json()["error"]
        # the protocols added since: MTranServer's batch, Google's v2, DeepL's web JSON-RPC
        batch = requests.post(
            f"{url}/translate/batch", json={"texts": ["Hello."], "from": "en", "to": "zh"}, timeout=30
        )
        assert batch.status_code == 503 and said in batch.json()["error"]
        google = requests.post(
            f"{url}/language/translate/v2", json={"q": ["Hello."], "source": "en", "target": "zh"}, timeout=30
        )
        assert google.status_code == 503 and said in google.json()["error"]["message"]
        rpc = {"texts": [{"text": "Hello."}], "lang": {"source_lang_user_selected": "EN", "target_lang": "ZH"}}
        web = requests.post(
            f"{url}/jsonrpc", json={"jsonrpc": "2.0", "method": "LMT_handle_texts", "id": 1, "params": rpc}, timeout=30
        )
        assert web.status_code == 503 and said in web.json()["error"]["message"]
        assert requests.get(f"{url}/languages", timeout=30).json() == []
        looked_up = requests.get(f"{url}/dictionary", params={"q": "apple"}, timeout=30)
        assert looked_up.status_code == 200 and looked_up.json()["entries"]
        rewritten = requests.post(f"{url}/translate", json={"q": "软件", "source": "zh", "target": "zh-TW"}, timeout=30)
        assert rewritten.status_code == 200 and rewritten.json()["translatedText"] == "軟體"
    finally:
        code, _out = serving.stop()
    assert code == 0


def test_serve_with_nothing_installed_is_one_line(tmp_path):
    env = fresh_user(tmp_path)
    done = subprocess.run(
        [sys.executable, "-m", "fanyi", "serve", "--port", "0"],
        capture_output=True,
        text=True,
        env=dict(os.environ, **env),
        timeout=120,
    )
    assert done.returncode == 2 and len(done.stderr.splitlines()) == 1 and "fanyi models install" in done.stderr
