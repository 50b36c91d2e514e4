"""Every failure in the protocol's own shape and status, with one line for the client and no traceback."""

from __future__ import annotations

import threading

import deepl
import pytest
import requests
from api_helpers import EN, ExplodingTranslator, en_zh_gate, wait_until
from libretranslatepy import LibreTranslateAPI

from fanyi import limits
from fanyi.engine.pack import PackError

TIMEOUT = 60


def post(server, path: str, **kwargs) -> requests.Response:
    return requests.post(server.address + path, timeout=TIMEOUT, **kwargs)


def libre(server, **fields) -> requests.Response:
    return post(server, "/translate", json=fields)


def deeplx(server, **fields) -> requests.Response:
    return post(server, "/translate", json=fields)


def deepl_v2(server, key: str | None = "k", **fields) -> requests.Response:
    headers = {"Authorization": f"DeepL-Auth-Key {key}"} if key else {}
    return post(server, "/v2/translate", json=fields, headers=headers)


def assert_libre(answer: requests.Response, status: int, words: str) -> None:
    assert answer.status_code == status
    assert list(answer.json()) == ["error"] and words in answer.json()["error"]


def assert_deepl(answer: requests.Response, status: int, words: str) -> None:
    assert answer.status_code == status
    assert list(answer.json()) == ["message"] and words in answer.json()["message"]


def assert_deeplx(answer: requests.Response, status: int, words: str) -> None:
    assert answer.status_code == status
    body = answer.json()
    assert body["code"] == status and words in body["message"] and "data" not in body


@pytest.fixture
def en_zh(serve, tiny_pack):
    return serve([tiny_pack])


def test_bad_requests_are_400(en_zh):
    assert_libre(libre(en_zh, q="Hi."), 400, "target")
    assert_libre(libre(en_zh, q="Hi.", source="en", target="fr"), 400, "no installed model translates into fr")
    assert_libre(libre(en_zh, q="Hi.", source="en", target="zh", format="pdf"), 400, "format")
    assert_libre(libre(en_zh, q=["Hi.", 3], target="zh"), 400, "list of strings")
    assert_libre(libre(en_zh, q="Hi.", source="ja", target="zh"), 400, "no installed model translates ja into zh")
    assert_libre(libre(en_zh, q="Hi.", source="e n", target="zh"), 400, "not a language code")
    assert_libre(
        post(en_zh, "/translate", data=b"{not json", headers={"Content-Type": "application/json"}), 400, "JSON"
    )
    assert_libre(libre(en_zh, q="Hi.", source="en", target="zh/../Hans"), 400, "not a language code")
    assert_libre(post(en_zh, "/detect", json={}), 400, "q is required")
    assert_deeplx(deeplx(en_zh, text="Hi."), 400, "target_lang")
    assert_deeplx(deeplx(en_zh, text="Hi.", source_lang="EN", target_lang="FR"), 400, "into FR")
    assert_deeplx(deeplx(en_zh, text="今天", source_lang="auto", target_lang="auto"), 400, "translates from zh")
    assert_deepl(deepl_v2(en_zh, target_lang="ZH"), 400, "text and target_lang")
    assert_deepl(deepl_v2(en_zh, text=["Hi."], target_lang="ZH", tag_handling="markdown"), 400, "tag_handling")
    assert_libre(post(en_zh, "/stream", json={"q": "Hi."}), 400, "target")
    client = deepl.Translator("k", server_url=en_zh.address)
    with pytest.raises(deepl.DeepLException, match="Bad request"):
        client.translate_text("Hi.", target_lang="DE")


def test_an_empty_text_is_an_empty_translation_in_every_protocol(en_zh):
    """DeepLX answered 400 "text and target_lang are required" where LibreTranslate and DeepL answer 200 ""."""
    assert libre(en_zh, q="", source="en", target="zh").json() == {"translatedText": ""}
    assert deepl_v2(en_zh, text=[""], target_lang="ZH").json()["translations"][0]["text"] == ""
    empty = deeplx(en_zh, text="", target_lang="ZH")
    assert empty.status_code == 200 and empty.json()["code"] == 200 and empty.json()["data"] == ""
    assert_deeplx(deeplx(en_zh, text=None, target_lang="ZH"), 400, "text and target_lang")  # none is still asked for


def test_a_json_body_that_is_not_utf8_is_said_so(en_zh):
    """It was "the body is neither JSON nor a form"."""
    latin1 = '{"q": "café", "target": "zh"}'.encode("latin-1")
    answer = post(en_zh, "/translate", data=latin1, headers={"Content-Type": "application/json"})
    assert_libre(answer, 400, "not UTF-8")


def test_without_the_key_every_protocol_answers_403(serve, tiny_pack):
    server = serve([tiny_pack], api_key="sekret")
    assert_libre(libre(server, q=EN[0], target="zh"), 403, "API key")
    assert_libre(libre(server, q=EN[0], target="zh", api_key="wrong"), 403, "API key")
    assert_deeplx(deeplx(server, text=EN[0], target_lang="ZH"), 401, "API key")  # DeepLX's own status for it
    assert_deepl(deepl_v2(server, key="wrong", text=[EN[0]], target_lang="ZH"), 403, "API key")
    assert_libre(post(server, "/stream", json={"q": EN[0], "target": "zh"}), 403, "API key")
    assert_libre(post(server, "/detect", json={"q": EN[0]}), 403, "API key")
    with pytest.raises(deepl.AuthorizationException):
        deepl.Translator("wrong", server_url=server.address).translate_text(EN[0], target_lang="ZH")
    # ... and with it, each in its own way, they are answered
    assert libre(server, q=EN[0], target="zh", api_key="sekret").status_code == 200
    assert LibreTranslateAPI(server.address, api_key="sekret").translate(EN[0], "en", "zh") is not None
    assert (
        deepl.Translator("sekret", server_url=server.address).translate_text(EN[0], target_lang="ZH").text is not None
    )
    bearer = post(
        server, "/translate", json={"text": EN[0], "target_lang": "ZH"}, headers={"Authorization": "Bearer sekret"}
    )
    assert bearer.status_code == 200 and bearer.json()["code"] == 200
    assert post(server, "/translate?token=sekret", json={"text": EN[0], "target_lang": "ZH"}).status_code == 200
    # the language list stays public, as in LibreTranslate
    assert requests.get(server.address + "/languages", timeout=TIMEOUT).status_code == 200


def test_too_large_is_413(en_zh, monkeypatch):
    monkeypatch.setattr(limits, "API_MAX_TEXTS", 2)
    monkeypatch.setattr(limits, "API_MAX_CHARS", 40)
    assert_libre(libre(en_zh, q=["a.", "b.", "c."], target="zh"), 413, "too many texts")
    assert_deepl(deepl_v2(en_zh, text=["a.", "b.", "c."], target_lang="ZH"), 413, "too many texts")
    assert_deeplx(deeplx(en_zh, text="x" * 41, target_lang="ZH"), 413, "too much text")
    assert_libre(libre(en_zh, q=["x" * 20, "y" * 21], target="zh"), 413, "41 characters")
    monkeypatch.setattr(limits, "API_MAX_BODY_BYTES", 100)
    assert_libre(libre(en_zh, q="x" * 200, target="zh"), 413, "too large")
    assert_deepl(deepl_v2(en_zh, text=["x" * 200], target_lang="ZH"), 413, "too large")
    # a body without Content-Length (chunked) is cut off at the limit too
    chunks = iter([b'{"q": "', b"x" * 80, b"x" * 80, b'", "target": "zh"}'])
    assert_libre(post(en_zh, "/translate", data=chunks, headers={"Content-Type": "application/json"}), 413, "too large")


def test_busy_is_429_with_retry_after_when_the_line_is_full(en_zh, tiny_pack, monkeypatch):
    monkeypatch.setattr(limits, "API_MAX_QUEUED", 1)
    monkeypatch.setattr(deepl.http_client, "max_network_retries", 0)
    gate = en_zh_gate(en_zh)
    inside, release = threading.Event(), threading.Event()
    waiting: list[requests.Response] = []

    def hold() -> None:
        with gate.use():
            inside.set()
            release.wait(TIMEOUT)

    holder = threading.Thread(target=hold)
    holder.start()
    first = threading.Thread(target=lambda: waiting.append(libre(en_zh, q=EN[1], target="zh")))
    try:
        assert inside.wait(TIMEOUT)
        first.start()  # takes the one place in line, and waits for the model
        wait_until(lambda: gate.waiting == 1)
        answers = [
            (libre(en_zh, q=EN[0], target="zh"), assert_libre),
            (deeplx(en_zh, text=EN[0], target_lang="ZH"), assert_deeplx),
            (deepl_v2(en_zh, text=[EN[0]], target_lang="ZH"), assert_deepl),
            (post(en_zh, "/stream", json={"q": EN[0], "target": "zh"}), assert_libre),
        ]
        for answer, check in answers:
            check(answer, 429, "busy")
            assert int(answer.headers["Retry-After"]) >= 1
        with pytest.raises(deepl.TooManyRequestsException):
            deepl.Translator("k", server_url=en_zh.address).translate_text(EN[0], target_lang="ZH")
    finally:
        release.set()
        holder.join(TIMEOUT)
        first.join(TIMEOUT)
    assert waiting[0].status_code == 200  # the one in line was served
    assert libre(en_zh, q=EN[0], target="zh").status_code == 200  # free again


def test_waiting_too_long_for_the_model_is_503_with_retry_after(en_zh, monkeypatch):
    monkeypatch.setattr(limits, "API_MAX_WAIT_SECONDS", 0.3)
    gate = en_zh_gate(en_zh)
    with gate.use():
        answer = deepl_v2(en_zh, text=[EN[0]], target_lang="ZH")
        assert_deepl(answer, 503, "busy")
        assert int(answer.headers["Retry-After"]) >= 1
        assert_libre(libre(en_zh, q=EN[0], target="zh"), 503, "no turn for the model within 0.3 s")


def test_an_engine_failure_is_500_with_one_line(serve, tiny_pack):
    server = serve([tiny_pack], opener=ExplodingTranslator)
    for answer, check in (
        (libre(server, q=EN[0], target="zh"), assert_libre),
        (deeplx(server, text=EN[0], target_lang="ZH"), assert_deeplx),
        (deepl_v2(server, text=[EN[0]], target_lang="ZH"), assert_deepl),
    ):
        check(answer, 500, "translation failed: the decoder exploded at step 3")
        assert "Traceback" not in answer.text and "\n" not in answer.text
    stream = post(server, "/stream", json={"q": EN[0], "target": "zh"})
    assert stream.status_code == 200  # it failed midway: the status was sent, the failure is an event
    assert stream.text.rstrip().endswith('event: error\ndata: {"error": "translation failed: the decoder exploded"}')


def test_a_pack_that_cannot_be_opened_is_500(serve, tiny_pack):
    def broken(path):
        raise PackError(f"{path}/decoder.onnx is damaged (checksum mismatch)")

    server = serve([tiny_pack], opener=broken)
    assert_libre(libre(server, q=EN[0], target="zh"), 500, "cannot be opened: ")
    assert_deepl(deepl_v2(server, text=[EN[0]], target_lang="ZH"), 500, "checksum mismatch")


LONE = '"Good \\ud800 morning."'  # JSON's own escape for a lone surrogate: valid JSON, not text


def raw_json(server, path: str, body: str, headers: dict | None = None) -> requests.Response:
    return post(server, path, data=body.encode(), headers={"Content-Type": "application/json", **(headers or {})})


def test_a_lone_surrogate_is_400_in_every_protocol(en_zh, monkeypatch):
    assert_libre(raw_json(en_zh, "/translate", f'{{"q": {LONE}, "target": "zh"}}'), 400, "lone surrogate (\\ud800)")
    assert_libre(raw_json(en_zh, "/translate", f'{{"q": ["Hi.", {LONE}], "target": "zh"}}'), 400, "not valid text")
    assert_deeplx(raw_json(en_zh, "/translate", f'{{"text": {LONE}, "target_lang": "ZH"}}'), 400, "lone surrogate")
    assert_deepl(
        raw_json(
            en_zh, "/v2/translate", f'{{"text": [{LONE}], "target_lang": "ZH"}}', {"Authorization": "DeepL-Auth-Key k"}
        ),
        400,
        "lone surrogate",
    )
    assert_libre(raw_json(en_zh, "/stream", f'{{"q": {LONE}, "target": "zh"}}'), 400, "lone surrogate")
    assert_libre(raw_json(en_zh, "/detect", f'{{"q": {LONE}}}'), 400, "lone surrogate")
    assert_libre(raw_json(en_zh, "/translate", f'{{"q": "Hi.", "target": {LONE}}}'), 400, "target is not valid text")
    # DeepL's own client gives up at once on a 400 (it retried a 500 for 15 s)
    monkeypatch.setattr(deepl.http_client, "max_network_retries", 0)
    with pytest.raises(deepl.DeepLException, match="lone surrogate"):
        deepl.Translator("k", server_url=en_zh.address).translate_text("Good \ud800 morning.", target_lang="ZH")


def test_json_nested_too_deeply_is_400_in_every_protocol(en_zh):
    deep = "[" * 100_000 + "]" * 100_000
    assert_libre(raw_json(en_zh, "/translate", f'{{"q": {deep}, "target": "zh"}}'), 400, "nested too deeply")
    assert_deepl(raw_json(en_zh, "/v2/translate", deep), 400, "nested too deeply")
    assert_libre(raw_json(en_zh, "/detect", deep), 400, "nested too deeply")


def test_fields_of_the_wrong_type_are_400_naming_the_field(en_zh):
    assert_libre(
        libre(en_zh, q=3, target="zh"), 400, "q must be a string or a list of strings, not one holding a number"
    )
    assert_libre(libre(en_zh, q="Hi.", target=["zh"]), 400, "target must be a string, not a list")
    assert_libre(libre(en_zh, q="Hi.", target="zh", source=True), 400, "source must be a string, not a boolean")
    assert_libre(libre(en_zh, q={"a": 1}, target="zh"), 400, "not one holding an object")
    assert_deeplx(deeplx(en_zh, text="Hi.", target_lang=5), 400, "target_lang must be a string")
    assert_deepl(deepl_v2(en_zh, text=[["Hi."]], target_lang="ZH"), 400, "text must be a string or a list")
    assert_deepl(deepl_v2(en_zh, text=["Hi."], target_lang="ZH", tag_handling=1), 400, "tag_handling must be")
    assert_libre(post(en_zh, "/detect", json={"q": None}), 400, "q is required")


def test_unknown_paths_and_methods_are_json(en_zh):
    for answer, status in (
        (requests.get(en_zh.address + "/nowhere", timeout=TIMEOUT), 404),
        (requests.get(en_zh.address + "/translate", timeout=TIMEOUT), 405),
        (requests.put(en_zh.address + "/v2/translate", timeout=TIMEOUT), 405),
    ):
        assert answer.status_code == status and answer.headers["content-type"] == "application/json"
        body = answer.json()
        assert body["code"] == status and body["error"] == body["message"] and "\n" not in body["message"]
    assert "POST" in requests.get(en_zh.address + "/translate", timeout=TIMEOUT).headers["allow"]
