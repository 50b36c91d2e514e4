"""A client that goes away cancels its translation, running or still waiting, and the model moves on."""

from __future__ import annotations

import json
import socket
import threading
from urllib.parse import urlsplit

import pytest
import requests
from api_helpers import SlowTranslator, wait_until

DEADLINE = 30.0


def send_and_leave(address: str, path: str, body: dict, *, read_first: bool = False, until=None) -> None:
    """POST over a raw socket, wait for `until()` (or the first bytes of the answer), then hang up."""
    url = urlsplit(address)
    payload = json.dumps(body).encode()
    with socket.create_connection((url.hostname, url.port), timeout=DEADLINE) as sock:
        sock.sendall(
            f"POST {path} HTTP/1.1\r\nHost: {url.netloc}\r\nContent-Type: application/json\r\n"
            f"Content-Length: {len(payload)}\r\n\r\n".encode()
            + payload
        )
        if read_first:
            assert sock.recv(4096).startswith(b"HTTP/1.1 200")
        if until is not None:
            wait_until(until, "the request to be in the server")


@pytest.fixture
def slow(serve, tiny_pack):
    translators: list[SlowTranslator] = []

    def opener(path):
        translators.append(SlowTranslator(path))
        return translators[-1]

    server = serve([tiny_pack], opener=opener)
    requests.get(server.address + "/", timeout=DEADLINE)
    server.core.models.gate(server.core.route("en", "zh", "").direction.pack)  # opened now
    return server, translators[0]


@pytest.mark.parametrize(
    "path, body",
    [
        ("/translate", {"q": "Good morning.", "source": "en", "target": "zh"}),
        ("/translate", {"text": "Good morning.", "target_lang": "ZH"}),
        ("/v2/translate", {"text": ["Good morning."], "target_lang": "ZH"}),
    ],
)
def test_hanging_up_cancels_the_running_translation(slow, path, body):
    server, translator = slow
    send_and_leave(server.address, path, body, until=translator.started.is_set)
    wait_until(lambda: translator.stopped_early.is_set(), "the translation to stop")
    assert translator.tokens[-1].cancelled
    # the model is free for the next client at once, not after the abandoned translation's 20 s
    gate = server.core.models.gate(server.core.route("en", "zh", "").direction.pack)
    wait_until(lambda: gate.waiting == 0, "the gate to be free")
    with gate.use(max_waiting=0):
        pass


def test_hanging_up_a_stream_cancels_it(slow):
    server, translator = slow
    send_and_leave(
        server.address,
        "/stream",
        {"q": "Good morning.", "target": "zh"},
        read_first=True,
        until=translator.started.is_set,
    )
    wait_until(lambda: translator.stopped_early.is_set(), "the stream to stop")
    assert translator.tokens[-1].cancelled


def test_hanging_up_while_waiting_leaves_the_queue(slow):
    server, translator = slow
    gate = server.core.models.gate(server.core.route("en", "zh", "").direction.pack)
    inside, release = threading.Event(), threading.Event()

    def hold() -> None:
        with gate.use():
            inside.set()
            release.wait(DEADLINE)

    holder = threading.Thread(target=hold)
    holder.start()
    try:
        assert inside.wait(DEADLINE)
        send_and_leave(
            server.address, "/translate", {"q": "Good morning.", "target": "zh"}, until=lambda: gate.waiting == 1
        )
        wait_until(lambda: gate.waiting == 0, "the abandoned request to leave the queue")
        assert not translator.started.is_set()  # it never reached the model
    finally:
        release.set()
        holder.join(DEADLINE)


def test_stopping_the_server_cancels_what_runs(serve, tiny_pack):
    translators: list[SlowTranslator] = []
    server = serve([tiny_pack], opener=lambda path: translators.append(SlowTranslator(path)) or translators[-1])
    answer: list = []
    client = threading.Thread(
        target=lambda: answer.append(
            requests.post(server.address + "/translate", json={"q": "Hi.", "target": "zh"}, timeout=DEADLINE)
        )
    )
    client.start()
    wait_until(lambda: translators and translators[0].started.is_set(), "the translation to start")
    server.stop()
    assert translators[0].stopped_early.is_set() and not server.running
    client.join(DEADLINE)
