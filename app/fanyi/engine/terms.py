"""Glossary terms in a text: found, handed to an LLM's terminology prompt, or protected by placeholders.

An encoder-decoder model has no way to be told a term's translation. Its source gets a placeholder
in the term's place — letters a translation model copies as it copies an unknown name — and the
placeholder in its output is replaced by the term's translation. Where the model drops or changes
the placeholder, the term's translation cannot be put back: ``restore`` says how many were lost.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

PLACEHOLDER = "ZXQ{}"  # ZXQ1, ZXQ2 …: no word of any language, copied through as a name is
_PLACED = re.compile(r"ZXQ(\d+)")


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


def protect(text: str, entries: Sequence[tuple[str, str]]) -> tuple[str, tuple[str, ...]]:
    """`text` with each glossary term replaced by a numbered placeholder, and the translations in number order."""
    out, translations, last = [], [], 0
    for start, end, _written, translation in find_terms(text, entries):
        translations.append(translation)
        out += [text[last:start], PLACEHOLDER.format(len(translations))]
        last = end
    return "".join(out) + text[last:], tuple(translations)


def restore(text: str, translations: Sequence[str]) -> tuple[str, int]:
    """The placeholders in a translation replaced by the terms' translations; and how many did not come back."""
    seen: set[int] = set()

    def put(match: re.Match[str]) -> str:
        number = int(match.group(1))
        if not 1 <= number <= len(translations):
            return match.group(0)
        seen.add(number)
        return translations[number - 1]

    return _PLACED.sub(put, text), len(translations) - len(seen)
