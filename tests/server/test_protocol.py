"""The protocol pieces clients expect beyond translating text: health, settings, languages, HTML, XML,
alternatives, base URLs with a trailing slash."""

from __future__ import annotations

import deepl
import requests
from api_helpers import EchoTranslator

TIMEOUT = 60


def test_html_that_comes_back_unchanged_keeps_its_tags_where_they_were(serve, tiny_pack):
    server = serve([tiny_pack], opener=EchoTranslator)
    html = '<b>world</b>, <a href="#x">link</a>'
    client = deepl.Translator("k", server_url=server.address)
    assert client.translate_text(html, target_lang="ZH", tag_handling="html").text == html
    answer = requests.post(server.address + "/translate", json={"q": html, "source": "en", "target": "zh",
                                                                "format": "html"}, timeout=TIMEOUT)
    assert answer.json()["translatedText"] == html
