"""Language codes as clients send them, and their names (``auto`` is told by fanyi.langid).

Clients name Chinese many ways: LibreTranslate ``zh`` / ``zh-Hans`` / ``zh-Hant``, DeepL ``ZH`` /
``ZH-HANS`` / ``ZH-HANT``, others ``zh-CN`` / ``zh-TW`` / ``zh-HK``. All of them mean the language
"zh" of a pack and, for a pack with several target tokens (opus-mt-en-zh), which one: cmn_Hans
(简体), cmn_Hant (繁體) or yue (粤语). A bare ``zh`` is Simplified, as in LibreTranslate and DeepL.
The reading itself is the router's (``fanyi.routing.language_of``), which packs' own codes share.
"""

from __future__ import annotations

import re

from fanyi.routing import AUTO, CANTONESE, SIMPLIFIED, TRADITIONAL, Language, language_of

# The codes we answer with, per target token: LibreTranslate style and DeepL style.
LIBRE_CODE = {SIMPLIFIED: "zh-Hans", TRADITIONAL: "zh-Hant", CANTONESE: "yue"}
DEEPL_CODE = {SIMPLIFIED: "ZH-HANS", TRADITIONAL: "ZH-HANT"}  # DeepL has no code for Cantonese
NAMES = {
    "en": "English", "zh": "Chinese", "ja": "Japanese", "ko": "Korean", "fr": "French", "de": "German",
    "es": "Spanish", "it": "Italian", "pt": "Portuguese", "ru": "Russian", "ar": "Arabic", "nl": "Dutch",
    "zh-Hans": "Chinese (Simplified)", "zh-Hant": "Chinese (Traditional)", "yue": "Cantonese",
}
_CODE = re.compile(r"[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*")


class UnknownLanguage(ValueError):
    pass


def parse(code: str) -> Language:
    """A client's code (any case, - or _) as a pack language and target variant (fanyi.routing.language_of);
    ``auto`` stays ``auto``."""
    raw = code.strip()
    if raw.lower() == AUTO:
        return Language(AUTO)
    if not _CODE.fullmatch(raw):
        raise UnknownLanguage(f"{code!r} is not a language code")
    return language_of(raw)


def name(code: str) -> str:
    return NAMES.get(code, code)
