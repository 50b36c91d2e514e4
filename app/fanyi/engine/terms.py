"""Glossary terms in a text: found, handed to an LLM's terminology prompt, or protected by placeholders.

An encoder-decoder model has no way to be told a term's translation. Its source gets a placeholder
in the term's place — letters a translation model copies as it copies an unknown name — and the
placeholder in its output is replaced by the term's translation, joined to Chinese or Japanese
neighbours without the spaces the model writes around a name it copies. Where the model drops, splits
or changes a placeholder, the term's translation cannot be put back and the output holds garbage:
``lost_terms`` names those terms (the Translator then translates the sentence again without them).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..languages import WRITTEN_WITHOUT_SPACES

PLACEHOLDER = "ZXQ{}"  # ZXQ1, ZXQ2 …: no word of any language, copied through as a name is
_PLACED = re.compile(r"ZXQ(\d+)")
_SPACED = re.compile(r"([ \t]*)ZXQ(\d+)([ \t]*)")  # a placeholder with the spaces the model put around it
# what is left of a placeholder the model split or changed: ZX, XQ1, ZXQ
_REMNANT = re.compile(r"Z\s?X|X\s?Q\s?\d")
_UNSPACED = re.compile(f"[{WRITTEN_WITHOUT_SPACES}]")
Placed = tuple[tuple[str, str], ...]  # (the term as the source wrote it, its translation), in placeholder order


def _pattern(term: str) -> re.Pattern[str]:
    """A term as a whole word where it starts or ends with a letter or digit (not "cat" in "category");
    Chinese and Japanese have no spaces, so there any occurrence counts."""
    start = r"(?<![^\W_])" if term[:1].isalnum() and term[:1].isascii() else ""
    end = r"(?![^\W_])" if term[-1:].isalnum() and term[-1:].isascii() else ""
    return re.compile(start + re.escape(term) + end, re.IGNORECASE)


def find_terms(text: str, entries: Sequence[tuple[str, str]]) -> list[tuple[int, int, str, str]]:
    """Occurrences of glossary terms in `text`: (start, end, term as written there, translation), in order,
    longer terms first where they overlap."""
    found: list[tuple[int, int, str, str]] = []
    taken: list[tuple[int, int]] = []
    for term, translation in sorted(entries, key=lambda e: -len(e[0])):
        for match in _pattern(term).finditer(text):
            span = match.span()
            if not any(a < span[1] and span[0] < b for a, b in taken):
                taken.append(span)
                found.append((span[0], span[1], match.group(0), translation))
    return sorted(found)


def terms_in(text: str, entries: Sequence[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """The glossary entries that occur in `text`, each once, in the order they first occur."""
    seen: dict[str, tuple[str, str]] = {}
    for _start, _end, written, translation in find_terms(text, entries):
        seen.setdefault(written.casefold(), (written, translation))
    return tuple(seen.values())


def protect(text: str, entries: Sequence[tuple[str, str]]) -> tuple[str, Placed]:
    """`text` with each glossary term replaced by a numbered placeholder, and (term, translation) in number order."""
    out, placed, last = [], [], 0
    for start, end, written, translation in find_terms(text, entries):
        placed.append((written, translation))
        out += [text[last:start], PLACEHOLDER.format(len(placed))]
        last = end
    return "".join(out) + text[last:], tuple(placed)


def restore(text: str, placed: Placed) -> str:
    """The placeholders in a translation replaced by the terms' translations; a translation that starts or ends
    with a character written without spaces (Han, kana) is joined to a neighbour of that kind without the
    spaces the model wrote (重置 ZXQ1 → 重置网路连线), and keeps them beside Latin words."""

    def put(match: re.Match[str]) -> str:
        number = int(match.group(2))
        if not 1 <= number <= len(placed):
            return match.group(0)
        translation = placed[number - 1][1]
        before = match.string[match.start() - 1] if match.start() else ""
        after = match.string[match.end()] if match.end() < len(match.string) else ""
        joined_before = bool(_UNSPACED.match(before) and _UNSPACED.match(translation[:1]))
        joined_after = bool(_UNSPACED.match(after) and _UNSPACED.match(translation[-1:]))
        lead = "" if joined_before or not before else match.group(1)
        trail = "" if joined_after or not after else match.group(3)
        return lead + translation + trail

    return _SPACED.sub(put, text)


def lost_terms(text: str, placed: Placed, source: str) -> tuple[str, ...]:
    """The terms whose placeholders did not come back whole in a translation of `source`: those missing, or all
    of them where a piece of a placeholder stands in the text (one the source did not hold)."""
    found = {int(number) for number in _PLACED.findall(text)}
    missing = tuple(term for number, (term, _translation) in enumerate(placed, 1) if number not in found)
    if missing:
        return missing
    remnants = {m.group(0) for m in _REMNANT.finditer(_PLACED.sub("", text))} - {
        m.group(0) for m in _REMNANT.finditer(source)
    }
    return tuple(term for term, _translation in placed) if remnants else ()
