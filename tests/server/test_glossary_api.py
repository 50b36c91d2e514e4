"""A glossary through the local API: the request's own (Fanyi's `glossary` field), else the app's, and LLM packs."""

from __future__ import annotations

import pytest
import requests

from fanyi.engine.options import DecodeOptions
from fanyi.engine.translator import Translator

TERMS = (("station", "车站"),)


class Recording(Translator):
    """The tiny pack's Translator, remembering the options each batch asked for."""

    asked: list[DecodeOptions] = []

    def translate_results(self, texts, options=None, progress=None, cancel=None, contexts=None):
        Recording.asked.append(options)
        return super().translate_results(texts, options, progress, cancel, contexts)


def test_the_request_brings_its_glossary_else_the_apps_applies(serve, tiny_pack):
    Recording.asked = []
    apps = []
    server = serve(
        [tiny_pack],
        opener=lambda path: Recording.open(path, threads=1),
        glossary=lambda source, target: apps.append((source, target)) or (("morning", "早上"),),
    )
    url = server.address
    answer = requests.post(
        f"{url}/translate",
        json={"q": "Where is the station?", "source": "en", "target": "zh", "glossary": [["station", "车站"]]},
        timeout=60,
    )
    assert answer.status_code == 200 and Recording.asked[-1].glossary == TERMS
    answer = requests.post(f"{url}/translate", json={"q": "Good morning.", "source": "en", "target": "zh"}, timeout=60)
    assert answer.status_code == 200 and Recording.asked[-1].glossary == (("morning", "早上"),)
    assert apps and apps[-1] == ("en", "zh")
    deepl = requests.post(
        f"{url}/v2/translate",
        json={"text": ["Where is the station?"], "target_lang": "ZH", "glossary": {"station": "车站"}},
        timeout=60,
    )
    assert deepl.status_code == 200 and Recording.asked[-1].glossary == TERMS
    csv = requests.post(
        f"{url}/translate",
        json={"q": "x station", "source": "en", "target": "zh", "glossary": "term,translation\nstation,车站\n"},
        timeout=60,
    )
    assert csv.status_code == 200 and Recording.asked[-1].glossary == TERMS


def test_a_bad_glossary_is_a_400_in_the_protocols_shape(serve, tiny_pack):
    url = serve([tiny_pack]).address
    bad = requests.post(
        f"{url}/translate", json={"q": "Hi.", "source": "en", "target": "zh", "glossary": [["x"]]}, timeout=60
    )
    assert bad.status_code == 400 and "glossary must be" in bad.json()["error"]
    bad = requests.post(
        f"{url}/v2/translate", json={"text": ["Hi."], "target_lang": "ZH", "glossary": "a,b,c\n"}, timeout=60
    )
    assert bad.status_code == 400 and "not 3" in bad.json()["message"]


@pytest.mark.parametrize("kind", ["qwen3", "hunyuan", "gemma3", "translategemma"])
def test_an_int4_llm_pack_answers_through_the_api(serve, tiny_llm_pack, kind):
    pack = tiny_llm_pack(kind, "int4")
    url = serve([pack]).address
    reference = Translator.open(pack, threads=1)
    answer = requests.post(f"{url}/translate", json={"q": "Good morning.", "source": "en", "target": "zh"}, timeout=120)
    assert answer.status_code == 200
    assert answer.json()["translatedText"] == reference.translate(
        "Good morning.", DecodeOptions(source="en", target="zh")
    )
    languages = requests.get(f"{url}/languages", timeout=60).json()
    assert {"en", "zh"} <= {entry["code"] for entry in languages}
