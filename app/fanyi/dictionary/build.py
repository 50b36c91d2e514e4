"""ECDICT's data → Fanyi's dictionary file: one SQLite file, indexed for the lookups fanyi.dictionary.lookup makes.

Tables: ``entries`` (ECDICT's columns with line breaks restored, numbers as integers, and two keys: ``key``,
the word in lower case with its spaces collapsed, and ``sw``, ECDICT's strip_word key), each key indexed —
and each stored only where it differs (most words are their own key, and their key is their sw key), which
keeps the file and its indexes a third smaller: lookups ask for ``coalesce(key, word)`` and for
``coalesce(sw, key, word)`` as the indexes hold them;
``forms`` (every word form an entry's ``exchange`` lists → the entry: "mice" → mouse, "went" → go);
``zh`` (every Chinese sense item → the entry, with its frequency rank in the key, so that a reverse
lookup reads the most frequent words first and stops); ``meta`` (format, where the data came from, how
many entries). ``PRAGMA application_id`` and ``user_version`` say what the file is, so that lookup
refuses any other SQLite file in one line.

The file is written beside its destination under a temporary name and renamed into place once complete
(fanyi.fsutil.staged): a cancel, a full disk or a damaged source leave what was there before.
"""

from __future__ import annotations

import logging
import sqlite3
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from .. import __version__, limits
from ..cancel import CancelToken
from ..fsutil import staged
from .ecdict import Row, parse_pairs, read_any, strip_word
from .entry import FORM_KINDS, reverse_terms
from .errors import DictionaryError

log = logging.getLogger(__name__)

APPLICATION_ID = 0x46594443  # "FYDC": a Fanyi dictionary
FORMAT = 1
UNRANKED = 99_999_999  # the reverse index's rank of a word no corpus ranks: after every ranked one
_BATCH = 4096

SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID;
CREATE TABLE entries (
    id INTEGER PRIMARY KEY,
    word TEXT NOT NULL,
    key TEXT,
    sw TEXT,
    phonetic TEXT,
    definition TEXT,
    translation TEXT,
    pos TEXT,
    collins INTEGER,
    oxford INTEGER,
    tag TEXT,
    bnc INTEGER,
    frq INTEGER,
    exchange TEXT
);
CREATE TABLE forms (form TEXT NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (form, id)) WITHOUT ROWID;
CREATE TABLE zh (term TEXT NOT NULL, rank INTEGER NOT NULL, id INTEGER NOT NULL, PRIMARY KEY (term, rank, id))
    WITHOUT ROWID;
"""
INDEXES = """
CREATE INDEX entries_key ON entries (coalesce(key, word));
CREATE INDEX entries_sw ON entries (sw) WHERE sw IS NOT NULL;
"""

Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class Built:
    path: Path
    entries: int  # entries written (a word repeating another in lower case is left out, as ECDICT does)
    skipped: int  # rows left out: no word, or a headword past limits.MAX_HEADWORD_CHARS
    seconds: float


def word_key(word: str) -> str:
    """The key every lookup normalises to: lower case, runs of spaces one space."""
    return " ".join(word.split()).lower()


def rank(frq: int, bnc: int) -> int:
    """The order of words in a reverse lookup: the contemporary corpus's rank, else the BNC's, else last."""
    return frq if frq > 0 else bnc if bnc > 0 else UNRANKED


def convert(
    source: Path,
    dest: Path,
    *,
    meta: dict[str, str] | None = None,
    min_entries: int = 1,
    progress: Progress | None = None,
    cancel: CancelToken | None = None,
) -> Built:
    """Convert the ECDICT file `source` (CSV, stardict.db, or a .zip of one) into the dictionary file `dest`.

    `meta`: what to record about it (its id, version, where it came from, its sha256). `min_entries`: fewer is
    no ECDICT data (a truncated or other file). Raises DictionaryError (one line) for a file that is not
    ECDICT's, Cancelled; `dest` is replaced only when the new file is whole.
    """
    started = time.monotonic()
    dest.parent.mkdir(parents=True, exist_ok=True)
    with staged(dest) as stage:
        db = sqlite3.connect(stage.temp)
        try:
            for pragma in (
                "journal_mode=OFF",  # a new file: a failure deletes it, nothing to roll back
                "synchronous=OFF",  # fsynced once, whole, before it is renamed into place
                "cache_size=-65536",  # 64 MiB while the indexes are built
                f"application_id={APPLICATION_ID}",
                f"user_version={FORMAT}",
            ):
                db.execute(f"PRAGMA {pragma}")
            db.executescript(SCHEMA)
            with tempfile.TemporaryDirectory(prefix=".unpacked-", dir=dest.parent) as scratch:
                entries, skipped = _fill(db, read_any(source, Path(scratch), progress, cancel), cancel)
            if entries < max(1, min_entries):
                raise DictionaryError(
                    f"{source.name} holds {entries} entries, ECDICT's data has at least {min_entries}: "
                    "it is not that file (or only a part of it)"
                    if entries
                    else f"{source.name} holds no entries"
                )
            if cancel is not None:
                cancel.raise_if_cancelled()
            db.executescript(INDEXES)
            entries -= _drop_repeats(db)
            info = {
                "format": str(FORMAT),
                "entries": str(entries),
                "source_file": source.name,
                "built_by": f"Fanyi {__version__}",
                "built": time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime()),
                **(meta or {}),
            }
            db.executemany("INSERT OR REPLACE INTO meta VALUES (?, ?)", info.items())
            db.commit()
            db.execute("ANALYZE")  # the planner's statistics: the key index, not a scan, for every lookup
            db.commit()
        except sqlite3.Error as exc:
            raise DictionaryError(f"the dictionary could not be written ({exc})") from None
        finally:
            db.close()
        stage.publish(dest, overwrite=True)
    seconds = time.monotonic() - started
    log.info("dictionary %s: %d entries from %s in %.1f s", dest.name, entries, source.name, seconds)
    return Built(dest, entries, skipped, seconds)


def _fill(db: sqlite3.Connection, rows: Iterable[Row], cancel: CancelToken | None) -> tuple[int, int]:
    entries: list[tuple[object, ...]] = []
    forms: list[tuple[str, int]] = []
    zh: list[tuple[str, int, int]] = []
    written = skipped = 0
    for row in rows:
        word = row.word.strip()
        if not word or len(word) > limits.MAX_HEADWORD_CHARS:
            skipped += 1
            continue
        written += 1
        if written > limits.MAX_DICTIONARY_ENTRIES:
            raise DictionaryError(f"more than {limits.MAX_DICTIONARY_ENTRIES} entries: no ECDICT file has that many")
        key, sw = word_key(word), strip_word(word)
        entries.append(
            (
                written,
                word,
                key if key != word else None,
                sw if sw != key else None,
                row.phonetic or None,
                row.definition or None,
                row.translation or None,
                row.pos or None,
                row.collins or None,
                row.oxford or None,
                row.tag or None,
                row.bnc or None,
                row.frq or None,
                row.exchange or None,
            )
        )
        exchange = parse_pairs(row.exchange)
        for kind in FORM_KINDS:
            form = word_key(exchange.get(kind, ""))
            if form and form != key and len(form) <= limits.MAX_HEADWORD_CHARS:
                forms.append((form, written))
        if len(word.split()) <= limits.MAX_LOOKUP_WORDS:
            order = rank(row.frq, row.bnc)
            zh.extend((term, order, written) for term in reverse_terms(row.translation))
        if len(entries) >= _BATCH:
            if cancel is not None:
                cancel.raise_if_cancelled()
            _flush(db, entries, forms, zh)
    _flush(db, entries, forms, zh)
    return written, skipped


def _flush(
    db: sqlite3.Connection,
    entries: list[tuple[object, ...]],
    forms: list[tuple[str, int]],
    zh: list[tuple[str, int, int]],
) -> None:
    db.executemany("INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", entries)
    db.executemany("INSERT OR IGNORE INTO forms VALUES (?, ?)", forms)
    db.executemany("INSERT OR IGNORE INTO zh VALUES (?, ?, ?)", zh)
    entries.clear()
    forms.clear()
    zh.clear()


def _drop_repeats(db: sqlite3.Connection) -> int:
    """A word that repeats an earlier one in lower case goes, with what points to it (ECDICT keeps the first)."""
    db.execute(
        "CREATE TEMP TABLE repeats AS SELECT e.id FROM entries e WHERE EXISTS "
        "(SELECT 1 FROM entries f WHERE coalesce(f.key, f.word) = coalesce(e.key, e.word) AND f.id < e.id)"
    )
    count: int = db.execute("SELECT count(*) FROM repeats").fetchone()[0]
    if count:
        for table in ("entries", "forms", "zh"):
            db.execute(f"DELETE FROM {table} WHERE id IN (SELECT id FROM repeats)")
    db.execute("DROP TABLE repeats")
    return count
