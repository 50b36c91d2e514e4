"""The user's glossary: how a term is to be translated, per language pair; CSV in and out. No Qt here.

A glossary is a list of terms, each with its translation and the language pair it applies to
("en" → "zh"; languages compared by their base code, so zho_Hans and zh_CN are "zh"). A request
takes the terms of its pair; the Translator then gives an LLM pack the terms found in each
paragraph through the model's terminology prompt, and has an encoder-decoder pack translate a
placeholder in the term's place, which is replaced by the given translation afterwards.

CSV files have a header and four columns (source, target, term, translation), or two (term,
translation) when the pair is given by the caller (``fanyi translate --glossary FILE.csv``). Written
as UTF-8 with a byte-order mark so that Excel shows Chinese; read with or without one.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, replace
from pathlib import Path

from . import limits
from .engine.language_choice import LanguageChoice, base_language
from .engine.options import DecodeOptions
from .fsutil import atomic_write_bytes

HEADER = ("source", "target", "term", "translation")
ANY = "*"  # the pair of a two-column file given on the command line: whatever the request's pair is


class GlossaryError(ValueError):
    """A glossary file that cannot be read, in one line naming the file and the row."""


@dataclass(frozen=True)
class Term:
    source: str  # language codes: "en", "zh", "zh-Hant", …
    target: str
    term: str
    translation: str

    def applies_to(self, source: str, target: str) -> bool:
        return all(
            mine == ANY or base_language(mine) == base_language(theirs)
            for mine, theirs in ((self.source, source), (self.target, target))
        )


@dataclass(frozen=True)
class Glossary:
    terms: tuple[Term, ...] = ()

    def for_pair(self, source: str, target: str) -> tuple[tuple[str, str], ...]:
        """(term, translation) of this language pair, for DecodeOptions.glossary."""
        return tuple((t.term, t.translation) for t in self.terms if t.applies_to(source, target))

    def with_term(self, term: Term, replacing: Term | None = None) -> Glossary:
        """A copy with `term` added (or put in place of `replacing`); the same term of the same pair once."""
        kept = [t for t in self.terms if t != replacing and not _same_entry(t, term)]
        if len(kept) >= limits.MAX_GLOSSARY_TERMS:
            raise GlossaryError(f"a glossary holds at most {limits.MAX_GLOSSARY_TERMS} terms")
        index = self.terms.index(replacing) if replacing in self.terms else len(kept)
        kept.insert(min(index, len(kept)), _checked(term, "the term"))
        return replace(self, terms=tuple(kept))

    def without(self, term: Term) -> Glossary:
        return replace(self, terms=tuple(t for t in self.terms if t != term))

    def merged(self, other: Glossary) -> Glossary:
        """This glossary with another's terms added (an import); a term of the same pair is replaced."""
        result = self
        for term in other.terms:
            result = result.with_term(term, next((t for t in result.terms if _same_entry(t, term)), None))
        return result


def _same_entry(a: Term, b: Term) -> bool:
    return a.term.casefold() == b.term.casefold() and a.applies_to(b.source, b.target)


def _checked(term: Term, where: str) -> Term:
    for name, value in (("term", term.term), ("translation", term.translation)):
        if not value.strip():
            raise GlossaryError(f"{where} has an empty {name}")
        if len(value) > limits.MAX_GLOSSARY_TERM_CHARS or not value.isprintable():
            raise GlossaryError(
                f"{where}: the {name} must be printable text of at most {limits.MAX_GLOSSARY_TERM_CHARS} characters"
            )
    for name, value in (("source", term.source), ("target", term.target)):
        if value != ANY and not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", value):
            raise GlossaryError(f"{where}: {name} language {value!r} is not a language code")
    return Term(term.source, term.target, term.term.strip(), term.translation.strip())


def parse_csv(data: bytes, name: str, pair: tuple[str, str] | None = None) -> Glossary:
    """A glossary from CSV bytes; `pair` is the language pair of two-column files."""
    if len(data) > limits.MAX_GLOSSARY_BYTES:
        raise GlossaryError(f"{name} is {len(data)} bytes, more than a glossary may be ({limits.MAX_GLOSSARY_BYTES})")
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise GlossaryError(f"{name} is not UTF-8 text (save it as CSV UTF-8)") from None
    rows = [
        (number, row)
        for number, row in enumerate(csv.reader(io.StringIO(text)), start=1)
        if any(cell.strip() for cell in row)
    ]
    if rows and [c.strip().lower() for c in rows[0][1]] in (list(HEADER), ["term", "translation"]):
        rows = rows[1:]
    terms: list[Term] = []
    for number, row in rows:
        where = f"{name}, row {number}"
        cells = [c.strip() for c in row]
        if len(cells) == 4:
            term = Term(*cells)
        elif len(cells) == 2 and pair is not None:
            term = Term(pair[0], pair[1], *cells)
        else:
            wanted = "four columns (source, target, term, translation)" + (
                " or two (term, translation)" if pair else ""
            )
            raise GlossaryError(f"{where} has {len(cells)} columns; a glossary row has {wanted}")
        terms.append(_checked(term, where))
    if len(terms) > limits.MAX_GLOSSARY_TERMS:
        raise GlossaryError(f"{name} has {len(terms)} terms; a glossary holds at most {limits.MAX_GLOSSARY_TERMS}")
    return Glossary().merged(Glossary(tuple(terms)))


def read_csv(path: Path, pair: tuple[str, str] | None = None) -> Glossary:
    try:
        with open(path, "rb") as handle:
            data = handle.read(limits.MAX_GLOSSARY_BYTES + 1)
    except OSError as exc:
        raise GlossaryError(f"{path} cannot be read: {exc.strerror or exc}") from None
    return parse_csv(data, str(path), pair)


def to_csv(glossary: Glossary) -> bytes:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(HEADER)
    writer.writerows((t.source, t.target, t.term, t.translation) for t in glossary.terms)
    return out.getvalue().encode("utf-8-sig")


def write_csv(glossary: Glossary, path: Path) -> None:
    atomic_write_bytes(path, to_csv(glossary))


def with_glossary(options: DecodeOptions | None, glossary: Glossary, languages: LanguageChoice) -> DecodeOptions:
    """`options` carrying the glossary's terms of the request's language pair."""
    return replace(options or DecodeOptions(), glossary=glossary.for_pair(languages.source_lang, languages.target_lang))
