"""A crowd of requests waits in line instead of being refused; a long request does not hold the model
for its whole length; the light endpoints never wait behind translations."""

from __future__ import annotations

import json
import socket
import threading
import time
from urllib.parse import urlsplit

import requests
from api_helpers import EN, BatchedTranslator, RecordingTranslator, SteppedTranslator, en_zh_gate, wait_until

from fanyi import limits

TIMEOUT = 60
CROWD = 45  # more than the old 9 places in line, the old 32 connections and anyio's 40 threads


def _translate(server, text: str, results: list, *, path: str = "/translate", target: str = "zh") -> None:
    body = {"q": text, "source": "en", "target": target}
    results.append(requests.post(server.address + path, json=body, timeout=TIMEOUT))


def test_a_crowd_waits_in_line_and_every_request_is_answered(serve, tiny_pack):
    assert CROWD <= limits.API_MAX_QUEUED
    server = serve([tiny_pack])
    gate = en_zh_gate(server)
    answers: list[requests.Response] = []
    clients = [threading.Thread(target=_translate, args=(server, EN[n % len(EN)], answers)) for n in range(CROWD)]
    with gate.use():  # the model is busy while they all arrive
        for client in clients:
            client.start()
        wait_until(lambda: server.core.line.count == CROWD, "the crowd to wait in line")
        assert gate.waiting == 1  # one of them waits for the model: the others wait for its batch (batching.py)
        # none of them is answered yet, and the light endpoints are answered meanwhile
        assert answers == []
        assert requests.get(server.address + "/languages", timeout=TIMEOUT).status_code == 200
        assert requests.get(server.address + "/health", timeout=TIMEOUT).json() == {"status": "ok"}
        detected = requests.post(server.address + "/detect", json={"q": "今天天气很好"}, timeout=TIMEOUT)
        assert detected.json()[0]["language"] == "zh"
    for client in clients:
        client.join(TIMEOUT)
    assert sorted(answer.status_code for answer in answers) == [200] * CROWD


def test_a_short_request_is_answered_while_a_long_one_runs(serve, tiny_pack):
    translators: list[BatchedTranslator] = []
    server = serve([tiny_pack], opener=lambda path: translators.append(BatchedTranslator(path)) or translators[-1])
    long_answer: list[requests.Response] = []
    long_client = threading.Thread(target=_translate, args=(server, "a long text", long_answer))
    long_client.start()
    wait_until(lambda: translators and translators[0].long_started.is_set(), "the long translation to start")
    short: list[requests.Response] = []
    _translate(server, "Hi.", short)
    assert short[0].status_code == 200 and short[0].json()["translatedText"] == "译"
    assert translators[0].finished == ["Hi."]  # the long one still runs: it passed its turn between batches
    server.stop()  # cancels the long one
    long_client.join(TIMEOUT)


def test_a_short_request_is_answered_while_a_long_stream_runs(serve, tiny_pack):
    translators: list[BatchedTranslator] = []
    server = serve([tiny_pack], opener=lambda path: translators.append(BatchedTranslator(path)) or translators[-1])
    with requests.post(
        server.address + "/stream", json={"q": "a long text", "target": "zh"}, stream=True, timeout=TIMEOUT
    ) as stream:
        assert next(stream.iter_lines()).startswith(b"event: start")
        short: list[requests.Response] = []
        _translate(server, "Hi.", short)
        assert short[0].status_code == 200 and translators[0].finished == ["Hi."]


def test_a_request_does_not_pass_its_turn_after_its_last_batch(serve, tiny_pack, monkeypatch):
    """Three requests in line that cannot be batched together (each asks for Chinese written another way) take
    turns batch by batch; each ends as soon as its own last batch is done (passing the turn then would make
    every request wait for all the others' last batches)."""
    monkeypatch.setattr(limits, "API_TURN_SECONDS", 0.0)  # pass the turn whenever someone waits
    translators: list[SteppedTranslator] = []
    server = serve([tiny_pack], opener=lambda path: translators.append(SteppedTranslator(path)) or translators[-1])
    gate = en_zh_gate(server)
    answers: list[requests.Response] = []
    names = {"first": "zh", "second": "zh-TW", "third": "zh-HK"}
    clients = []
    with gate.use():  # all three are in line before the first starts
        for name, target in names.items():
            clients.append(threading.Thread(target=_translate, args=(server, name, answers), kwargs={"target": target}))
            clients[-1].start()
            wait_until(lambda: gate.waiting == len(clients), f"{name} to wait in line")
    for client in clients:
        client.join(TIMEOUT)
    assert [a.status_code for a in answers] == [200] * 3
    ended = translators[0].ended
    step = SteppedTranslator.BATCH_SECONDS
    # batches interleave (1 2 3 1 2 3 1 2 3): the first ends a step before the second, two before the third
    assert ended["first"] < ended["second"] - step / 2 < ended["third"] - step


def test_requests_waiting_for_one_model_are_translated_as_one_batch(serve, tiny_pack):
    translators: list[RecordingTranslator] = []
    server = serve([tiny_pack], opener=lambda path: translators.append(RecordingTranslator(path)) or translators[-1])
    gate = en_zh_gate(server)
    answers: list[requests.Response] = []
    texts = [f"Sentence {n}." for n in range(6)]
    with gate.use():
        clients = [threading.Thread(target=_translate, args=(server, text, answers)) for text in texts]
        for client in clients:
            client.start()
        wait_until(lambda: server.core.orders.count == len(texts), "every request to wait in line")
    for client in clients:
        client.join(TIMEOUT)
    # each client got its own translation, and the model saw one batch of all six
    assert sorted(a.json()["translatedText"] for a in answers) == sorted("译" + t for t in texts)
    assert [sorted(batch) for batch in translators[0].batches] == [sorted(texts)]


def test_a_client_that_leaves_does_not_cancel_the_others_in_its_batch(serve, tiny_pack):
    translators: list[RecordingTranslator] = []
    server = serve([tiny_pack], opener=lambda path: translators.append(RecordingTranslator(path)) or translators[-1])
    gate = en_zh_gate(server)
    answers: list[requests.Response] = []
    url = urlsplit(server.address)
    leaving = socket.create_connection((url.hostname, url.port))
    try:
        with gate.use():
            body = json.dumps({"q": "I leave.", "source": "en", "target": "zh"}).encode()
            leaving.sendall(
                b"POST /translate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
                b"Content-Length: %d\r\n\r\n%s" % (len(body), body)
            )
            wait_until(lambda: gate.waiting == 1, "the leaving request to wait")  # first in line: it holds the batch
            staying = threading.Thread(target=_translate, args=(server, "I stay.", answers))
            staying.start()
            wait_until(lambda: server.core.orders.count == 2, "the staying request to wait")
            translators[0].hold.clear()
        wait_until(lambda: translators[0].batches, "the batch to start")
    finally:
        leaving.close()  # while its batch, which holds the other request's text too, is being translated
    time.sleep(0.3)  # on loopback the server sees the hang-up at once
    translators[0].hold.set()
    staying.join(TIMEOUT)
    assert translators[0].batches == [["I leave.", "I stay."]]
    assert answers[0].status_code == 200 and answers[0].json()["translatedText"] == "译I stay."


def test_a_burst_is_translated_in_decoder_batches_not_refused(serve, tiny_pack):
    """A burst of short requests, as Immersive Translate and KISS Translator send them (MTranServer's README sets
    them to 512 requests a second and 100 at once): every one is answered, in batches of API_BATCH_TEXTS, and
    one of them waits at the model's gate (the line used to refuse all beyond 64)."""
    burst = 200
    translators: list[RecordingTranslator] = []
    server = serve([tiny_pack], opener=lambda path: translators.append(RecordingTranslator(path)) or translators[-1])
    gate = en_zh_gate(server)
    answers: list[requests.Response] = []
    texts = [f"Sentence number {n}." for n in range(burst)]
    clients = [threading.Thread(target=_translate, args=(server, text, answers)) for text in texts]
    with gate.use():
        for client in clients:
            client.start()
        wait_until(lambda: server.core.orders.count == burst, "the burst to wait")
        assert gate.waiting == 1
    for client in clients:
        client.join(TIMEOUT)
    assert sorted(a.status_code for a in answers) == [200] * burst
    assert sorted(a.json()["translatedText"] for a in answers) == sorted("译" + t for t in texts)
    batches = translators[0].batches
    assert sorted(t for batch in batches for t in batch) == sorted(texts)  # each text translated once
    assert max(map(len, batches)) == limits.API_BATCH_TEXTS and len(batches) <= burst // limits.API_BATCH_TEXTS + 2
