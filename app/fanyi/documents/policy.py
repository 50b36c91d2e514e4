"""Which units are left as they are: no words, code or a URL, or already in the target script."""

from __future__ import annotations

import re

from fanyi.languages import HAN_LANGUAGES, HAN_RANGES, LATIN_LANGUAGES, english_name, primary_subtag

_CODE_TOKEN = re.compile(r"\S*(?:://|[\\/_@]|\(\)|==?|->)\S*")


def keep_reason(text: str, target_lang: str) -> str | None:
    """Why ``text`` needs no translation into ``target_lang``, or None when it does."""
    if _LETTER.search(text) is None:
        return "numbers or symbols only"
    letters = _LETTER.findall(text)
    if len(letters) == 1 and _CJK.search(text) is None:
        return "a letter alone"  # a font's glyph sample, a table's "A" or "ƀ": nothing a model can translate
    if looks_like_code(text):
        return "code or URL"
    script = target_script(target_lang)
    if (
        script is not None
        and script[0].search(text) is not None
        and len(script[0].findall(text)) * 2 >= len(_LETTER.findall(text))
    ):
        return f"already {script[1]}"
    return None


def looks_like_code(text: str) -> bool:
    stripped = text.strip()
    if not any(c.isspace() for c in stripped):
        return _CODE_TOKEN.fullmatch(stripped) is not None
    visible = len(stripped) - sum(stripped.count(c) for c in " \t\n")
    return len(_CODE_CHAR.findall(stripped)) >= 0.15 * visible


# Regular expressions rather than loops over characters: this runs on every unit of large files.
_LETTER = re.compile(r"[^\W\d_]")
_CODE_CHAR = re.compile(r"[{}\[\];=<>$\\|`&^~#]|(?<=\w)[()]")  # a bracket after a word: f(x), not "width (mm)"
_HAN = re.compile(f"[{HAN_RANGES}]")
_CJK = re.compile(f"[{HAN_RANGES}\u3040-\u30ff\uac00-\ud7af]")  # Han, kana, Hangul
_LATIN = re.compile(r"[A-Za-z\u00c0-\u00d6\u00d8-\u00f6\u00f8-\u024f\u1e00-\u1eff]")


def target_script(target_lang: str) -> tuple[re.Pattern[str], str] | None:
    """A pattern for letters already in the target's script and a name for it, when we know the script."""
    code = primary_subtag(target_lang)
    if code in HAN_LANGUAGES:
        return _HAN, "Chinese"
    if code in ("ja", "ko"):
        return _CJK, english_name(code) or code
    if code in LATIN_LANGUAGES:
        return _LATIN, "in Latin script"
    return None
