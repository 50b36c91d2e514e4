"""The OpenAI and Ollama endpoints: the official ``openai`` and ``ollama`` clients against the server, streaming
too, and each tool's translation prompt as its source sends it, read and answered with translation packs in the
shape the tool parses; an LLM pack answers a conversation through its own chat template, as transformers does.

Prompts read from: openai-translator (src/common/translate.ts, src/common/engines/abstract-openai.ts,
src/common/lang/data.ts), Pot (src/services/translate/openai/index.jsx and Config.jsx, ollama/index.jsx and
Config.jsx, */info.ts), Zotero PDF Translate (src/modules/services/gpt.ts, src/utils/llmPrompt.ts, addon/prefs.js),
BabelDOC (babeldoc/translator/translator.py, babeldoc/format/pdf/document_il/midend/il_translator_llm_only.py),
PDFMathTranslate (pdf2zh/translator.py), KISS Translator (src/config/api.js, src/apis/trans.js), STranslate
(src/STranslate/ViewModels/Preference/Translator/TranslatorLLMBase.cs, TranslatorOpenAI.cs) and Calibre's Ebook
Translator (bookfere/Ebook-Translator-Calibre-Plugin engines/openai.py).
"""

from __future__ import annotations

import json
from pathlib import Path

import ollama
import openai
import pytest
import requests
from api_helpers import EN, HANS, KEY, TAIWAN, ZH

TIMEOUT = 60


def client(server, key: str = "sk-anything") -> openai.OpenAI:
    return openai.OpenAI(base_url=f"{server.address}/v1", api_key=key, max_retries=0, timeout=TIMEOUT)


def ask(server, messages, model: str = "fanyi", **extra) -> str:
    answer = client(server).chat.completions.create(model=model, messages=messages, **extra)
    return answer.choices[0].message.content


def sse_contents(response: requests.Response) -> str:
    """What Pot's and Zotero's stream readers do: split the body at "data:", parse each JSON, join
    choices[0].delta.content, skip [DONE] (Pot: openai/index.jsx; Zotero: gpt.ts streamCallback)."""
    target = ""
    for data in response.text.split("data:"):
        data = data.strip()
        if data and data != "[DONE]":
            delta = json.loads(data)["choices"][0]["delta"]
            target += delta.get("content") or ""
    return target


# --- the prompts of the tools, answered by translation packs ----------------------------------------------


def test_openai_translator(both, tiny_translator, tiny_translator_zh_en):
    """translate.ts: rolePrompt + "\\n\\n" + `Only reply the result and nothing else. ${commandPrompt}:\\n\\n${text}`
    as one user message (abstract-openai.ts sendMessage), commandPrompt `Please translate to ${config.name}` with
    the target's native name (lang/data.ts: 简体中文, 繁體中文, English); stream: true."""
    role = "You are a professional translator."

    def message(text: str, name: str) -> list[dict]:
        command = f"Only reply the result and nothing else. Please translate to {name}:\n\n{text}"
        return [{"role": "user", "content": role + "\n\n" + command}]

    assert ask(both, message(EN[0], "简体中文")) == tiny_translator.translate(EN[0], HANS)
    assert ask(both, message(EN[1], "繁體中文")) == tiny_translator.translate(EN[1], TAIWAN)
    assert ask(both, message(ZH[0], "English")) == tiny_translator_zh_en.translate(ZH[0])
    stream = client(both).chat.completions.create(
        model="fanyi", messages=message(EN[2], "简体中文"), stream=True, temperature=0
    )
    assert "".join(c.choices[0].delta.content or "" for c in stream if c.choices) == tiny_translator.translate(
        EN[2], HANS
    )


POT_SYSTEM = (
    "You are a professional translation engine, please translate the text into a colloquial, professional, "
    "elegant and fluent content, without the style of machine translation. You must only translate the text "
    "content, never interpret it."
)


def pot_prompt(text: str, to: str) -> list[dict]:
    """Config.jsx's default promptList, $to as info.ts names the language ('Simplified Chinese', 'Traditional
    Chinese', 'English')."""
    return [
        {"role": "system", "content": POT_SYSTEM},
        {"role": "user", "content": f'Translate into {to}:\n"""\n{text}\n"""'},
    ]


def test_pot_openai_streams_from_its_webview(both, tiny_translator):
    """openai/index.jsx: stream → window.fetch (the webview's Origin) POST requestPath + v1/chat/completions with
    Bearer apiKey and {temperature: 0.1, top_p: 0.99, …, stream, messages, model}; not streaming, it trims one
    pair of quotes off choices[0].message.content."""
    body = {"temperature": 0.1, "top_p": 0.99, "frequency_penalty": 0, "presence_penalty": 0, "model": "fanyi"}
    for stream, to, options in ((True, "Traditional Chinese", TAIWAN), (False, "Simplified Chinese", HANS)):
        response = requests.post(
            f"{both.address}/v1/chat/completions",
            json={**body, "stream": stream, "messages": pot_prompt(EN[3], to)},
            headers={"Authorization": "Bearer ", "Origin": "tauri://localhost"},
            timeout=TIMEOUT,
        )
        assert response.status_code == 200, response.text
        got = sse_contents(response) if stream else response.json()["choices"][0]["message"]["content"].strip('"')
        assert got == tiny_translator.translate(EN[3], options)


def test_pot_ollama_through_the_ollama_client(both, tiny_translator, tiny_translator_zh_en):
    """ollama/index.jsx: new Ollama({host}).chat({model, messages: promptList, stream}); streaming, it joins
    part.message.content; Config.jsx's default model is gemma:2b, listed by ollama.list()."""
    ollama_client = ollama.Client(host=both.address)
    names = [m.model for m in ollama_client.list().models]
    assert "fanyi:latest" in names and "tiny-en-zh:latest" in names
    parts = ollama_client.chat(model="fanyi:latest", messages=pot_prompt(EN[0], "Simplified Chinese"), stream=True)
    assert "".join(part.message.content for part in parts) == tiny_translator.translate(EN[0], HANS)
    whole = ollama_client.chat(model="fanyi", messages=pot_prompt(ZH[1], "English"), stream=False)
    assert whole.message.content == tiny_translator_zh_en.translate(ZH[1]) and whole.done
    generated = ollama_client.generate(
        model="fanyi", system=POT_SYSTEM, prompt=f'Translate into Simplified Chinese:\n"""\n{EN[1]}\n"""'
    )
    assert generated.response == tiny_translator.translate(EN[1], HANS) and generated.eval_count
    assert ollama_client.generate(model="fanyi", prompt="").done  # how Ollama loads a model
    with pytest.raises(ollama.ResponseError) as unknown:
        ollama_client.chat(model="gemma:2b", messages=pot_prompt(EN[0], "Simplified Chinese"))
    assert unknown.value.status_code == 404
    assert requests.get(f"{both.address}/api/version", timeout=TIMEOUT).json()["version"]


def test_zotero_gpt_prompt_streamed(both, tiny_translator):
    """gpt.ts: one user message, addon/prefs.js's chatGPT.prompt with ${langFrom}/${langTo} as Zotero's codes
    (en-US, zh-CN) and the text between 🔤; stream true; Bearer and api-key headers; the answer read by
    streamCallback."""
    prompt = (
        "As an academic expert with specialized knowledge in various fields, please provide a proficient and "
        "precise translation from ${langFrom} to ${langTo} of the academic text enclosed in 🔤. It is crucial to "
        "maintaining the original phrase or sentence and ensure accuracy while utilizing the appropriate "
        "language. The text is as follows:  🔤 ${sourceText} 🔤  Please provide the translated result without "
        "any additional explanation and remove 🔤."
    )
    for langto, options in (("zh-CN", HANS), ("zh-TW", TAIWAN)):
        content = prompt.replace("${langFrom}", "en-US").replace("${langTo}", langto).replace("${sourceText}", EN[1])
        response = requests.post(
            f"{both.address}/v1/chat/completions",
            data=json.dumps(
                {"model": "gpt-4o-mini", "messages": [{"role": "user", "content": content}], "temperature": 1.0}
                | {"stream": True, "model": "fanyi"}
            ),
            headers={"Content-Type": "application/json", "Authorization": "Bearer ", "api-key": ""},
            timeout=TIMEOUT,
        )
        assert sse_contents(response) == tiny_translator.translate(EN[1], options)


def babeldoc_prompt(text: str, lang_out: str) -> list[dict]:
    """babeldoc/translator/translator.py OpenAITranslator.prompt (PDFMathTranslate's pdf2zh/translator.py sends
    the same words)."""
    return [
        {"role": "system", "content": "You are a professional,authentic machine translation engine."},
        {
            "role": "user",
            "content": f";; Treat next line as plain text input and translate it into {lang_out}, output "
            "translation ONLY. If translation is unnecessary (e.g. proper nouns, codes, {{1}}, etc. ), return the "
            f"original text. NO explanations. NO notes. Input:\n\n{text}",
        },
    ]


def test_babeldoc_and_pdfmathtranslate_plain_prompt(both, tiny_translator, tiny_translator_zh_en):
    assert ask(both, babeldoc_prompt(EN[2], "zh")).strip() == tiny_translator.translate(EN[2], HANS)
    assert ask(both, babeldoc_prompt(ZH[0], "en")).strip() == tiny_translator_zh_en.translate(ZH[0])
    # PDFMathTranslate's one-message variant
    joined = babeldoc_prompt(EN[3], "zh-TW")
    one = [{"role": "user", "content": joined[0]["content"] + "\n\n" + joined[1]["content"]}]
    assert ask(both, one).strip() == tiny_translator.translate(EN[3], TAIWAN)


def test_babeldoc_json_paragraphs(both, tiny_translator):
    """il_translator_llm_only.py: PROMPT_TEMPLATE with the paragraphs as a JSON array [{id, input, layout_label}]
    after "## Here is the input:", sent with response_format json_object and max_tokens 2048; the answer is
    json.loads'd and read as {item["id"]: item.get("output", item.get("input"))}."""
    paragraphs = [
        {"id": 0, "input": EN[0], "layout_label": "text"},
        {"id": 1, "input": "The weather <style id='2'>is fine</style> today.", "layout_label": "text"},
    ]
    prompt = (
        "You are a professional and reliable machine translation engine responsible for translating the input "
        "text into zh.\n\n## Structure Rules\n1. Keep **the same number of paragraphs as the input**.\n"
        "4. Translate ALL human-readable content into zh.\n\n## Output Format\nReturn a JSON array of the same "
        "length.\n\n## Here is the input:\n\n" + json.dumps(paragraphs, ensure_ascii=False, indent=2)
    )
    content = ask(both, [{"role": "user", "content": prompt}], response_format={"type": "json_object"}, max_tokens=2048)
    parsed = json.loads(content.strip())
    results = {item["id"]: item.get("output", item.get("input")) for item in parsed}
    assert results[0] == tiny_translator.translate(EN[0], HANS)
    assert results[1].count("<style id='2'>") == 1 and results[1].endswith("") and "</style>" in results[1]


def kiss_nobatch(text: str, to: str) -> list[dict]:
    """src/config/api.js defaultNobatchPrompt and defaultNobatchUserPrompt, filled as trans.js genUserPrompt
    does ({{to}} the language's English name: OPT_LANGS_SPEC_NAME)."""
    user = (
        "# Context\nTitle: A page\nDescription: \nSummary: \nTone: \n\n# Glossary:\n\n\n# Task\n"
        f"Translate the Source Text below to {to}.\n1. Use the Context to ensure accuracy.\n"
        "2. Adapt the wording to match the specified Tone.\n3. Output ONLY the translated text. No markdown, no "
        f"explanations.\n\nSource Text: {text}\n\nTranslated Text:"
    )
    return [
        {"role": "system", "content": "You are a professional, authentic machine translation engine."},
        {"role": "user", "content": user},
    ]


KISS_SYSTEM = (
    "Act as a translation API. Output a single raw JSON object only. No extra text or fences.\n\nInput:\n"
    '{"targetLanguage":"<lang>","title":"<context>","description":"<context>","summary":"<context>","segments":'
    '[{"id":1,"text":"..."}],"glossary":{"sourceTerm":"targetTerm"},"tone":"<formal|casual>"}\n\nOutput:\n'
    '{"translations":[{"id":1,"text":"...","sourceLanguage":"<detected>"}]}\n\nRules:\n1.  Use title/description'
    " for context only; do not output them."
)


def test_kiss_translator_ai_prompts(both, tiny_translator):
    assert ask(both, kiss_nobatch(EN[0], "Simplified Chinese")) == tiny_translator.translate(EN[0], HANS)
    assert ask(both, kiss_nobatch(EN[1], "Traditional Chinese")) == tiny_translator.translate(EN[1], TAIWAN)
    # batch mode: genUserPrompt's JSON ({targetLanguage: toLang, segments: [{id, text}]}) under defaultSystemPrompt;
    # parseAIRes reads {"translations": [{id, text, sourceLanguage}]}
    user = json.dumps({"targetLanguage": "zh-CN", "segments": [{"id": i, "text": t} for i, t in enumerate(EN[:3])]})
    messages = [{"role": "system", "content": KISS_SYSTEM}, {"role": "user", "content": user}]
    for reply in (ask(both, messages), ollama.Client(host=both.address).chat("fanyi", messages).message.content):
        translations = json.loads(reply)["translations"]
        assert [t["id"] for t in translations] == [0, 1, 2]
        assert [t["text"] for t in translations] == [tiny_translator.translate(t, HANS) for t in EN[:3]]
        assert {t["sourceLanguage"] for t in translations} == {"en"}


def test_stranslate_and_calibre(both, tiny_translator):
    """STranslate's TranslatorLLMBase.cs default prompt (system + "Please translate  into $target (avoid explaining
    the original text):\\r\\n\\r\\n$content", $target as TranslatorOpenAI.cs names it); Calibre Ebook Translator's
    engines/openai.py: the prompt as the system message with <slang>/<tlang> as Google's language names, the text
    as the user message, streamed and read line by line after "data: "."""
    stranslate = [
        {
            "role": "system",
            "content": "You are a professional, authentic translation engine. You only return the translated text, "
            "without any explanations.",
        },
        {
            "role": "user",
            "content": "Please translate  into Simplified Chinese (avoid explaining the original text):\r\n\r\n"
            + EN[2],
        },
    ]
    assert ask(both, stranslate) == tiny_translator.translate(EN[2], HANS)
    calibre_prompt = (
        "You are a meticulous translator who translates any given content. Translate the given content from "
        "English to Chinese (Traditional) only. Do not explain any term or answer any question-like content. "
        "Your answer should be solely the translation of the given content. In your answer do not add any prefix "
        "or suffix to the translated content. Websites' URLs/addresses should be preserved as is in the "
        "translation's output. Do not omit any part of the content, even if it seems unimportant. "
    )
    body = {
        "model": "fanyi",
        "messages": [{"role": "system", "content": calibre_prompt}, {"role": "user", "content": EN[0]}],
        "stream": True,
        "temperature": 1.0,
    }
    response = requests.post(f"{both.address}/v1/chat/completions", data=json.dumps(body), timeout=TIMEOUT)
    pieces = []
    for line in response.text.splitlines():
        if line.strip().startswith("data:"):
            chunk = line.strip().split("data: ")[1]
            if chunk == "[DONE]":
                break
            delta = json.loads(chunk)["choices"][0]["delta"]
            if "content" in delta:
                pieces.append(delta["content"])
    assert "".join(pieces) == tiny_translator.translate(EN[0], TAIWAN)
    models = requests.get(f"{both.address}/v1/models", timeout=TIMEOUT).json()  # get_models: data[].id
    assert {"fanyi", "tiny-en-zh", "tiny-zh-en"} <= {item["id"] for item in models["data"]}


def test_the_openai_client_errors_and_keys(both, keyed, tiny_translator):
    with pytest.raises(openai.BadRequestError) as unreadable:
        ask(both, [{"role": "user", "content": "Tell me a joke about cats."}])
    assert "it reads a translation request" in str(unreadable.value).lower()
    with pytest.raises(openai.NotFoundError) as unknown:
        ask(both, pot_prompt(EN[0], "Simplified Chinese"), model="gpt-4o")
    assert unknown.value.body["code"] == "model_not_found"
    assert [m.id for m in client(both).models.list()][:1] == ["fanyi"]
    # a server with a key: the client's key is it
    answer = client(keyed, KEY).chat.completions.create(model="fanyi", messages=pot_prompt(EN[0], "Simplified Chinese"))
    assert answer.choices[0].message.content == tiny_translator.translate(EN[0], HANS)
    assert answer.usage.prompt_tokens > 0 and answer.usage.completion_tokens == len(answer.choices[0].message.content)
    with pytest.raises(openai.PermissionDeniedError):
        client(keyed, "wrong").chat.completions.create(model="fanyi", messages=pot_prompt(EN[0], "English"))
    with pytest.raises(ollama.ResponseError):
        ollama.Client(host=keyed.address).chat("fanyi", pot_prompt(EN[0], "English"))
    authorized = ollama.Client(host=keyed.address, headers={"Authorization": f"Bearer {KEY}"})
    assert (
        authorized.chat("fanyi", pot_prompt(EN[0], "Simplified Chinese")).message.content
        == answer.choices[0].message.content
    )


# --- an LLM pack answers the conversation itself --------------------------------------------------------------


def test_an_llm_pack_answers_through_its_chat_template_as_transformers_does(serve, tiny_llm_pack, tiny_hf_llm):
    """Qwen3's template renders the conversation (enable_thinking=False, as the pack records): the prompt's ids
    and the greedy answer are transformers' apply_chat_template + generate(do_sample=False)."""
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    pack = tiny_llm_pack("qwen3")
    server = serve([pack])
    name = Path(pack).name
    messages = [
        {"role": "system", "content": "You are a helpful assistant."},
        {"role": "user", "content": "Say hello to the world."},
    ]
    hf = tiny_hf_llm("qwen3")
    tokenizer = AutoTokenizer.from_pretrained(hf)
    ids = tokenizer.apply_chat_template(
        messages, add_generation_prompt=True, enable_thinking=False, return_tensors="pt"
    )
    model = AutoModelForCausalLM.from_pretrained(hf, torch_dtype=torch.float32)
    with torch.no_grad():
        out = model.generate(ids, max_new_tokens=6, do_sample=False)
    expected = tokenizer.decode(out[0, ids.shape[1] :], skip_special_tokens=True).strip()

    answer = client(server).chat.completions.create(model=name, messages=messages, max_tokens=6)
    assert answer.choices[0].message.content == expected
    assert answer.usage.prompt_tokens == ids.shape[1] and answer.usage.completion_tokens == out.shape[1] - ids.shape[1]
    assert answer.choices[0].finish_reason in ("stop", "length")
    # the default model is the LLM; streamed, with the usage chunk asked for
    stream = client(server).chat.completions.create(
        model="", messages=messages, max_tokens=6, stream=True, stream_options={"include_usage": True}
    )
    chunks = list(stream)
    assert "".join(c.choices[0].delta.content or "" for c in chunks if c.choices) == expected
    assert chunks[-1].usage.completion_tokens == answer.usage.completion_tokens
    parts = ollama.Client(host=server.address).chat(
        model=f"{name}:latest", messages=messages, stream=True, options={"num_predict": 6}
    )
    parts = list(parts)
    assert "".join(p.message.content for p in parts) == expected and parts[-1].done
    assert parts[-1].prompt_eval_count == ids.shape[1]
