"""Language codes as clients send them, and their names (``auto`` is told by fanyi.langid).

Clients name Chinese many ways: LibreTranslate ``zh`` / ``zh-Hans`` / ``zh-Hant``, DeepL ``ZH`` /
``ZH-HANS`` / ``ZH-HANT``, others ``zh-CN`` / ``zh-TW`` / ``zh-HK``. All of them mean the language
"zh" of a pack and, for a pack with several target tokens (opus-mt-en-zh), which one: cmn_Hans
(简体), cmn_Hant (繁體) or yue (粤语). A bare ``zh`` is Simplified, as in LibreTranslate and DeepL.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

AUTO = "auto"
SIMPLIFIED, TRADITIONAL, CANTONESE = "cmn_Hans", "cmn_Hant", "yue"
_CHINESE = frozenset({"zh", "cmn", "zho", "chi"})
_VARIANT_OF_SUBTAG = {
    "hans": SIMPLIFIED, "cn": SIMPLIFIED, "sg": SIMPLIFIED, "my": SIMPLIFIED,
    "hant": TRADITIONAL, "tw": TRADITIONAL, "hk": TRADITIONAL, "mo": TRADITIONAL,
    "yue": CANTONESE,
}
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


@dataclass(frozen=True)
class Language:
    code: str  # as packs name languages: "en", "zh"
    variant: str | None = None  # a target token name of the pack, "cmn_Hant"; None for "the pack's own"


def parse(code: str) -> Language:
    """A client's code (any case, - or _) as a pack language and target variant; ``auto`` stays ``auto``."""
    raw = code.strip()
    if raw.lower() == AUTO:
        return Language(AUTO)
    if raw in (SIMPLIFIED, TRADITIONAL, CANTONESE):  # our own target-token names
        return Language("zh", raw)
    if not _CODE.fullmatch(raw):
        raise UnknownLanguage(f"{code!r} is not a language code")
    base, *subtags = raw.lower().replace("_", "-").split("-")
    if base == CANTONESE:
        return Language("zh", CANTONESE)
    if base in _CHINESE:
        variant = next((_VARIANT_OF_SUBTAG[s] for s in subtags if s in _VARIANT_OF_SUBTAG), SIMPLIFIED)
        return Language("zh", variant)
    return Language(base)  # en-US, EN-GB, pt-BR: the pack's language; regional spelling is the model's


def name(code: str) -> str:
    return NAMES.get(code, code)
