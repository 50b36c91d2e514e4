"""The three protocols answered for real clients: DeepL's official Python client, libretranslatepy,
and DeepLX's JSON as Pot, Zotero and STranslate send it; answers equal Translator.translate."""

from __future__ import annotations

import re
import shutil
import subprocess

import deepl
import pytest
import requests
from api_helpers import EN, ZH
from libretranslatepy import LibreTranslateAPI

from fanyi.engine.options import DecodeOptions

HANS, HANT, YUE = (DecodeOptions(target=t) for t in ("cmn_Hans", "cmn_Hant", "yue"))
TAIWAN, HONG_KONG = (DecodeOptions(target="cmn_Hans", convert=region) for region in ("zh-TW", "zh-HK"))  # OpenCC


def test_deepl_client_translates_a_list_into_each_chinese_variant(both, tiny_translator):
    client = deepl.Translator("any-key", server_url=both.address)
    for code, options in (("ZH", HANS), ("ZH-HANS", HANS), ("ZH-HANT", TAIWAN)):
        results = client.translate_text(EN, target_lang=code)
        assert [r.text for r in results] == [tiny_translator.translate(t, options) for t in EN]
        assert {r.detected_source_lang for r in results} == {"EN"}
        assert [r.billed_characters for r in results] == [len(t) for t in EN]
    # the variants really reach the model: Simplified and Traditional differ on this tiny model
    assert tiny_translator.translate(EN[0], HANS) != tiny_translator.translate(EN[0], HANT)


def test_deepl_client_from_chinese_with_source_lang(both, tiny_translator_zh_en):
    client = deepl.Translator("any-key", server_url=both.address)
    result = client.translate_text(ZH[0], source_lang="ZH", target_lang="EN-US")
    assert result.text == tiny_translator_zh_en.translate(ZH[0])
    assert result.detected_source_lang == "ZH"


def test_deepl_client_languages_and_usage(both):
    client = deepl.Translator("any-key", server_url=both.address)
    assert {lang.code for lang in client.get_source_languages()} == {"EN", "ZH"}
    targets = {lang.code for lang in client.get_target_languages()}
    assert {"ZH-HANS", "ZH-HANT", "EN-US", "EN-GB"} <= targets
    before = client.get_usage().character.count
    client.translate_text("Good morning.", target_lang="ZH")
    usage = client.get_usage().character
    assert usage.count == before + len("Good morning.") and usage.limit > usage.count


def test_deepl_client_html_keeps_the_markup(both, tiny_translator):
    client = deepl.Translator("any-key", server_url=both.address)
    html = '<p class="x">The weather <b>is fine</b> today.</p>'
    out = client.translate_text(html, target_lang="ZH-HANS", tag_handling="html").text
    tags = re.compile(r"<[^>]+>")
    assert tags.findall(out) == tags.findall(html)
    assert tags.sub("", out) == tiny_translator.translate("The weather is fine today.", HANS)


def test_libretranslatepy_translates_detects_and_lists(both, tiny_translator, tiny_translator_zh_en):
    client = LibreTranslateAPI(both.address)
    assert client.translate(EN[1], "en", "zh") == tiny_translator.translate(EN[1], HANS)
    assert client.translate(EN[1], "en", "zh-Hant") == tiny_translator.translate(EN[1], TAIWAN)
    assert client.translate(EN[1], "auto", "zh-TW") == tiny_translator.translate(EN[1], TAIWAN)
    assert client.translate(EN[1], "en", "zh-HK") == tiny_translator.translate(EN[1], HONG_KONG)
    assert client.translate(EN[1], "en", "cmn_Hant") == tiny_translator.translate(EN[1], HANT)  # the model's own
    assert client.translate(EN[1], "en", "zh-CN") == tiny_translator.translate(EN[1], HANS)
    assert client.translate(EN[1], "en", "yue") == tiny_translator.translate(EN[1], YUE)
    assert client.translate(ZH[1], "zh", "en") == tiny_translator_zh_en.translate(ZH[1])
    assert client.translate(ZH[1], "auto", "en") == tiny_translator_zh_en.translate(ZH[1])
    assert client.detect("今天天气很好")[0]["language"] == "zh"
    assert client.detect("The weather is fine")[0]["language"] == "en"
    listed = {entry["code"]: entry["targets"] for entry in client.languages()}
    assert {"zh", "zh-Hans", "zh-Hant", "zh-TW", "zh-HK", "yue"} <= set(listed["en"])
    assert listed["zh"] == ["en"]
    # Taiwan's and Hong Kong's Chinese are listed: as sources too, with what they translate into (they were listed
    # with no targets at all)
    assert listed["zh-TW"] == listed["zh-HK"] == ["en"]
    assert client.translate(ZH[1], "zh-TW", "en") == tiny_translator_zh_en.translate(ZH[1])
    assert listed["yue"] == []  # Cantonese, a language of its own, is written by the en→zh pack, read by none


def test_libretranslate_json_list_with_auto_routes_each_text(both, tiny_translator, tiny_translator_zh_en):
    answer = requests.post(
        f"{both.address}/translate", json={"q": [EN[0], ZH[0]], "source": "auto", "target": "en"}, timeout=60
    ).json()
    # English into English comes back as it is; Chinese goes through the zh→en pack
    assert answer["translatedText"] == [EN[0], tiny_translator_zh_en.translate(ZH[0])]
    assert [d["language"] for d in answer["detectedLanguage"]] == ["en", "zh"]
    answer = requests.post(
        f"{both.address}/translate", json={"q": EN[0], "source": "en", "target": "zh", "format": "html"}, timeout=60
    ).json()
    assert answer == {"translatedText": tiny_translator.translate(EN[0], HANS)}


def test_deeplx_request_as_pot_zotero_and_stranslate_send_it(both, tiny_translator, tiny_translator_zh_en):
    for source in ("EN", "auto"):
        answer = requests.post(
            f"{both.address}/translate", json={"text": EN[2], "source_lang": source, "target_lang": "ZH"}, timeout=60
        )
        assert answer.status_code == 200
        body = answer.json()
        assert body["code"] == 200 and body["data"] == tiny_translator.translate(EN[2], HANS)
        assert body["alternatives"] == [] and body["source_lang"] == "EN"
    body = requests.post(
        f"{both.address}/translate", json={"text": ZH[0], "source_lang": "ZH", "target_lang": "EN"}, timeout=60
    ).json()
    assert body["data"] == tiny_translator_zh_en.translate(ZH[0])
    # STranslate's "auto" target: into the other language of the text
    body = requests.post(
        f"{both.address}/translate", json={"text": ZH[0], "source_lang": "auto", "target_lang": "auto"}, timeout=60
    ).json()
    assert body["data"] == tiny_translator_zh_en.translate(ZH[0])


def test_form_posts_urlencoded_and_multipart(both, tiny_translator, tiny_translator_zh_en):
    url = f"{both.address}/translate"
    fields = {"q": EN[3], "source": "en", "target": "zh-Hant"}
    expected = tiny_translator.translate(EN[3], TAIWAN)
    assert requests.post(url, data=fields, timeout=60).json()["translatedText"] == expected
    multipart = {name: (None, value) for name, value in fields.items()}
    assert requests.post(url, files=multipart, timeout=60).json()["translatedText"] == expected
    deepl_form = [("text", EN[0]), ("text", EN[3]), ("target_lang", "ZH-HANT")]
    translations = requests.post(f"{both.address}/v2/translate", data=deepl_form, timeout=60).json()["translations"]
    assert [t["text"] for t in translations] == [tiny_translator.translate(t, TAIWAN) for t in (EN[0], EN[3])]


def test_a_json_template_filled_with_a_multiline_paragraph(both, tiny_translator):
    """Calibre Ebook Translator's custom engine puts the text into its JSON template as it is."""
    text = "Where is the station?\nThank you very much."
    body = '{"q": "' + text.replace('"', '\\"') + '", "source": "en", "target": "zh-Hans", "format": "text"}'
    answer = requests.post(
        f"{both.address}/translate", data=body.encode(), headers={"Content-Type": "application/json"}, timeout=60
    )
    expected = tiny_translator.translate_results([text], HANS)[0]
    body = answer.json()
    assert body.pop("translatedText") == expected.text
    # the tiny random model loops on a sentence of it: said, as any sentence left untranslated is
    assert body == (
        {"untranslated": [{"source": f.source, "reason": f.reason} for f in expected.failures]}
        if expected.failures
        else {}
    )


@pytest.mark.skipif(shutil.which("curl") is None, reason="curl is not installed")
def test_curl_form_post_with_raw_utf8(both, tiny_translator_zh_en):
    out = subprocess.run(
        ["curl", "-s", "-X", "POST", f"{both.address}/translate", "-d", f"q={ZH[1]}&source=zh&target=en"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert requests.models.complexjson.loads(out) == {"translatedText": tiny_translator_zh_en.translate(ZH[1])}
    out = subprocess.run(
        ["curl", "-s", "-F", f"q={ZH[1]}", "-F", "source=zh", "-F", "target=en", f"{both.address}/translate"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    assert requests.models.complexjson.loads(out) == {"translatedText": tiny_translator_zh_en.translate(ZH[1])}


def test_root_answers_for_health_checks(both):
    answer = requests.get(both.address + "/", timeout=10)
    assert answer.status_code == 200 and answer.json()["code"] == 200
    origin = "chrome-extension://abcdefghijklmnopabcdefghijklmnop"  # a browser extension's, e.g. a translator's
    preflight = requests.options(
        f"{both.address}/translate", timeout=10, headers={"Origin": origin, "Access-Control-Request-Method": "POST"}
    )
    assert preflight.status_code == 204 and preflight.headers["access-control-allow-origin"] == origin
