"""The protocol pieces clients expect beyond translating text: health, settings, languages, HTML, XML,
alternatives, base URLs with a trailing slash."""

from __future__ import annotations

import re

import deepl
import requests
from api_helpers import EchoTranslator

from fanyi.engine.options import DecodeOptions

TIMEOUT = 60


def test_html_that_comes_back_unchanged_keeps_its_tags_where_they_were(serve, tiny_pack):
    server = serve([tiny_pack], opener=EchoTranslator)
    html = '<b>world</b>, <a href="#x">link</a>'
    client = deepl.Translator("k", server_url=server.address)
    assert client.translate_text(html, target_lang="ZH", tag_handling="html").text == html
    answer = requests.post(
        server.address + "/translate",
        json={"q": html, "source": "en", "target": "zh", "format": "html"},
        timeout=TIMEOUT,
    )
    assert answer.json()["translatedText"] == html


def test_health_and_frontend_settings(serve, tiny_pack, tiny_pack_zh_en):
    server = serve([tiny_pack, tiny_pack_zh_en], api_key="k")
    assert requests.get(server.address + "/health", timeout=TIMEOUT).json() == {"status": "ok"}
    settings = requests.get(server.address + "/frontend/settings", timeout=TIMEOUT).json()
    assert settings["charLimit"] == 20_000 and settings["keyRequired"] is True and settings["apiKeys"] is True
    assert settings["language"]["source"]["code"] == "auto"
    assert settings["language"]["target"] == {"code": "zh", "name": "Chinese"}


def test_deepl_lists_plain_zh_among_the_targets(serve, tiny_pack):
    server = serve([tiny_pack])
    targets = {lang.code: lang.name for lang in deepl.Translator("k", server_url=server.address).get_target_languages()}
    assert {"ZH", "ZH-HANS", "ZH-HANT"} <= set(targets) and targets["ZH"] == "Chinese (simplified)"


def test_a_base_url_ending_in_a_slash_still_reaches_every_endpoint(serve, tiny_pack, tiny_translator):
    server = serve([tiny_pack])
    base = server.address + "/"
    answer = requests.post(
        base + "/translate", json={"q": "Good morning.", "source": "en", "target": "zh"}, timeout=TIMEOUT
    )
    assert answer.status_code == 200 and answer.json()["translatedText"]
    assert requests.get(base + "/languages/", timeout=TIMEOUT).status_code == 200
    client = deepl.Translator("k", server_url=base)  # the client adds "/v2/translate" itself
    assert client.translate_text("Good morning.", target_lang="ZH").text == answer.json()["translatedText"]


def test_deepl_xml_keeps_the_markup_and_translates_each_element(serve, tiny_pack, tiny_translator):
    server = serve([tiny_pack])
    xml = '<doc><title id="t">Good morning.</title><body><p>The weather is fine today.</p><br/></body></doc>'
    out = (
        deepl.Translator("k", server_url=server.address)
        .translate_text(xml, target_lang="ZH-HANS", tag_handling="xml")
        .text
    )
    tags = re.compile(r"<[^>]+>")
    assert tags.findall(out) == tags.findall(xml)  # element for element, attribute for attribute
    hans = DecodeOptions(target="cmn_Hans")
    assert tags.split(out)[1:-1] == [
        "",
        tiny_translator.translate("Good morning.", hans),
        "",
        "",
        tiny_translator.translate("The weather is fine today.", hans),
        "",
        "",
        "",
    ]


def test_libretranslate_alternatives_are_the_beams_next_best(serve, tiny_pack, tiny_translator):
    server = serve([tiny_pack])
    url = server.address + "/translate"
    hans = DecodeOptions(target="cmn_Hans")
    text = "The weather is fine today."
    body = requests.post(
        url, json={"q": text, "source": "en", "target": "zh", "alternatives": 3}, timeout=TIMEOUT
    ).json()
    translation = tiny_translator.translate(text, hans)
    assert body["translatedText"] == translation
    expected = [t for t in tiny_translator.alternatives(text, 3, hans) if t != translation][:3]
    assert body["alternatives"] == expected and expected
    listed = requests.post(
        url, data={"q": [text, "Good morning."], "source": "en", "target": "zh", "alternatives": "2"}, timeout=TIMEOUT
    ).json()  # a form's digits
    assert len(listed["alternatives"]) == 2 and listed["alternatives"][0] == expected[:2]
    assert (
        "alternatives"
        not in requests.post(url, json={"q": text, "target": "zh", "alternatives": 0}, timeout=TIMEOUT).json()
    )
    for wrong, words in (
        ("many", "must be a whole number"),
        (1.5, "must be a whole number"),
        (True, "must be a whole number"),
        (99, "must be at most 5"),
    ):
        answer = requests.post(url, json={"q": text, "target": "zh", "alternatives": wrong}, timeout=TIMEOUT)
        assert answer.status_code == 400 and words in answer.json()["error"]
