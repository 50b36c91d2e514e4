"""The user's glossary: how a term is to be translated, per language pair; CSV in and out. No Qt here.

A glossary is a list of terms, each with its translation and the language pair it applies to
("en" → "zh"; languages compared by their base code, so zho_Hans and zh_CN are "zh"). A request
takes the terms of its pair; the Translator then gives an LLM pack the terms found in each
paragraph through the model's terminology prompt, and has an encoder-decoder pack translate a
placeholder in the term's place, which is replaced by the given translation afterwards.

CSV files have a header and four columns (source, target, term, translation), or two (term,
translation), which apply to whatever pair is translated (``ANY``, shown as ``*``) unless the caller
gives them a pair. Written as UTF-8 with a byte-order mark so that Excel shows Chinese; read with or
without one.

A ``GlossaryError`` says what is wrong in one English line; its ``template`` (one of ``MESSAGES``) and
values let the app say the same in its UI language (fanyi.ui.glossary_messages).
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, replace
from pathlib import Path

from . import limits
from .engine import DecodeOptions, LanguageChoice
from .fsutil import atomic_write_bytes
from .languages import base_language

HEADER = ("source", "target", "term", "translation")
ANY = "*"  # the pair of a two-column row: whatever the request's pair is

# What a GlossaryError says; {names} are its values
TOO_MANY = "a glossary holds at most {limit} terms"
FILE_TOO_MANY = "{file} has {count} terms; a glossary holds at most {limit}"
TOO_LARGE = "{file} is {size} bytes, more than a glossary may be ({limit})"
NOT_UTF8 = "{file} is not UTF-8 text (save it as CSV UTF-8)"
UNREADABLE = "{file} cannot be read: {reason}"
COLUMNS = "a glossary row has four columns (source, target, term, translation) or two (term, translation), not {count}"
EMPTY_TERM = "the term is empty"
EMPTY_TRANSLATION = "the translation is empty"
NOT_TEXT_TERM = "the term must be printable text of at most {limit} characters"
NOT_TEXT_TRANSLATION = "the translation must be printable text of at most {limit} characters"
NOT_CODE_SOURCE = "the source language {code!r} is not a language code"
NOT_CODE_TARGET = "the target language {code!r} is not a language code"
MESSAGES = (
    TOO_MANY,
    FILE_TOO_MANY,
    TOO_LARGE,
    NOT_UTF8,
    UNREADABLE,
    COLUMNS,
    EMPTY_TERM,
    EMPTY_TRANSLATION,
    NOT_TEXT_TERM,
    NOT_TEXT_TRANSLATION,
    NOT_CODE_SOURCE,
    NOT_CODE_TARGET,
)
AT_ROW = "{file}, row {row}: {message}"  # where a row's message is: "g.csv, row 3: the term is empty"
AT_TABLE_ROW = "Row {row}: {message}"  # a row of no file (the app's Glossary tab)


class GlossaryError(ValueError):
    """A glossary that cannot be read or kept, in one line naming the file and the row: ``template`` (one of
    MESSAGES) filled with ``values``, at ``row`` of ``file`` when it is a row's."""

    def __init__(self, template: str, *, file: str = "", row: int = 0, **values: object) -> None:
        self.template, self.file, self.row, self.values = template, file, row, values
        message = template.format(file=file, **values)
        where = AT_ROW if file else AT_TABLE_ROW
        super().__init__(where.format(file=file, row=row, message=message) if row else message)

    def at(self, row: int, file: str = "") -> GlossaryError:
        """The same problem, said of ``row`` (of ``file``)."""
        return GlossaryError(self.template, file=file, row=row, **self.values)


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
            raise GlossaryError(TOO_MANY, limit=limits.MAX_GLOSSARY_TERMS)
        index = self.terms.index(replacing) if replacing in self.terms else len(kept)
        kept.insert(min(index, len(kept)), _checked(term))
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


def _checked(term: Term) -> Term:
    for value, empty, not_text in (
        (term.term, EMPTY_TERM, NOT_TEXT_TERM),
        (term.translation, EMPTY_TRANSLATION, NOT_TEXT_TRANSLATION),
    ):
        if not value.strip():
            raise GlossaryError(empty)
        if len(value) > limits.MAX_GLOSSARY_TERM_CHARS or not value.isprintable():
            raise GlossaryError(not_text, limit=limits.MAX_GLOSSARY_TERM_CHARS)
    for value, not_code in ((term.source, NOT_CODE_SOURCE), (term.target, NOT_CODE_TARGET)):
        if value != ANY and not re.fullmatch(r"[A-Za-z0-9_-]{1,32}", value):
            raise GlossaryError(not_code, code=value)
    return Term(term.source, term.target, term.term.strip(), term.translation.strip())


def parse_csv(data: bytes, name: str, pair: tuple[str, str] = (ANY, ANY)) -> Glossary:
    """A glossary from CSV bytes; `pair` is the language pair of two-column rows (by default any)."""
    if len(data) > limits.MAX_GLOSSARY_BYTES:
        raise GlossaryError(TOO_LARGE, file=name, size=len(data), limit=limits.MAX_GLOSSARY_BYTES)
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise GlossaryError(NOT_UTF8, file=name) from None
    rows = [
        (number, row)
        for number, row in enumerate(csv.reader(io.StringIO(text)), start=1)
        if any(cell.strip() for cell in row)
    ]
    if rows and [c.strip().lower() for c in rows[0][1]] in (list(HEADER), ["term", "translation"]):
        rows = rows[1:]
    terms: list[Term] = []
    for number, row in rows:
        cells = [c.strip() for c in row]
        if len(cells) not in (2, 4):
            raise GlossaryError(COLUMNS, file=name, row=number, count=len(cells))
        try:
            terms.append(_checked(Term(*cells) if len(cells) == 4 else Term(*pair, *cells)))
        except GlossaryError as exc:
            raise exc.at(number, name) from None
    if len(terms) > limits.MAX_GLOSSARY_TERMS:
        raise GlossaryError(FILE_TOO_MANY, file=name, count=len(terms), limit=limits.MAX_GLOSSARY_TERMS)
    return Glossary().merged(Glossary(tuple(terms)))


def read_csv(path: Path, pair: tuple[str, str] = (ANY, ANY)) -> Glossary:
    try:
        with open(path, "rb") as handle:
            data = handle.read(limits.MAX_GLOSSARY_BYTES + 1)
    except OSError as exc:
        raise GlossaryError(UNREADABLE, file=str(path), reason=exc.strerror or exc) from None
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
