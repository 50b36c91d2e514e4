"""Which scripts a language is written in, told by its code alone.

A script is named as Unicode names its letters' first word (``CJK`` for Han, ``LATIN``, ``CYRILLIC`` …),
so that a text's letters can be counted per script (fanyi.langid). A code may name its script (NLLB-200's
``eng_Latn``, ``zho_Hant``: ISO 15924); otherwise ``NOT_LATIN`` knows the languages written in another
script than Latin, and any other language counts as Latin-script.
"""

from __future__ import annotations

from .codes import base_language, primary_subtag

HAN, LATIN = "CJK", "LATIN"

# Han characters (the CJK blocks, their radicals and ideographic marks), as a regular expression's ranges
HAN_RANGES = r"\u2e80-\u2fdf\u3005-\u3007\u3021-\u3029\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0003ffff"
# characters of a text written without spaces: Han, kana, CJK punctuation and full-width forms
WRITTEN_WITHOUT_SPACES = rf"{HAN_RANGES}\u3000-\u303f\u3040-\u30ff\uff00-\uffef"

# languages written in Han characters
HAN_LANGUAGES = frozenset({"zh", "cmn", "yue", "wuu", "lzh", "gan", "hak", "nan"})
# written without spaces between words or sentences: how sentences are split and joined
WITHOUT_SPACES = HAN_LANGUAGES | {"ja"}
# languages known to be written in the Latin script (the documents' "already in the target script" check
# trusts no guess)
LATIN_LANGUAGES = frozenset(
    {"en", "fr", "de", "es", "it", "pt", "nl", "sv", "da", "nb", "fi", "pl", "cs", "ro", "id", "vi"}
)

# ISO 15924 codes of NLLB-200's language codes (eng_Latn, zho_Hant) → the Unicode name word
SCRIPT_CODES = {
    "Latn": (LATIN,),
    "Hans": (HAN,),
    "Hant": (HAN,),
    "Jpan": (HAN, "HIRAGANA", "KATAKANA"),
    "Kore": ("HANGUL", HAN),
    "Hang": ("HANGUL",),
    "Cyrl": ("CYRILLIC",),
    "Arab": ("ARABIC",),
    "Grek": ("GREEK",),
    "Hebr": ("HEBREW",),
    "Deva": ("DEVANAGARI",),
    "Beng": ("BENGALI",),
    "Guru": ("GURMUKHI",),
    "Gujr": ("GUJARATI",),
    "Orya": ("ORIYA",),
    "Taml": ("TAMIL",),
    "Telu": ("TELUGU",),
    "Knda": ("KANNADA",),
    "Mlym": ("MALAYALAM",),
    "Sinh": ("SINHALA",),
    "Thai": ("THAI",),
    "Laoo": ("LAO",),
    "Tibt": ("TIBETAN",),
    "Mymr": ("MYANMAR",),
    "Khmr": ("KHMER",),
    "Geor": ("GEORGIAN",),
    "Armn": ("ARMENIAN",),
    "Ethi": ("ETHIOPIC",),
    "Tfng": ("TIFINAGH",),
    "Olck": ("OL",),
    "Mtei": ("MEETEI",),
}
# Languages (ISO 639-1, or 639-3 where there is none) not written in the Latin script, for codes that
# name no script (mBART-50's zh_CN, M2M100's ru)
NOT_LATIN = {
    **dict.fromkeys(HAN_LANGUAGES, (HAN,)),
    "ja": (HAN, "HIRAGANA", "KATAKANA"),
    "ko": ("HANGUL", HAN),
    "ru": ("CYRILLIC",),
    "uk": ("CYRILLIC",),
    "be": ("CYRILLIC",),
    "bg": ("CYRILLIC",),
    "mk": ("CYRILLIC",),
    "sr": ("CYRILLIC",),
    "kk": ("CYRILLIC",),
    "ky": ("CYRILLIC",),
    "mn": ("CYRILLIC",),
    "tg": ("CYRILLIC",),
    "ba": ("CYRILLIC",),
    "tt": ("CYRILLIC",),
    "ar": ("ARABIC",),
    "fa": ("ARABIC",),
    "ur": ("ARABIC",),
    "ps": ("ARABIC",),
    "sd": ("ARABIC",),
    "ug": ("ARABIC",),
    "ckb": ("ARABIC",),
    "he": ("HEBREW",),
    "yi": ("HEBREW",),
    "el": ("GREEK",),
    "hi": ("DEVANAGARI",),
    "mr": ("DEVANAGARI",),
    "ne": ("DEVANAGARI",),
    "sa": ("DEVANAGARI",),
    "bn": ("BENGALI",),
    "as": ("BENGALI",),
    "pa": ("GURMUKHI",),
    "gu": ("GUJARATI",),
    "or": ("ORIYA",),
    "ta": ("TAMIL",),
    "te": ("TELUGU",),
    "kn": ("KANNADA",),
    "ml": ("MALAYALAM",),
    "si": ("SINHALA",),
    "th": ("THAI",),
    "lo": ("LAO",),
    "bo": ("TIBETAN",),
    "my": ("MYANMAR",),
    "km": ("KHMER",),
    "ka": ("GEORGIAN",),
    "hy": ("ARMENIAN",),
    "am": ("ETHIOPIC",),
    "ti": ("ETHIOPIC",),
}

# English and a language of each common script: a text in one of them is named by its letters alone (in a
# message saying no installed pack reads it), where only the languages of the installed packs would be guessed
TOLD_BY_SCRIPT = ("en", "zh", "ja", "ko", "ru", "ar", "he", "el", "hi", "th")


def scripts_of(code: str) -> tuple[str, ...]:
    """The scripts a language code is written in."""
    parts = code.replace("-", "_").split("_")
    for part in parts[1:]:
        if part in SCRIPT_CODES:
            return SCRIPT_CODES[part]
    return NOT_LATIN.get(base_language(code), (LATIN,))


def is_cjk_language(code: str) -> bool:
    """Chinese, Japanese and their variants ("zh", "zh-CN", "cmn_Hans", "yue", "ja"): written without spaces."""
    return primary_subtag(code) in WITHOUT_SPACES
