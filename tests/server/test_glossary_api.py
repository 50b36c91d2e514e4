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


def test_the_glossary_applies_to_chat_and_tool_requests(serve, tiny_pack):
    """The app's glossary reaches the translation of an OpenAI chat prompt (Pot's), an Ollama one, and MTranServer's,
    Immersive Translate's and Google's requests; KISS Translator's batch JSON brings its own."""
    import json

    import ollama
    import openai

    Recording.asked = []
    server = serve(
        [tiny_pack],
        opener=lambda path: Recording.open(path, threads=1),
        glossary=lambda source, target: (("morning", "早上"),),
    )
    url = server.address
    pot = [
        {"role": "system", "content": "You are a professional translation engine."},
        {"role": "user", "content": 'Translate into Simplified Chinese:\n"""\nGood morning.\n"""'},
    ]
    openai.OpenAI(base_url=f"{url}/v1", api_key="x", max_retries=0).chat.completions.create(model="fanyi", messages=pot)
    assert Recording.asked[-1].glossary == (("morning", "早上"),)
    Recording.asked.clear()
    ollama.Client(host=url).chat("fanyi", pot)
    assert Recording.asked[-1].glossary == (("morning", "早上"),)
    for path, body in (
        ("/translate", {"text": "Good morning.", "from": "en", "to": "zh"}),
        ("/imme", {"source_lang": "en", "target_lang": "zh-CN", "text_list": ["Good morning, all."]}),
        ("/language/translate/v2", {"q": "Good morning, you.", "target": "zh-CN", "format": "text"}),
    ):
        Recording.asked.clear()
        assert requests.post(f"{url}{path}", json=body, timeout=60).status_code == 200
        assert Recording.asked[-1].glossary == (("morning", "早上"),), path
    kiss = json.dumps(
        {
            "targetLanguage": "zh-CN",
            "segments": [{"id": 0, "text": "Where is the station?"}],
            "glossary": {"station": "车站"},
        }
    )
    Recording.asked.clear()
    openai.OpenAI(base_url=f"{url}/v1", api_key="x", max_retries=0).chat.completions.create(
        model="fanyi",
        messages=[{"role": "system", "content": "Act as a translation API."}, {"role": "user", "content": kiss}],
    )
    assert Recording.asked[-1].glossary == TERMS


def test_an_llm_pack_named_translates_a_tools_prompt_with_its_own_instruction(serve, tiny_llm_pack, tiny_pack):
    """A translation prompt sent to an LLM pack by name is translated by that pack (not the one-way pack the
    router would take first) through its card's instruction, as /translate is: the glossary applies there too."""
    import openai

    pack = tiny_llm_pack("hunyuan")
    server = serve([tiny_pack, pack])
    reference = Translator.open(pack, threads=1)
    pot = [{"role": "user", "content": 'Translate into Simplified Chinese:\n"""\nGood morning.\n"""'}]
    client = openai.OpenAI(base_url=f"{server.address}/v1", api_key="x", max_retries=0)
    from pathlib import Path

    answer = client.chat.completions.create(model=Path(pack).name, messages=pot).choices[0].message.content
    assert answer == reference.translate("Good morning.", DecodeOptions(source="en", target="zh"))
