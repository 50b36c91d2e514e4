"""Language codes as clients send them, and their names (``auto`` is told by fanyi.langid).

Clients name Chinese many ways: LibreTranslate ``zh`` / ``zh-Hans`` / ``zh-Hant``, DeepL ``ZH`` /
``ZH-HANS`` / ``ZH-HANT``, others ``zh-CN`` / ``zh-TW`` / ``zh-HK``. All of them mean the language
"zh" of a pack and how it is written: cmn_Hans (简体), Taiwan's or Hong Kong's Traditional
(``zh-TW``, ``zh-HK``: the pack's Simplified converted by OpenCC, fanyi.variants), the model's own
cmn_Hant, or yue (粤语). A bare ``zh`` is Simplified, as in LibreTranslate and DeepL; a bare
``zh-Hant`` / ``ZH-HANT`` is Taiwan's (``variants.DEFAULT_TRADITIONAL``). The reading itself is the
router's (``fanyi.routing.requested``).
"""

from __future__ import annotations

import re

from fanyi.routing import AUTO, CANTONESE, HONG_KONG, SIMPLIFIED, TAIWAN, TRADITIONAL, Language, requested
from fanyi.variants import DEFAULT_TRADITIONAL

# The codes we answer with, per way of writing Chinese: LibreTranslate style and DeepL style.
LIBRE_CODE = {SIMPLIFIED: "zh-Hans", TRADITIONAL: "zh-Hant", TAIWAN: "zh-TW", HONG_KONG: "zh-HK", CANTONESE: "yue"}
# DeepL has one Traditional (and no Cantonese): what its ZH-HANT asks for
DEEPL_CODE = {SIMPLIFIED: "ZH-HANS", DEFAULT_TRADITIONAL: "ZH-HANT"}
NAMES = {
    "en": "English",
    "zh": "Chinese",
    "ja": "Japanese",
    "ko": "Korean",
    "fr": "French",
    "de": "German",
    "es": "Spanish",
    "it": "Italian",
    "pt": "Portuguese",
    "ru": "Russian",
    "ar": "Arabic",
    "nl": "Dutch",
    "zh-Hans": "Chinese (Simplified)",
    "zh-Hant": "Chinese (Traditional)",
    "yue": "Cantonese",
    "zh-TW": "Chinese (Traditional, Taiwan)",
    "zh-HK": "Chinese (Traditional, Hong Kong)",
}
_CODE = re.compile(r"[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*")


class UnknownLanguage(ValueError):
    pass


def parse(code: str) -> Language:
    """A client's code (any case, - or _) as a pack language and target variant (fanyi.routing.requested);
    ``auto`` stays ``auto``."""
    raw = code.strip()
    if raw.lower() == AUTO:
        return Language(AUTO)
    if not _CODE.fullmatch(raw):
        raise UnknownLanguage(f"{code!r} is not a language code")
    return requested(raw)


def name(code: str) -> str:
    return NAMES.get(code, code)
