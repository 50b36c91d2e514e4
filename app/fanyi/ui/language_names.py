"""Names of the languages of many-to-many packs, in the UI language.

The models name languages by their own codes: ISO 639-1 with a region (mBART-50: en_XX, zh_CN),
ISO 639-1 or 639-3 (M2M100: en, ast) or ISO 639-3 with a script (NLLB-200: eng_Latn, zho_Hant).
The names are fanyi.languages' English ones, translated through Qt (context "languages", assets/i18n);
a script is named where a list holds one language in two scripts, and always for Chinese.
"""

from __future__ import annotations

from collections.abc import Iterable

from PySide6.QtCore import QCoreApplication

from fanyi.languages import english_name, script_name, split_script

ALWAYS_SHOWN_SCRIPTS = ("Hans", "Hant")


def _translate(english: str) -> str:
    return QCoreApplication.translate("languages", english)


def base_name(code: str) -> str:
    """The language's name without its script, in the UI language; unknown codes as they are."""
    english = english_name(code)
    return _translate(english) if english else code


def language_label(code: str, neighbours: Iterable[str] = ()) -> str:
    """The name of `code`, with its script where `neighbours` (the other codes offered) make it ambiguous."""
    base, script = split_script(code)
    name = base_name(code)
    ambiguous = any(split_script(other)[0] == base and other != code for other in neighbours)
    if script and (script in ALWAYS_SHOWN_SCRIPTS or ambiguous):
        english = script_name(script)
        shown = _translate(english) if english else script
        return QCoreApplication.translate("languages", "%1 (%2)").replace("%1", name).replace("%2", shown)
    return name


def pair_label(source: str, target: str) -> str:
    """A direction as the window and the popup name it: "English → Chinese"."""
    return f"{language_label(source)} → {language_label(target)}"
