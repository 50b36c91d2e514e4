"""Language codes of every style read as one language: ISO 639-1 and 639-3, BCP 47, and the models' own.

Clients and models name languages many ways: ``en``, ``EN-US`` (DeepL), ``en_XX`` (mBART-50),
``eng_Latn`` (NLLB-200), ``eng`` (OPUS-MT's configurations); ``zh-TW``, ``ZH-HANT``, ``zho_Hant`` and
``cmn_Hant`` are Chinese written in Traditional characters, a bare ``zh`` is Simplified. ``base_language``
gives the ISO 639-1 code the sentence splitter, the language names and the language detector know a
language by; ``language_of`` gives that and, for Chinese, how it is written (fanyi.languages.chinese);
``requested`` reads a code as a client or the command line asks for it.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from .chinese import CANTONESE, DEFAULT_TRADITIONAL, REGION_OF_SUBTAG, SIMPLIFIED, TRADITIONAL, VARIANT_OF_SUBTAG

AUTO = "auto"  # a source told by the text; a target that is "the other language" of the text
ENGLISH = "en"
CHINESE = "zh"  # however written: the way (简体, 繁體, 粤语) is said apart
MULTIPLE = "mul"  # ISO 639-2 "multiple languages": a many-to-many pack's source_lang and target_lang

# ISO 639-3 codes (NLLB-200's, OPUS-MT's) of languages that have an ISO 639-1 code; "zhx" (ISO 639-5: the
# Chinese languages) is what multi-variety models such as opus-mt-tc-bible-big-zhx-en read
# fmt: off
ALIASES = {
    "afr": "af", "amh": "am", "bak": "ba", "bel": "be", "bul": "bg", "ben": "bn", "bos": "bs", "cat": "ca",
    "ces": "cs", "cym": "cy", "dan": "da", "deu": "de", "ell": "el", "eng": "en", "spa": "es", "est": "et",
    "fin": "fi", "fra": "fr", "gle": "ga", "gla": "gd", "glg": "gl", "guj": "gu", "hau": "ha", "heb": "he",
    "hin": "hi", "hrv": "hr", "hat": "ht", "hun": "hu", "hye": "hy", "ind": "id", "ibo": "ig", "isl": "is",
    "ita": "it", "jpn": "ja", "jav": "jv", "kat": "ka", "kaz": "kk", "khm": "km", "kan": "kn", "kor": "ko",
    "ltz": "lb", "lug": "lg", "lin": "ln", "lao": "lo", "lit": "lt", "lvs": "lv", "plt": "mg", "mkd": "mk",
    "mal": "ml", "khk": "mn", "mar": "mr", "zsm": "ms", "mya": "my", "npi": "ne", "nld": "nl", "nso": "ns",
    "oci": "oc", "ory": "or", "pan": "pa", "pol": "pl", "pbt": "ps", "por": "pt", "ron": "ro", "rus": "ru",
    "snd": "sd", "sin": "si", "slk": "sk", "slv": "sl", "som": "so", "als": "sq", "srp": "sr", "ssw": "ss",
    "sun": "su", "swe": "sv", "swh": "sw", "tam": "ta", "tel": "te", "tha": "th", "tgl": "tl", "tsn": "tn",
    "tur": "tr", "ukr": "uk", "urd": "ur", "uzn": "uz", "vie": "vi", "wol": "wo", "xho": "xh", "ydd": "yi",
    "yor": "yo", "zho": "zh", "cmn": "zh", "zul": "zu", "bod": "bo", "uig": "ug", "fil": "tl", "zhx": "zh",
}
# fmt: on
CHINESE_CODES = frozenset({"zh", "cmn", "zho", "chi", "zhx"})  # codes of Chinese
# LibreTranslate's own code for Chinese written in Traditional characters (its instances list "zt"; Subtitle
# Edit and SillyTavern send it), which no ISO 639 code is: read as zh-Hant
_LIBRETRANSLATE = {"zt": "zh-hant"}


def base_language(code: str) -> str:
    """A model's language code as the splitter and joiner read it: zh_CN → zh, zho_Hans → zh, eng_Latn → en."""
    base = code.replace("-", "_").split("_")[0].lower()
    return ALIASES.get(base, base)


def primary_subtag(code: str) -> str:
    """The code's first part, lower case, as it is written: no ISO 639-3 code is read as its 639-1 one."""
    return code.lower().replace("_", "-").split("-")[0]


def split_script(code: str) -> tuple[str, str]:
    """("zho", "Hans") for zho_Hans and zh-Hant (a translation LLM's BCP 47 code); ("zh", "") for zh_CN (a
    region, not a script) and zh."""
    base, _, rest = code.replace("-", "_").partition("_")
    return base, rest if len(rest) == 4 else ""


def _subtags(code: str) -> list[str]:
    """zh_Hant_TW → ["zh", "hant", "tw"]; LibreTranslate's zt → ["zh", "hant"]."""
    lowered = code.strip().lower()
    return _LIBRETRANSLATE.get(lowered, lowered).replace("_", "-").split("-")


@dataclass(frozen=True)
class Language:
    code: str  # as one-way packs name languages: "en", "zh"
    variant: str | None = None  # how Chinese is written (one of chinese.VARIANTS); None for other languages


@functools.lru_cache(maxsize=4096)
def language_of(code: str) -> Language:
    """A language code of any style (a client's, BCP 47, a pack's own) as a Language."""
    base, *subtags = _subtags(code)
    if base == CANTONESE:
        return Language("zh", CANTONESE)
    if base in CHINESE_CODES:
        return Language("zh", next((VARIANT_OF_SUBTAG[s] for s in subtags if s in VARIANT_OF_SUBTAG), SIMPLIFIED))
    return Language(base_language(base))


def requested(code: str) -> Language:
    """A language as a client or the command line asks for it: as ``language_of`` reads it, except that
    zh-TW and zh-HK (zh-Hant-TW …, zh-MO) ask for Taiwan's and Hong Kong's Traditional (CONVERTED) and a
    bare zh-Hant for the default Traditional; a pack's own codes (cmn_Hant, zho_Hant) stay the model's."""
    found = language_of(code)
    base, *subtags = _subtags(code)
    if found.code != "zh" or base != "zh":
        return found
    if region := next((REGION_OF_SUBTAG[s] for s in subtags if s in REGION_OF_SUBTAG), None):
        return Language("zh", region)
    return Language("zh", DEFAULT_TRADITIONAL) if found.variant == TRADITIONAL else found
