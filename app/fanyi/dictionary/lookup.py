"""Looking a word up in a dictionary file fanyi.dictionary.build wrote.

What is looked up (``lookup_text``): a word or a short phrase, at most limits.MAX_LOOKUP_CHARS characters
and MAX_LOOKUP_WORDS words, or a Chinese word of at most MAX_LOOKUP_HAN characters; anything else (a
sentence, text with control characters) is not looked up at all, so no input costs more than a few
indexed queries. Every query takes its values as parameters, never as SQL.

The rules, in order, for English:
  1. exact, or in any case: the word's key (lower case, spaces collapsed) — "Apple", "APPLE" find apple;
  2. lemma: a word form ECDICT lists under another entry's ``exchange`` — "went" finds go, "mice" mouse;
     a form that has a thin entry of its own ("go的过去式") is shown as its lemma's, and says so;
  3. phrase: each word of a phrase by its lemma — "took off" finds take off;
  4. fuzzy: ECDICT's ``sw`` key (letters and digits only) — "long time", "long-time" find longtime;
rules 1-3 are tried on the text as selected, then without the punctuation around it ("“apple,”"), before 4.
For Chinese (Han characters only): the English entries one of whose senses is that word, the most frequent
first. Nothing found is None: the caller shows the translation alone.

A file is opened read-only; one that is not a Fanyi dictionary (another SQLite file, a damaged one, a
newer format) is refused in one line (DictionaryError). Every query opens its own connection: nothing is
held open between lookups, so the file can be replaced or removed at any time on every system, and
threads (the UI, the local API) need no lock; opening costs well under a millisecond (benchmarks/).
"""

from __future__ import annotations

import contextlib
import re
import sqlite3
import unicodedata
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .. import limits
from .build import APPLICATION_ID, FORMAT, UNRANKED, word_key
from .ecdict import COLUMNS, Row, strip_word
from .entry import FORM_KINDS, Entry, Found
from .errors import DictionaryError

_HAN = re.compile(r"^[\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]+$")
_LATIN_LETTER = re.compile(r"[A-Za-z\u00c0-\u024f]")
_SELECT = f"SELECT id, {', '.join(COLUMNS)} FROM entries"
_BY_FREQUENCY = f"coalesce(nullif(frq, 0), nullif(bnc, 0), {UNRANKED}), id"  # build.rank's order
# how ECDICT says a word is a form of another, in its Chinese ("go的过去式", "mouse的复数")
_FORM_WORDS = ("过去式", "过去分词", "现在分词", "复数", "第三人称", "比较级", "最高级")


@dataclass(frozen=True)
class Query:
    """A text fit to be looked up: its forms to try (as selected, then without the punctuation around it)."""

    text: str
    candidates: tuple[str, ...]
    chinese: bool


def lookup_text(text: str) -> Query | None:
    """What of `text` is looked up, or None when it is no word or short phrase (see the module docstring)."""
    if len(text) > limits.MAX_LOOKUP_CHARS * 4:  # before any work on it: a book pasted whole costs nothing
        return None
    text = "".join(c for c in text if unicodedata.category(c) != "Cf")  # soft hyphens, zero-width spaces
    text = " ".join(text.split())
    if not text or len(text) > limits.MAX_LOOKUP_CHARS:
        return None
    if any(unicodedata.category(c) in ("Cc", "Cs", "Co", "Cn") for c in text):
        return None
    bare = _strip_punctuation(text)
    if not bare:
        return None
    if _HAN.match(bare.replace(" ", "")):
        han = bare.replace(" ", "")
        return Query(text, (han,), chinese=True) if len(han) <= limits.MAX_LOOKUP_HAN else None
    if len(text.split()) > limits.MAX_LOOKUP_WORDS or not _LATIN_LETTER.search(text):
        return None
    return Query(text, tuple(dict.fromkeys((text, bare))), chinese=False)


def _strip_punctuation(text: str) -> str:
    start, end = 0, len(text)
    while start < end and unicodedata.category(text[start])[0] in "PS":
        start += 1
    while end > start and unicodedata.category(text[end - 1])[0] in "PS":
        end -= 1
    return text[start:end].strip()


def _row(values: tuple[object, ...]) -> Row:
    def text(v: object) -> str:
        return v if isinstance(v, str) else ""

    def number(v: object) -> int:
        return v if isinstance(v, int) else 0

    w, ph, de, tr, po, co, ox, ta, bn, fr, ex = values
    return Row(
        text(w),
        text(ph),
        text(de),
        text(tr),
        text(po),
        number(co),
        number(ox),
        text(ta),
        number(bn),
        number(fr),
        text(ex),
    )


class Dictionary:
    """A dictionary file on disk; ``open`` checks it, ``lookup`` finds entries in it."""

    def __init__(self, path: Path, info: dict[str, str]) -> None:
        self.path = path
        self.info = info  # the meta table: id, version, entries, source, sha256 …

    @property
    def name(self) -> str:
        return self.info.get("id") or self.path.stem

    @property
    def entries(self) -> int:
        value = self.info.get("entries", "")
        return int(value) if value.isdigit() else 0

    @classmethod
    def open(cls, path: Path) -> Dictionary:
        """The dictionary at `path`; DictionaryError in one line for a file that is not one."""
        path = Path(path)
        if not path.is_file():
            raise DictionaryError(f"{path} does not exist")
        with _connection(path) as db:
            try:
                app_id = db.execute("PRAGMA application_id").fetchone()[0]
                version = db.execute("PRAGMA user_version").fetchone()[0]
                if app_id != APPLICATION_ID:
                    raise DictionaryError(f"{path.name} is not a Fanyi dictionary")
                if version != FORMAT:
                    raise DictionaryError(
                        f"{path.name} is a dictionary of format {version}; this Fanyi reads format {FORMAT}: "
                        "install the dictionary again"
                    )
                info = {str(k): str(v) for k, v in db.execute("SELECT key, value FROM meta LIMIT 64")}
                db.execute(f"{_SELECT} LIMIT 1").fetchall()  # the table is there, with its columns
            except sqlite3.DatabaseError as exc:
                raise DictionaryError(f"{path.name} is damaged or not a Fanyi dictionary ({exc})") from None
        return cls(path, info)

    def lookup(self, text: str) -> Found | None:
        """The entry (or, for Chinese, entries) for `text`; None when it is not looked up or nothing is found."""
        query = lookup_text(text)
        if query is None:
            return None
        try:
            with _connection(self.path) as db:
                if query.chinese:
                    return _chinese(db, query)
                for candidate in query.candidates:
                    if found := _english(db, query.text, candidate):
                        return found
                for candidate in query.candidates:
                    if found := _fuzzy(db, query.text, candidate):
                        return found
        except sqlite3.DatabaseError as exc:
            raise DictionaryError(f"{self.path.name} cannot be read ({exc})") from None
        return None


@contextlib.contextmanager
def _connection(path: Path) -> Iterator[sqlite3.Connection]:
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
    except sqlite3.Error as exc:
        raise DictionaryError(f"{path.name} cannot be opened ({exc})") from None
    try:
        db.execute("PRAGMA trusted_schema=OFF")
        yield db
    finally:
        db.close()


def _by_key(db: sqlite3.Connection, key: str) -> tuple[int, Entry] | None:
    row = db.execute(f"{_SELECT} WHERE coalesce(key, word) = ? ORDER BY id LIMIT 1", (key,)).fetchone()
    return (row[0], Entry.of(_row(row[1:]))) if row else None


def _lemmas(db: sqlite3.Connection, key: str) -> list[Entry]:
    """The entries that list `key` among their word forms, the most frequent first."""
    rows = db.execute(
        f"{_SELECT} WHERE id IN (SELECT id FROM forms WHERE form = ? LIMIT 16) ORDER BY {_BY_FREQUENCY} LIMIT 3",
        (key,),
    ).fetchall()
    return [Entry.of(_row(r[1:])) for r in rows]


def _form_kinds(lemma: Entry, key: str) -> str:
    """Which of `lemma`'s forms `key` is: "p", "pd", "s" …"""
    return "".join(kind for kind in FORM_KINDS if word_key(lemma.forms.get(kind, "")) == key)


def _thin(entry: Entry) -> bool:
    """An entry that only says it is a form of its lemma ("go的过去式"): the lemma is shown instead."""
    return (
        bool(entry.lemma)
        and len(entry.senses) <= 2
        and all(entry.lemma.lower() in s.text.lower() or any(w in s.text for w in _FORM_WORDS) for s in entry.senses)
    )


def _english(db: sqlite3.Connection, query: str, text: str) -> Found | None:
    key = word_key(text)
    if found := _by_key(db, key):
        _id, entry = found
        match = "exact" if entry.word == text else "case"
        lemma = _by_key(db, word_key(entry.lemma)) if entry.lemma else None
        if lemma is None:
            return Found(query, match, (entry,))
        if _thin(entry):
            return Found(query, "lemma", (lemma[1],), form_of=entry.lemma_forms or _form_kinds(lemma[1], key))
        return Found(query, match, (entry, lemma[1]))
    if lemmas := _lemmas(db, key):
        return Found(query, "lemma", (lemmas[0],), form_of=_form_kinds(lemmas[0], key))
    words = key.split()
    if len(words) > 1 and (phrase := _phrase(db, words)):
        return Found(query, "phrase", (phrase,))
    return None


def _fuzzy(db: sqlite3.Connection, query: str, text: str) -> Found | None:
    """ECDICT's sw key: the same letters and digits, whatever spaces, hyphens and punctuation are between."""
    sw = strip_word(text)
    if not sw:
        return None
    # an entry whose sw key is its key ("longtime") has sw NULL, and is found by its key
    row = db.execute(
        f"{_SELECT} WHERE id IN (SELECT id FROM entries WHERE sw = ?1 UNION ALL "
        f"SELECT id FROM entries WHERE coalesce(key, word) = ?1) ORDER BY {_BY_FREQUENCY} LIMIT 1",
        (sw,),
    ).fetchone()
    return Found(query, "fuzzy", (Entry.of(_row(row[1:])),)) if row else None


def _phrase(db: sqlite3.Connection, words: list[str]) -> Entry | None:
    """A phrase with one of its words in another form: "took off" → take off, "looks forward to" → look forward to."""
    for i, word in enumerate(words):
        for lemma in _lemmas(db, word):
            tried = " ".join([*words[:i], word_key(lemma.word), *words[i + 1 :]])
            if found := _by_key(db, tried):
                return found[1]
    return None


def _chinese(db: sqlite3.Connection, query: Query) -> Found | None:
    rows = db.execute(
        f"SELECT e.id, {', '.join('e.' + c for c in COLUMNS)} FROM zh JOIN entries e ON e.id = zh.id "
        "WHERE zh.term = ? ORDER BY zh.rank, zh.id LIMIT ?",
        (query.candidates[0], limits.MAX_LOOKUP_RESULTS),
    ).fetchall()
    if not rows:
        return None
    return Found(query.text, "chinese", tuple(Entry.of(_row(r[1:])) for r in rows))
