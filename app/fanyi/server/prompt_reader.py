"""The translation requests inside chat prompts: what the OpenAI and Ollama endpoints answer with a translation
pack (MarianMT, many-to-many) rather than a chat model.

Translation tools send a chat model an instruction and the text: a system message and a user message, or one
user message holding both. Each tool's template is read by a rule written from its source (the tests cite
them): where the text is (between 🔤 marks, triple quotes, after "Input:" or "Source Text:", after the
instruction's colon, or the whole user message when a system message instructs), and the target language,
named after "to" / "into" / "翻译成" (a language's English or Chinese name, or a code). Two tools ask for JSON
and get it: KISS Translator's batch mode (``{"targetLanguage", "segments": [{"id", "text"}]}`` answered
``{"translations": [{"id", "text", "sourceLanguage"}]}``, or its "ID | text" lines or ``<root><t>`` XML when its
system prompt asks for those) and BabelDOC's paragraphs (``[{"id", "input"}]`` answered ``[{"id",
"output"}]``). A prompt none of them reads is refused with one line naming what works. No Qt, no HTTP.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from fanyi.languages import BCP47, CANTONESE, HONG_KONG, TAIWAN
from fanyi.languages.names import NAMES

Reply = Callable[[list[str], list[str]], str]  # (translations, their source languages) → the assistant's content

UNREADABLE = (
    "this model translates; it cannot answer this conversation. It reads a translation request as the "
    'translation tools send it: an instruction naming the target language ("Translate into Simplified '
    'Chinese:", "翻译成中文") and the text (in the same message after a colon, between """ or 🔤 marks, after '
    "\"Input:\", or as the user message under a system instruction), or KISS Translator's and BabelDOC's JSON; "
    "any other conversation needs an LLM pack (HY-MT1.5, Qwen3, Gemma 3) named as the model"
)

# Languages by the names prompts give them (matched case-insensitively), besides every English name; a code
# (zh-CN, zh-Hant, en) is passed on as it is, for the router to read
_CHINESE_NAMES = {
    "Simplified Chinese": "zh",
    "Chinese Simplified": "zh",
    "Chinese (Simplified)": "zh",
    "简体中文": "zh",
    "中文简体": "zh",
    "简体": "zh",
    "中文": "zh",
    "汉语": "zh",
    "Chinese": "zh",
    "Simplified-Chinese": "zh",  # Easydict's names (EZLanguageModel.m), and its prompts' (queryLanguageName)
    "简体中文白话文": "zh",
    "Traditional-Chinese": BCP47[TAIWAN],
    "繁体中文白话文": BCP47[TAIWAN],
    "Traditional Chinese": BCP47[TAIWAN],
    "Chinese Traditional": BCP47[TAIWAN],
    "Chinese (Traditional)": BCP47[TAIWAN],
    "繁體中文": BCP47[TAIWAN],
    "繁体中文": BCP47[TAIWAN],
    "中文繁體": BCP47[TAIWAN],
    "中文繁体": BCP47[TAIWAN],
    "繁體": BCP47[TAIWAN],
    "繁体": BCP47[TAIWAN],
    "正體中文": BCP47[TAIWAN],
    "Hong Kong Traditional Chinese": BCP47[HONG_KONG],
    "香港繁體": BCP47[HONG_KONG],
    "Cantonese": BCP47[CANTONESE],
    "粤语": BCP47[CANTONESE],
    "粵語": BCP47[CANTONESE],
    "英文": "en",
    "英语": "en",
    "英語": "en",
    "American English": "en",
    "British English": "en",
    "日语": "ja",
    "日文": "ja",
    "韩语": "ko",
    "法语": "fr",
    "德语": "de",
    "西班牙语": "es",
    "俄语": "ru",
}
_CODES = r"[a-z]{2,3}(?:[-_][A-Za-z]{2,4}){0,2}"


def _language_table() -> dict[str, str]:
    table = {name.lower(): code for code, name in NAMES.items()}
    table.update({name.lower(): code for name, code in _CHINESE_NAMES.items()})
    return table


_LANGUAGES = _language_table()
_NAME = "|".join(re.escape(n) for n in sorted(_LANGUAGES, key=len, reverse=True))
# the target: a language named right after a cue ("into", "to", "翻译成" …), the last such in the instruction
_TARGET = re.compile(
    rf"(?:\b(?:into|to)\s+|(?:翻译成|翻译为|翻譯成|翻譯為|译成|譯成|译为|译作)\s*)(?:the\s+)?[\"'“「]?({_NAME}|{_CODES})(?![\w-])",
    re.IGNORECASE,
)
_TRANSLATE = re.compile(r"translat|翻译|翻譯|译", re.IGNORECASE)


class Unreadable(ValueError):
    """A conversation that is not a translation request any known tool sends."""


@dataclass(frozen=True)
class Reading:
    texts: list[str]
    target: str  # a code the router reads ("zh", "zh-TW", "en", …)
    reply: Reply = field(repr=False)
    html: bool = False  # the texts hold inline tags to keep (BabelDOC's, KISS's)
    glossary: tuple[tuple[str, str], ...] | None = None  # the tool's own terms (KISS's "glossary")


def target_of(instruction: str) -> str | None:
    """The language an instruction asks for, as a code; None when it names none after a cue."""
    found = [m.group(1) for m in _TARGET.finditer(instruction)]
    for name in reversed(found):
        code = _LANGUAGES.get(name.lower())
        if code is not None:
            return code
        if name.replace("_", "-").split("-")[0].lower() in NAMES:  # a code the router reads: zh-CN, zh_tw, ja
            return name
    return None


def _plain(translations: list[str], sources: list[str]) -> str:
    return translations[0]


def read(messages: Sequence[dict[str, Any]]) -> Reading:
    """The translation request of a chat conversation (OpenAI's or Ollama's messages); Unreadable if none."""
    texts = [(str(m.get("role", "")), content_of(m.get("content"))) for m in messages if isinstance(m, dict)]
    users = [content for role, content in texts if role == "user"]
    if not users:
        raise Unreadable(UNREADABLE)
    system = "\n".join(content for role, content in texts if role == "system")
    last = users[-1]
    for rule in (_kiss_json, _babeldoc_json):
        if (reading := rule(last, system)) is not None:
            return reading
    for pattern in _DELIMITED:
        if (match := pattern.search(last)) is not None:
            text = match.group("text")
            instruction = system + "\n" + last[: match.start("text")] + last[match.end("text") :]
            return _reading(text, instruction)
    if _TRANSLATE.search(system) and target_of(system) is not None:  # the system instructs, the user sends the text
        return _reading(last, system)
    head, sep, tail = _split_at_colon(last)
    if sep and _TRANSLATE.search(head) and target_of(head) is not None:
        return _reading(tail, system + "\n" + head)
    raise Unreadable(UNREADABLE)


def _reading(text: str, instruction: str) -> Reading:
    target = target_of(instruction)
    if target is None or not text.strip():
        raise Unreadable(UNREADABLE)
    return Reading([text.strip()], target, _plain)


def content_of(content: Any) -> str:
    """A message's text: a string, or OpenAI's list of parts (their text parts joined)."""
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


# Where tools put the text inside their instruction, each read from its source (tests/server/test_chat_tools.py)
_DELIMITED = (
    # Zotero PDF Translate's GPT prompt, which names the mark before it encloses the text: "as follows:  🔤 … 🔤"
    re.compile(r"(?:[:：]|\A)\s*🔤\s*(?P<text>.+?)\s*🔤", re.DOTALL),
    re.compile(r'"""\s*\n?(?P<text>.+?)\n?\s*"""', re.DOTALL),  # Pot's OpenAI and Ollama prompts
    re.compile(r"Source Text:\s*(?P<text>.+?)\s*\n+\s*Translated Text:\s*$", re.DOTALL),  # KISS (no batch)
    re.compile(r"\bInput:\s*\n(?P<text>.+)$", re.DOTALL),  # PDFMathTranslate's and BabelDOC's plain prompt
)


def _split_at_colon(message: str) -> tuple[str, str, str]:
    """An instruction and the text after its colon: ":\\n\\n" (openai-translator, STranslate), else the first
    colon of a one-line "Translate … to X: text"."""
    for sep in (":\r\n\r\n", ":\n\n", "：\n\n", ":\n", "：\n"):
        if sep in message:
            head, _, tail = message.partition(sep)
            return head, sep, tail
    match = re.search(r"[:：]\s*", message)
    if match is None:
        return message, "", ""
    return message[: match.start()], match.group(), message[match.end() :]


def _kiss_json(message: str, system: str) -> Reading | None:
    """KISS Translator's batch request (src/apis/trans.js genUserPrompt: {targetLanguage, segments, glossary?})
    and the reply its system prompt asks for (src/config/api.js defaultSystemPrompt's JSON, or the Lines and
    XML variants)."""
    data = _json(message)
    if not isinstance(data, dict) or not isinstance(data.get("segments"), list) or "targetLanguage" not in data:
        return None
    segments = [s for s in data["segments"] if isinstance(s, dict)]
    ids = [s.get("id", i) for i, s in enumerate(segments)]
    glossary = data.get("glossary")
    terms = (
        tuple((str(k), str(v) or str(k)) for k, v in glossary.items() if str(k).strip())
        if isinstance(glossary, dict) and glossary
        else None
    )

    def reply(translations: list[str], sources: list[str]) -> str:
        if "<root>" in system:
            lines = [f'<t id="{i}" sourceLanguage="{s}">{t}</t>' for i, t, s in zip(ids, translations, sources)]
            return "<root>\n" + "\n".join(lines) + "\n</root>"
        if " | " in system and "ID | Text" in system:
            return "\n".join(f"{i} | {t.replace(chr(10), '<br>')}" for i, t in zip(ids, translations))
        entries = [{"id": i, "text": t, "sourceLanguage": s} for i, t, s in zip(ids, translations, sources)]
        return json.dumps({"translations": entries}, ensure_ascii=False)

    texts = [str(s.get("text", "")) for s in segments]
    target = _LANGUAGES.get(str(data["targetLanguage"]).lower(), str(data["targetLanguage"]))
    return Reading(texts, target, reply, html=any("<" in t for t in texts), glossary=terms)


_BABELDOC_INPUT = "## Here is the input:"


def _babeldoc_json(message: str, system: str) -> Reading | None:
    """BabelDOC's paragraphs (babeldoc/format/pdf/document_il/midend/il_translator_llm_only.py PROMPT_TEMPLATE):
    a JSON array of {id, input, layout_label} after "## Here is the input:", the target after "Translate ALL
    human-readable content into"; answered as the JSON array [{id, output}] it parses."""
    if _BABELDOC_INPUT not in message:
        return None
    head, _, tail = message.rpartition(_BABELDOC_INPUT)
    items = _json(tail)
    target = target_of(head)
    if not isinstance(items, list) or target is None:
        return None
    items = [item for item in items if isinstance(item, dict)]
    ids = [item.get("id", i) for i, item in enumerate(items)]

    def reply(translations: list[str], sources: list[str]) -> str:
        return json.dumps([{"id": i, "output": t} for i, t in zip(ids, translations)], ensure_ascii=False)

    texts = [str(item.get("input", "")) for item in items]
    return Reading(texts, target, reply, html=any("<" in t for t in texts))


def _json(text: str) -> Any:
    try:
        return json.loads(text.strip())
    except ValueError:
        return None
