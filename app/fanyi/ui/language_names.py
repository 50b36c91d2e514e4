"""Names of the languages of many-to-many packs, in the UI language.

The models name languages by their own codes: ISO 639-1 with a region (mBART-50: en_XX, zh_CN),
ISO 639-1 or 639-3 (M2M100: en, ast) or ISO 639-3 with a script (NLLB-200: eng_Latn, zho_Hant).
Names are English here and translated through Qt (context "languages", assets/i18n); a script is
named where a list holds one language in two scripts, and always for Chinese.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from fanyi.engine.language_choice import ISO639_1

# lupdate finds the names only where QT_TRANSLATE_NOOP is written out
NAMES = {
    "af": QT_TRANSLATE_NOOP("languages", "Afrikaans"),
    "am": QT_TRANSLATE_NOOP("languages", "Amharic"),
    "ar": QT_TRANSLATE_NOOP("languages", "Arabic"),
    "ast": QT_TRANSLATE_NOOP("languages", "Asturian"),
    "az": QT_TRANSLATE_NOOP("languages", "Azerbaijani"),
    "ba": QT_TRANSLATE_NOOP("languages", "Bashkir"),
    "be": QT_TRANSLATE_NOOP("languages", "Belarusian"),
    "bg": QT_TRANSLATE_NOOP("languages", "Bulgarian"),
    "bn": QT_TRANSLATE_NOOP("languages", "Bengali"),
    "br": QT_TRANSLATE_NOOP("languages", "Breton"),
    "bs": QT_TRANSLATE_NOOP("languages", "Bosnian"),
    "ca": QT_TRANSLATE_NOOP("languages", "Catalan"),
    "ceb": QT_TRANSLATE_NOOP("languages", "Cebuano"),
    "cs": QT_TRANSLATE_NOOP("languages", "Czech"),
    "cy": QT_TRANSLATE_NOOP("languages", "Welsh"),
    "da": QT_TRANSLATE_NOOP("languages", "Danish"),
    "de": QT_TRANSLATE_NOOP("languages", "German"),
    "el": QT_TRANSLATE_NOOP("languages", "Greek"),
    "en": QT_TRANSLATE_NOOP("languages", "English"),
    "es": QT_TRANSLATE_NOOP("languages", "Spanish"),
    "et": QT_TRANSLATE_NOOP("languages", "Estonian"),
    "fa": QT_TRANSLATE_NOOP("languages", "Persian"),
    "ff": QT_TRANSLATE_NOOP("languages", "Fula"),
    "fi": QT_TRANSLATE_NOOP("languages", "Finnish"),
    "fr": QT_TRANSLATE_NOOP("languages", "French"),
    "fy": QT_TRANSLATE_NOOP("languages", "Western Frisian"),
    "ga": QT_TRANSLATE_NOOP("languages", "Irish"),
    "gd": QT_TRANSLATE_NOOP("languages", "Scottish Gaelic"),
    "gl": QT_TRANSLATE_NOOP("languages", "Galician"),
    "gu": QT_TRANSLATE_NOOP("languages", "Gujarati"),
    "ha": QT_TRANSLATE_NOOP("languages", "Hausa"),
    "he": QT_TRANSLATE_NOOP("languages", "Hebrew"),
    "hi": QT_TRANSLATE_NOOP("languages", "Hindi"),
    "hr": QT_TRANSLATE_NOOP("languages", "Croatian"),
    "ht": QT_TRANSLATE_NOOP("languages", "Haitian Creole"),
    "hu": QT_TRANSLATE_NOOP("languages", "Hungarian"),
    "hy": QT_TRANSLATE_NOOP("languages", "Armenian"),
    "id": QT_TRANSLATE_NOOP("languages", "Indonesian"),
    "ig": QT_TRANSLATE_NOOP("languages", "Igbo"),
    "ilo": QT_TRANSLATE_NOOP("languages", "Ilocano"),
    "is": QT_TRANSLATE_NOOP("languages", "Icelandic"),
    "it": QT_TRANSLATE_NOOP("languages", "Italian"),
    "ja": QT_TRANSLATE_NOOP("languages", "Japanese"),
    "jv": QT_TRANSLATE_NOOP("languages", "Javanese"),
    "ka": QT_TRANSLATE_NOOP("languages", "Georgian"),
    "kk": QT_TRANSLATE_NOOP("languages", "Kazakh"),
    "km": QT_TRANSLATE_NOOP("languages", "Khmer"),
    "kn": QT_TRANSLATE_NOOP("languages", "Kannada"),
    "ko": QT_TRANSLATE_NOOP("languages", "Korean"),
    "lb": QT_TRANSLATE_NOOP("languages", "Luxembourgish"),
    "lg": QT_TRANSLATE_NOOP("languages", "Ganda"),
    "ln": QT_TRANSLATE_NOOP("languages", "Lingala"),
    "lo": QT_TRANSLATE_NOOP("languages", "Lao"),
    "lt": QT_TRANSLATE_NOOP("languages", "Lithuanian"),
    "lv": QT_TRANSLATE_NOOP("languages", "Latvian"),
    "mg": QT_TRANSLATE_NOOP("languages", "Malagasy"),
    "mk": QT_TRANSLATE_NOOP("languages", "Macedonian"),
    "ml": QT_TRANSLATE_NOOP("languages", "Malayalam"),
    "mn": QT_TRANSLATE_NOOP("languages", "Mongolian"),
    "mr": QT_TRANSLATE_NOOP("languages", "Marathi"),
    "ms": QT_TRANSLATE_NOOP("languages", "Malay"),
    "my": QT_TRANSLATE_NOOP("languages", "Burmese"),
    "ne": QT_TRANSLATE_NOOP("languages", "Nepali"),
    "nl": QT_TRANSLATE_NOOP("languages", "Dutch"),
    "no": QT_TRANSLATE_NOOP("languages", "Norwegian"),
    "ns": QT_TRANSLATE_NOOP("languages", "Northern Sotho"),
    "oc": QT_TRANSLATE_NOOP("languages", "Occitan"),
    "or": QT_TRANSLATE_NOOP("languages", "Odia"),
    "pa": QT_TRANSLATE_NOOP("languages", "Punjabi"),
    "pl": QT_TRANSLATE_NOOP("languages", "Polish"),
    "ps": QT_TRANSLATE_NOOP("languages", "Pashto"),
    "pt": QT_TRANSLATE_NOOP("languages", "Portuguese"),
    "ro": QT_TRANSLATE_NOOP("languages", "Romanian"),
    "ru": QT_TRANSLATE_NOOP("languages", "Russian"),
    "sd": QT_TRANSLATE_NOOP("languages", "Sindhi"),
    "si": QT_TRANSLATE_NOOP("languages", "Sinhala"),
    "sk": QT_TRANSLATE_NOOP("languages", "Slovak"),
    "sl": QT_TRANSLATE_NOOP("languages", "Slovenian"),
    "so": QT_TRANSLATE_NOOP("languages", "Somali"),
    "sq": QT_TRANSLATE_NOOP("languages", "Albanian"),
    "sr": QT_TRANSLATE_NOOP("languages", "Serbian"),
    "ss": QT_TRANSLATE_NOOP("languages", "Swati"),
    "su": QT_TRANSLATE_NOOP("languages", "Sundanese"),
    "sv": QT_TRANSLATE_NOOP("languages", "Swedish"),
    "sw": QT_TRANSLATE_NOOP("languages", "Swahili"),
    "ta": QT_TRANSLATE_NOOP("languages", "Tamil"),
    "te": QT_TRANSLATE_NOOP("languages", "Telugu"),
    "th": QT_TRANSLATE_NOOP("languages", "Thai"),
    "tl": QT_TRANSLATE_NOOP("languages", "Tagalog"),
    "tn": QT_TRANSLATE_NOOP("languages", "Tswana"),
    "tr": QT_TRANSLATE_NOOP("languages", "Turkish"),
    "uk": QT_TRANSLATE_NOOP("languages", "Ukrainian"),
    "ur": QT_TRANSLATE_NOOP("languages", "Urdu"),
    "uz": QT_TRANSLATE_NOOP("languages", "Uzbek"),
    "vi": QT_TRANSLATE_NOOP("languages", "Vietnamese"),
    "wo": QT_TRANSLATE_NOOP("languages", "Wolof"),
    "xh": QT_TRANSLATE_NOOP("languages", "Xhosa"),
    "yi": QT_TRANSLATE_NOOP("languages", "Yiddish"),
    "yo": QT_TRANSLATE_NOOP("languages", "Yoruba"),
    "zh": QT_TRANSLATE_NOOP("languages", "Chinese"),
    "zu": QT_TRANSLATE_NOOP("languages", "Zulu"),
    "ace": QT_TRANSLATE_NOOP("languages", "Acehnese"),
    "acm": QT_TRANSLATE_NOOP("languages", "Mesopotamian Arabic"),
    "acq": QT_TRANSLATE_NOOP("languages", "Ta'izzi-Adeni Arabic"),
    "aeb": QT_TRANSLATE_NOOP("languages", "Tunisian Arabic"),
    "ajp": QT_TRANSLATE_NOOP("languages", "South Levantine Arabic"),
    "aka": QT_TRANSLATE_NOOP("languages", "Akan"),
    "apc": QT_TRANSLATE_NOOP("languages", "North Levantine Arabic"),
    "arb": QT_TRANSLATE_NOOP("languages", "Modern Standard Arabic"),
    "ars": QT_TRANSLATE_NOOP("languages", "Najdi Arabic"),
    "ary": QT_TRANSLATE_NOOP("languages", "Moroccan Arabic"),
    "arz": QT_TRANSLATE_NOOP("languages", "Egyptian Arabic"),
    "asm": QT_TRANSLATE_NOOP("languages", "Assamese"),
    "awa": QT_TRANSLATE_NOOP("languages", "Awadhi"),
    "ayr": QT_TRANSLATE_NOOP("languages", "Central Aymara"),
    "azb": QT_TRANSLATE_NOOP("languages", "South Azerbaijani"),
    "azj": QT_TRANSLATE_NOOP("languages", "North Azerbaijani"),
    "bam": QT_TRANSLATE_NOOP("languages", "Bambara"),
    "ban": QT_TRANSLATE_NOOP("languages", "Balinese"),
    "bem": QT_TRANSLATE_NOOP("languages", "Bemba"),
    "bho": QT_TRANSLATE_NOOP("languages", "Bhojpuri"),
    "bjn": QT_TRANSLATE_NOOP("languages", "Banjar"),
    "bo": QT_TRANSLATE_NOOP("languages", "Tibetan"),
    "bug": QT_TRANSLATE_NOOP("languages", "Buginese"),
    "cjk": QT_TRANSLATE_NOOP("languages", "Chokwe"),
    "ckb": QT_TRANSLATE_NOOP("languages", "Central Kurdish"),
    "crh": QT_TRANSLATE_NOOP("languages", "Crimean Tatar"),
    "dik": QT_TRANSLATE_NOOP("languages", "Southwestern Dinka"),
    "dyu": QT_TRANSLATE_NOOP("languages", "Dyula"),
    "dzo": QT_TRANSLATE_NOOP("languages", "Dzongkha"),
    "epo": QT_TRANSLATE_NOOP("languages", "Esperanto"),
    "eus": QT_TRANSLATE_NOOP("languages", "Basque"),
    "ewe": QT_TRANSLATE_NOOP("languages", "Ewe"),
    "fao": QT_TRANSLATE_NOOP("languages", "Faroese"),
    "pes": QT_TRANSLATE_NOOP("languages", "Western Persian"),
    "fij": QT_TRANSLATE_NOOP("languages", "Fijian"),
    "fon": QT_TRANSLATE_NOOP("languages", "Fon"),
    "fur": QT_TRANSLATE_NOOP("languages", "Friulian"),
    "fuv": QT_TRANSLATE_NOOP("languages", "Nigerian Fulfulde"),
    "grn": QT_TRANSLATE_NOOP("languages", "Guarani"),
    "hne": QT_TRANSLATE_NOOP("languages", "Chhattisgarhi"),
    "kab": QT_TRANSLATE_NOOP("languages", "Kabyle"),
    "kac": QT_TRANSLATE_NOOP("languages", "Jingpho"),
    "kam": QT_TRANSLATE_NOOP("languages", "Kamba"),
    "kas": QT_TRANSLATE_NOOP("languages", "Kashmiri"),
    "knc": QT_TRANSLATE_NOOP("languages", "Central Kanuri"),
    "kbp": QT_TRANSLATE_NOOP("languages", "Kabiyè"),
    "kea": QT_TRANSLATE_NOOP("languages", "Kabuverdianu"),
    "kik": QT_TRANSLATE_NOOP("languages", "Kikuyu"),
    "kin": QT_TRANSLATE_NOOP("languages", "Kinyarwanda"),
    "kir": QT_TRANSLATE_NOOP("languages", "Kyrgyz"),
    "kmb": QT_TRANSLATE_NOOP("languages", "Kimbundu"),
    "kon": QT_TRANSLATE_NOOP("languages", "Kikongo"),
    "kmr": QT_TRANSLATE_NOOP("languages", "Northern Kurdish"),
    "lij": QT_TRANSLATE_NOOP("languages", "Ligurian"),
    "lim": QT_TRANSLATE_NOOP("languages", "Limburgish"),
    "lmo": QT_TRANSLATE_NOOP("languages", "Lombard"),
    "ltg": QT_TRANSLATE_NOOP("languages", "Latgalian"),
    "lua": QT_TRANSLATE_NOOP("languages", "Luba-Kasai"),
    "luo": QT_TRANSLATE_NOOP("languages", "Luo"),
    "lus": QT_TRANSLATE_NOOP("languages", "Mizo"),
    "mag": QT_TRANSLATE_NOOP("languages", "Magahi"),
    "mai": QT_TRANSLATE_NOOP("languages", "Maithili"),
    "min": QT_TRANSLATE_NOOP("languages", "Minangkabau"),
    "mlt": QT_TRANSLATE_NOOP("languages", "Maltese"),
    "mni": QT_TRANSLATE_NOOP("languages", "Meitei"),
    "mos": QT_TRANSLATE_NOOP("languages", "Mossi"),
    "mri": QT_TRANSLATE_NOOP("languages", "Maori"),
    "nno": QT_TRANSLATE_NOOP("languages", "Norwegian Nynorsk"),
    "nob": QT_TRANSLATE_NOOP("languages", "Norwegian Bokmål"),
    "nus": QT_TRANSLATE_NOOP("languages", "Nuer"),
    "nya": QT_TRANSLATE_NOOP("languages", "Nyanja"),
    "gaz": QT_TRANSLATE_NOOP("languages", "West Central Oromo"),
    "pag": QT_TRANSLATE_NOOP("languages", "Pangasinan"),
    "pap": QT_TRANSLATE_NOOP("languages", "Papiamento"),
    "prs": QT_TRANSLATE_NOOP("languages", "Dari"),
    "quy": QT_TRANSLATE_NOOP("languages", "Ayacucho Quechua"),
    "run": QT_TRANSLATE_NOOP("languages", "Rundi"),
    "sag": QT_TRANSLATE_NOOP("languages", "Sango"),
    "san": QT_TRANSLATE_NOOP("languages", "Sanskrit"),
    "sat": QT_TRANSLATE_NOOP("languages", "Santali"),
    "scn": QT_TRANSLATE_NOOP("languages", "Sicilian"),
    "shn": QT_TRANSLATE_NOOP("languages", "Shan"),
    "smo": QT_TRANSLATE_NOOP("languages", "Samoan"),
    "sna": QT_TRANSLATE_NOOP("languages", "Shona"),
    "sot": QT_TRANSLATE_NOOP("languages", "Southern Sotho"),
    "srd": QT_TRANSLATE_NOOP("languages", "Sardinian"),
    "szl": QT_TRANSLATE_NOOP("languages", "Silesian"),
    "tat": QT_TRANSLATE_NOOP("languages", "Tatar"),
    "tgk": QT_TRANSLATE_NOOP("languages", "Tajik"),
    "tir": QT_TRANSLATE_NOOP("languages", "Tigrinya"),
    "taq": QT_TRANSLATE_NOOP("languages", "Tamasheq"),
    "tpi": QT_TRANSLATE_NOOP("languages", "Tok Pisin"),
    "tso": QT_TRANSLATE_NOOP("languages", "Tsonga"),
    "tuk": QT_TRANSLATE_NOOP("languages", "Turkmen"),
    "tum": QT_TRANSLATE_NOOP("languages", "Tumbuka"),
    "twi": QT_TRANSLATE_NOOP("languages", "Twi"),
    "tzm": QT_TRANSLATE_NOOP("languages", "Central Atlas Tamazight"),
    "ug": QT_TRANSLATE_NOOP("languages", "Uyghur"),
    "umb": QT_TRANSLATE_NOOP("languages", "Umbundu"),
    "vec": QT_TRANSLATE_NOOP("languages", "Venetian"),
    "war": QT_TRANSLATE_NOOP("languages", "Waray"),
    "yue": QT_TRANSLATE_NOOP("languages", "Cantonese"),
}
# NLLB's ISO 639-3 codes of languages named above by their ISO 639-1 code
ALIASES = ISO639_1
SCRIPTS = {
    "Hans": QT_TRANSLATE_NOOP("languages", "Simplified"),
    "Hant": QT_TRANSLATE_NOOP("languages", "Traditional"),
    "Arab": QT_TRANSLATE_NOOP("languages", "Arabic script"),
    "Latn": QT_TRANSLATE_NOOP("languages", "Latin script"),
    "Deva": QT_TRANSLATE_NOOP("languages", "Devanagari"),
    "Tfng": QT_TRANSLATE_NOOP("languages", "Tifinagh"),
}
ALWAYS_SHOWN_SCRIPTS = ("Hans", "Hant")


def _translate(text: object) -> str:  # QT_TRANSLATE_NOOP's source text (typed object in PySide6's stubs)
    return QCoreApplication.translate("languages", str(text))


def _split(code: str) -> tuple[str, str]:
    """("zho", "Hans") for zho_Hans and zh-Hant (a translation LLM's BCP 47 code); ("zh", "") for zh_CN (a
    region, not a script) and zh."""
    base, _, rest = code.replace("-", "_").partition("_")
    return base, rest if len(rest) == 4 else ""


def base_name(code: str) -> str:
    """The language's name without its script, in the UI language; unknown codes as they are."""
    base, _ = _split(code)
    english = NAMES.get(ALIASES.get(base, base))
    return _translate(english) if english else code


def language_label(code: str, neighbours: Iterable[str] = ()) -> str:
    """The name of `code`, with its script where `neighbours` (the other codes offered) make it ambiguous."""
    base, script = _split(code)
    name = base_name(code)
    ambiguous = any(_split(other)[0] == base and other != code for other in neighbours)
    if script and (script in ALWAYS_SHOWN_SCRIPTS or ambiguous):
        shown = _translate(SCRIPTS[script]) if script in SCRIPTS else script
        return QCoreApplication.translate("languages", "%1 (%2)").replace("%1", name).replace("%2", shown)
    return name


def pair_label(source: str, target: str) -> str:
    """A direction as the window and the popup name it: "English → Chinese"."""
    return f"{language_label(source)} → {language_label(target)}"
