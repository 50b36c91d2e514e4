"""Language codes as clients send them, and the names the API answers with (``auto`` is told by fanyi.langid).

Clients name Chinese many ways: LibreTranslate ``zh`` / ``zh-Hans`` / ``zh-Hant``, DeepL ``ZH`` /
``ZH-HANS`` / ``ZH-HANT``, others ``zh-CN`` / ``zh-TW`` / ``zh-HK``. All of them mean the language
"zh" of a pack and how it is written: cmn_Hans (简体), Taiwan's or Hong Kong's Traditional
(``zh-TW``, ``zh-HK``: the pack's Simplified converted by OpenCC, fanyi.variants), the model's own
cmn_Hant, or yue (粤语). A bare ``zh`` is Simplified, as in LibreTranslate and DeepL; a bare
``zh-Hant`` / ``ZH-HANT`` is Taiwan's. The reading itself, the codes the API answers with for each way
of writing Chinese and the names of languages are fanyi.languages'.
"""

from __future__ import annotations

import re

from fanyi.languages import AUTO, BCP47, ENGLISH_VARIANT_NAMES, Language, english_name, requested

_CODE = re.compile(r"[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*")
_VARIANT_NAMES = {BCP47[way]: name for way, name in ENGLISH_VARIANT_NAMES.items()}  # "zh-TW": "Chinese (…, Taiwan)"


class UnknownLanguage(ValueError):
    pass


def parse(code: str) -> Language:
    """A client's code (any case, - or _) as a pack language and target variant (fanyi.languages.requested);
    ``auto`` stays ``auto``."""
    raw = code.strip()
    if raw.lower() == AUTO:
        return Language(AUTO)
    if not _CODE.fullmatch(raw):
        raise UnknownLanguage(f"{code!r} is not a language code")
    return requested(raw)


def name(code: str) -> str:
    """The English name of a code the API answers with ("zh-Hans": "Chinese (Simplified)"); unknown codes as
    they are."""
    return _VARIANT_NAMES.get(code) or english_name(code) or code
