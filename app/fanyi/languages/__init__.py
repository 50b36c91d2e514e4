"""Languages: their codes of every style, the scripts they are written in, their names, and the ways of
writing Chinese. Every other module asks here; no Qt, no model.

- ``codes``: ISO 639-1/-3, BCP 47 and the models' own codes (en_XX, eng_Latn, >>cmn_Hans<<'s cmn_Hans,
  DeepL's ZH-HANT) read as one ``Language``; ``base_language``, ``language_of``, ``requested``.
- ``chinese``: 简体, the model's 繁體, Taiwan's and Hong Kong's Traditional (OpenCC, fanyi.variants), 粤语:
  one code each, and the codes (BCP 47, DeepL) and names each protocol and reader uses.
- ``scripts``: which scripts a code's language is written in (fanyi.langid counts letters by them).
- ``names``: English names of languages and scripts (translated by the UI).

What each model offers, in its own codes, stays with its family (fanyi.engine.families).
"""

from .chinese import (
    BCP47,
    CANTONESE,
    CONVERTED,
    DEEPL,
    DEFAULT_TRADITIONAL,
    ENGLISH_VARIANT_NAMES,
    HONG_KONG,
    SHORT_VARIANT_NAMES,
    SIMPLIFIED,
    TAIWAN,
    TRADITIONAL,
    VARIANT_NAMES,
    VARIANTS,
)
from .codes import (
    ALIASES,
    AUTO,
    CHINESE,
    ENGLISH,
    MULTIPLE,
    Language,
    base_language,
    language_of,
    primary_subtag,
    requested,
    split_script,
)
from .names import english_name, script_name
from .scripts import (
    HAN,
    HAN_LANGUAGES,
    HAN_RANGES,
    LATIN_LANGUAGES,
    TOLD_BY_SCRIPT,
    WRITTEN_WITHOUT_SPACES,
    is_cjk_language,
    scripts_of,
)

__all__ = [
    "ALIASES",
    "AUTO",
    "BCP47",
    "CANTONESE",
    "CHINESE",
    "CONVERTED",
    "DEEPL",
    "DEFAULT_TRADITIONAL",
    "ENGLISH",
    "ENGLISH_VARIANT_NAMES",
    "HAN",
    "HAN_LANGUAGES",
    "HAN_RANGES",
    "HONG_KONG",
    "LATIN_LANGUAGES",
    "MULTIPLE",
    "SHORT_VARIANT_NAMES",
    "SIMPLIFIED",
    "TAIWAN",
    "TRADITIONAL",
    "VARIANTS",
    "VARIANT_NAMES",
    "WRITTEN_WITHOUT_SPACES",
    "Language",
    "base_language",
    "english_name",
    "is_cjk_language",
    "language_of",
    "primary_subtag",
    "requested",
    "script_name",
    "scripts_of",
    "TOLD_BY_SCRIPT",
    "split_script",
]
