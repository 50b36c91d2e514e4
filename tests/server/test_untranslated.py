"""A sentence a pack leaves as it was (it degenerated on it, even with the guard) is said in each protocol's
shape: Fanyi's own `untranslated` field, the X-Fanyi-Untranslated header, the stream's events and its
done, a document's status; and the log has it. With one that translates, neither field nor header is there."""

from __future__ import annotations

import io
import logging

import deepl
import requests
from api_helpers import _Double
from libretranslatepy import LibreTranslateAPI
from test_stream import events

from fanyi.engine.degenerate import LOOP
from fanyi.engine.language_choice import LanguageChoice
from fanyi.engine.results import Failure, Translation

TIMEOUT = 120
LOOPED = {"source": "Hello there.", "reason": "the model kept repeating itself"}


def test_libretranslate_deepl_and_deeplx_say_which_sentences_were_left(serve, looping_pack, caplog):
    server = serve([looping_pack])
    url = server.address
    with caplog.at_level(logging.WARNING, logger="fanyi.server.core"):
        answer = requests.post(f"{url}/translate", json={"q": "Hello there.", "target": "zh"}, timeout=TIMEOUT)
    assert answer.status_code == 200 and answer.headers["X-Fanyi-Untranslated"] == "1"
    assert answer.json() == {
        "translatedText": "Hello there.",
        "untranslated": [LOOPED],
        "detectedLanguage": {"confidence": 100.0, "language": "en"},
    }
    assert "1 sentence is left untranslated: “Hello there.” (the model kept repeating itself)" in caplog.text
    listed = requests.post(
        f"{url}/translate", json={"q": ["Hello there.", "Fine."], "source": "en", "target": "zh"}, timeout=TIMEOUT
    )
    assert listed.headers["X-Fanyi-Untranslated"] == "2"
    assert listed.json()["untranslated"] == [[LOOPED], [{"source": "Fine.", "reason": LOOPED["reason"]}]]
    assert LibreTranslateAPI(url).translate("Hello there.", "en", "zh") == "Hello there."  # the client still works

    deepl_answer = requests.post(
        f"{url}/v2/translate", json={"text": ["Hello there."], "target_lang": "ZH"}, timeout=TIMEOUT
    )
    assert deepl_answer.headers["X-Fanyi-Untranslated"] == "1"
    assert deepl_answer.json()["translations"][0]["untranslated"] == [LOOPED]
    assert deepl.Translator("k", server_url=url).translate_text("Hello there.", target_lang="ZH").text == "Hello there."

    deeplx = requests.post(
        f"{url}/translate", json={"text": "Hello there.", "source_lang": "EN", "target_lang": "ZH"}, timeout=TIMEOUT
    )
    assert deeplx.headers["X-Fanyi-Untranslated"] == "1" and deeplx.json()["untranslated"] == [LOOPED]

    got = events(requests.post(f"{url}/stream", json={"q": "Hello there.", "target": "zh"}, timeout=TIMEOUT).text)
    assert ("untranslated", LOOPED) in got
    assert got[-1] == ("done", {"translatedText": "Hello there.", "untranslated": [LOOPED]})


def test_html_says_so_too(serve, looping_pack):
    url = serve([looping_pack]).address
    html = requests.post(
        f"{url}/translate", json={"q": "<p>Hello there.</p>", "target": "zh", "format": "html"}, timeout=TIMEOUT
    )
    assert html.headers["X-Fanyi-Untranslated"] == "1" and html.json()["untranslated"] == [LOOPED]


class LoopingOnSome(_Double):
    """Translates a text as "译", except one holding "loop": left as it was, listed as failed (as the engine does)."""

    def translate_results(self, texts, options=None, progress=None, cancel=None, contexts=None):
        return [Translation(t, (Failure(t, LOOP),)) if "loop" in t else Translation("译") for t in texts]

    def languages(self, options):
        return LanguageChoice(None, None, "en", "zh")


def test_a_documents_status_counts_the_parts_left_as_they_were(serve, tiny_pack, tmp_path):
    url = serve([tiny_pack], opener=LoopingOnSome).address
    client = deepl.Translator("k", server_url=url)
    text = b"Hello there.\n\nThe model will loop here.\n"
    handle = client.translate_document_upload(text, target_lang="ZH", filename="notes.txt")
    assert client.translate_document_wait_until_done(handle).done
    status = requests.post(
        f"{url}/v2/document/{handle.document_id}", json={"document_key": handle.document_key}, timeout=TIMEOUT
    )
    assert status.json()["untranslated_parts"] == 1 and status.headers["X-Fanyi-Untranslated"] == "1"
    output = io.BytesIO()
    client.translate_document_download(handle, output)
    assert output.getvalue() == "译\n\nThe model will loop here.\n".encode()
    answer = requests.post(
        f"{url}/translate_file",
        files={"file": ("notes.txt", text)},
        data={"source": "en", "target": "zh"},
        timeout=TIMEOUT,
    )
    assert answer.json()["untranslatedParts"] == 1 and answer.headers["X-Fanyi-Untranslated"] == "1"


def test_a_translation_without_failures_carries_neither_field_nor_header(serve, tiny_pack):
    url = serve([tiny_pack]).address
    answer = requests.post(
        f"{url}/translate", json={"q": "Good morning.", "source": "en", "target": "zh"}, timeout=TIMEOUT
    )
    assert "untranslated" not in answer.json() and "X-Fanyi-Untranslated" not in answer.headers
    deepl_answer = requests.post(
        f"{url}/v2/translate", json={"text": ["Good morning."], "target_lang": "ZH"}, timeout=TIMEOUT
    )
    assert set(deepl_answer.json()["translations"][0]) == {"detected_source_language", "text", "billed_characters"}
