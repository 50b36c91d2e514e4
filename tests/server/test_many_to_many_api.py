"""Many-to-many packs through the API: chosen by the client's language codes (en, zh-Hant, auto), as the
window chooses them, and listed with their languages."""

from __future__ import annotations

import pytest
import requests
from api_helpers import EN, ZH

from fanyi.engine.options import DecodeOptions
from fanyi.engine.translator import Translator

TIMEOUT = 60


@pytest.fixture(scope="module")
def references(tiny_many_pack):
    return {family: Translator.open(tiny_many_pack(family), threads=1) for family in ("nllb", "mbart50")}


@pytest.fixture
def nllb(serve, tiny_many_pack):
    return serve([tiny_many_pack("nllb")])


def libre(server, **fields) -> requests.Response:
    return requests.post(f"{server.address}/translate", json=fields, timeout=TIMEOUT)


def test_client_codes_reach_the_packs_own_languages(nllb, references):
    nllb_ref = references["nllb"]
    for source, target, codes in [
        ("en", "zh", ("eng_Latn", "zho_Hans")),
        ("en", "zho_Hant", ("eng_Latn", "zho_Hant")),
        ("en", "zh-Hant", ("eng_Latn", "zho_Hans", "zh-TW")),  # its Simplified, by OpenCC
        ("en", "zh-HK", ("eng_Latn", "zho_Hans", "zh-HK")),
        ("en", "yue", ("eng_Latn", "yue_Hant")),
        ("zh", "en", ("zho_Hans", "eng_Latn")),
        ("en", "fr", ("eng_Latn", "fra_Latn")),
    ]:
        text = ZH[0] if source == "zh" else EN[1]
        answer = libre(nllb, q=text, source=source, target=target)
        assert answer.status_code == 200, answer.text
        expected = nllb_ref.translate(text, DecodeOptions(source=codes[0], target=codes[1], convert=(*codes, None)[2]))
        assert answer.json() == {"translatedText": expected}, (source, target)


def test_auto_tells_the_language_and_the_other_one(nllb, references):
    answer = libre(nllb, q=ZH[1], source="auto", target="auto").json()
    assert answer["translatedText"] == references["nllb"].translate(
        ZH[1], DecodeOptions(source="zho_Hans", target="eng_Latn")
    )
    assert answer["detectedLanguage"]["language"] == "zh"
    deeplx = requests.post(
        f"{nllb.address}/translate", json={"text": EN[0], "source_lang": "auto", "target_lang": "ZH"}, timeout=TIMEOUT
    ).json()
    assert deeplx["data"] == references["nllb"].translate(EN[0], DecodeOptions(source="eng_Latn", target="zho_Hans"))
    assert deeplx["source_lang"] == "EN"


def test_the_stream_and_the_language_lists_know_the_pack(nllb, references):
    stream = requests.post(f"{nllb.address}/stream", json={"q": EN[2], "source": "en", "target": "de"}, timeout=TIMEOUT)
    assert stream.status_code == 200 and 'event: start\ndata: {"source": "en", "target": "de"}' in stream.text
    listed = {
        entry["code"]: entry["targets"] for entry in requests.get(f"{nllb.address}/languages", timeout=TIMEOUT).json()
    }
    assert {"zh", "zh-Hans", "zh-Hant", "yue", "fr", "de"} <= set(listed["en"]) and "en" in listed["de"]
    targets = requests.get(f"{nllb.address}/v2/languages", params={"type": "target"}, timeout=TIMEOUT).json()
    assert {"ZH-HANS", "ZH-HANT", "DE"} <= {entry["language"] for entry in targets}


def test_a_one_way_pack_goes_before_a_many_to_many_one(serve, tiny_pack, tiny_many_pack, tiny_translator, references):
    server = serve([tiny_many_pack("mbart50"), tiny_pack])
    english_chinese = libre(server, q=EN[1], source="en", target="zh-Hant").json()["translatedText"]
    assert english_chinese == tiny_translator.translate(EN[1], DecodeOptions(target="cmn_Hans", convert="zh-TW"))
    french = libre(server, q="Bonjour.", source="fr", target="zh").json()["translatedText"]
    assert french == references["mbart50"].translate("Bonjour.", DecodeOptions(source="fr_XX", target="zh_CN"))
    refused = libre(server, q=EN[1], source="en", target="hu")
    assert refused.status_code == 400 and "no installed model translates into hu" in refused.json()["error"]
