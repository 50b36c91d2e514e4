"""Recent translations in a local SQLite file (no Qt here).

Every translation is its own entry, but translate-as-you-type must not leave a row for every pause:
a window remembers the ``Draft`` it saved last and the next translation updates that row while it is
the same text being edited (``continues``), and adds a row for a new text (one pasted over the old,
typed after select-all, or reopened from elsewhere). The same text with the same translation by the
same pack is one entry, whatever asked for it (the window, the popup, the hotkey, a variant clicked
back): saved again, it moves to the top, starred if either copy was. Starred entries (favourites) are never
dropped to keep the file small, nor deleted by Clear. A word or short phrase keeps the dictionary's entry
shown with it (``dictionary``: its JSON, fanyi.dictionary.Found.as_json), so the history shows it even
once the dictionary is removed.

A damaged database (not SQLite, pages that fail SQLite's check, a foreign table) is moved aside,
kept as ``history.sqlite3.corrupt-<date>-<time>``, and a new one started; ``on_moved_aside`` is
told where it went so the user can be, once.
"""

from __future__ import annotations

import csv
import datetime
import io
import json
import logging
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from fanyi import paths
from fanyi.dictionary import Found
from fanyi.fsutil import atomic_write_bytes, move_aside

log = logging.getLogger(__name__)
T = TypeVar("T")

HISTORY_FILE = "history.sqlite3"
MAX_ROWS = 5000  # old rows (not starred ones) are dropped beyond this so the file stays small
KEPT_SHARE = 0.5  # an edit that keeps at least this share of the saved text is still that text

_SCHEMA = """
CREATE TABLE IF NOT EXISTS history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created REAL NOT NULL,
    pack TEXT NOT NULL,
    source TEXT NOT NULL,
    target TEXT NOT NULL,
    starred INTEGER NOT NULL DEFAULT 0,
    dictionary TEXT NOT NULL DEFAULT ''
)
"""
_COLUMNS = {"id", "created", "pack", "source", "target"}
# Columns added since the first release: an older file gets them, its rows are kept.
_ADDED_COLUMNS = {
    "starred": "starred INTEGER NOT NULL DEFAULT 0",
    "dictionary": "dictionary TEXT NOT NULL DEFAULT ''",
}


class _Damaged(sqlite3.DatabaseError):
    """SQLite opened the file, but it is not a history database we can trust."""


def _is_damaged(exc: sqlite3.Error) -> bool:
    # SQLite's "file is not a database" and "database disk image is malformed" are plain DatabaseErrors;
    # a locked, read-only or full database is an OperationalError and is left where it is.
    return type(exc) in (sqlite3.DatabaseError, _Damaged)


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path)
    try:
        # Saved from the GUI thread after each translation: WAL without a sync per commit keeps that
        # cheap, at the price of maybe losing the last entry in a power cut.
        db.execute("PRAGMA journal_mode=WAL")
        db.execute("PRAGMA synchronous=NORMAL")
        # a few milliseconds for MAX_ROWS rows; finds damage now rather than in the middle of a save
        if (verdict := db.execute("PRAGMA quick_check").fetchone()[0]) != "ok":
            raise _Damaged(verdict)
        db.execute(_SCHEMA)
        columns = {row[1] for row in db.execute("PRAGMA table_info(history)")}
        if missing := _COLUMNS - columns:
            raise _Damaged(f"the history table has no {', '.join(sorted(missing))}")
        for name, definition in _ADDED_COLUMNS.items():
            if name not in columns:
                db.execute(f"ALTER TABLE history ADD COLUMN {definition}")
        db.commit()
    except BaseException:
        db.close()
        raise
    return db


@dataclass(frozen=True)
class Entry:
    id: int
    created: float
    pack: str
    source: str
    target: str
    starred: bool = False
    dictionary: str = ""  # the dictionary's entry shown with it, as JSON; "" when none

    @property
    def found(self) -> Found | None:
        """The dictionary's entry kept with it; None when none was shown (or the file holds something else)."""
        if not self.dictionary:
            return None
        try:
            return Found.from_json(json.loads(self.dictionary))
        except (ValueError, RecursionError):
            return None


@dataclass(frozen=True)
class Draft:
    """The row a window saved last, and what it held then."""

    entry_id: int
    source: str
    pack: str


def _kept(old: str, new: str) -> int:
    """How many characters of ``old`` are still at the start and the end of ``new``."""
    start = len(os.path.commonprefix([old, new]))
    end = len(os.path.commonprefix([old[start:][::-1], new[start:][::-1]]))
    return start + end


def continues(draft: Draft | None, source: str, pack: str) -> bool:
    """Whether ``source`` is the draft's text still being edited (typed on, corrected, cut short),
    rather than a new text: same pack, and at least half of the saved text kept at its start and end.

    A doubtful case counts as new: a new row loses nothing, an updated one loses the older text.
    """
    if draft is None or draft.pack != pack:
        return False
    return _kept(draft.source, source) >= KEPT_SHARE * len(draft.source)


def history_path() -> Path:
    return paths.user_data_dir() / HISTORY_FILE


class History:
    def __init__(self, path: Path | None = None, on_moved_aside: Callable[[Path], None] | None = None) -> None:
        self.path = path or history_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._on_moved_aside = on_moved_aside
        try:
            self._db = _connect(self.path)
        except sqlite3.DatabaseError as exc:
            if not _is_damaged(exc):
                raise
            self._start_again(exc)

    def _start_again(self, why: sqlite3.Error) -> None:
        kept = move_aside(self.path)
        for sidecar in ("-wal", "-shm"):  # the write-ahead log belongs with its database
            if (old := self.path.with_name(self.path.name + sidecar)).exists():
                os.replace(old, kept.with_name(kept.name + sidecar))
        log.warning("history: %s is damaged (%s); kept as %s, starting a new one", self.path, why, kept)
        self._db = _connect(self.path)
        if self._on_moved_aside is not None:
            self._on_moved_aside(kept)

    def _run(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """`work(db)`; damage found on the way moves the database aside and runs it again on a new one."""
        try:
            return work(self._db)
        except sqlite3.DatabaseError as exc:
            if not _is_damaged(exc):
                raise
            self._db.close()
            self._start_again(exc)
        return work(self._db)

    def record(
        self, source: str, target: str, pack: str, draft: Draft | None = None, *, found: Found | None = None
    ) -> Draft:
        """Save a finished translation: into the draft's row while it ``continues``, else as a new row."""
        entry_id = draft.entry_id if draft is not None and continues(draft, source, pack) else None
        return Draft(self.save(source, target, pack, entry_id, found=found), source, pack)

    def save(
        self, source: str, target: str, pack: str, entry_id: int | None = None, *, found: Found | None = None
    ) -> int:
        """Update ``entry_id`` when it still exists, else the row that holds the same text and translation by
        the same pack, else insert one; other rows holding the same go (their star kept). Returns the row id.
        `found`: the dictionary's entry shown with it, kept in the row."""
        kept_entry = json.dumps(found.as_json(), ensure_ascii=False) if found is not None else ""

        def work(db: sqlite3.Connection) -> int:
            with db:
                same = db.execute(
                    "SELECT id, starred FROM history WHERE source=? AND target=? AND pack=? ORDER BY id DESC",
                    (source, target, pack),
                ).fetchall()
                starred = int(any(star for _id, star in same))
                kept = next((row_id for row_id, _star in same if row_id == entry_id), None)
                if kept is None and entry_id is not None:
                    cur = db.execute(
                        "UPDATE history SET source=?, target=?, pack=?, created=?, starred=max(starred, ?) WHERE id=?",
                        (source, target, pack, time.time(), starred, entry_id),
                    )
                    kept = entry_id if cur.rowcount else None
                if kept is None and same:
                    kept = same[0][0]
                if kept is not None:
                    db.execute(
                        "UPDATE history SET created=?, starred=max(starred, ?), dictionary=? WHERE id=?",
                        (time.time(), starred, kept_entry, kept),
                    )
                    db.executemany("DELETE FROM history WHERE id=?", [(i,) for i, _star in same if i != kept])
                    return kept
                cur = db.execute(
                    "INSERT INTO history (created, pack, source, target, dictionary) VALUES (?, ?, ?, ?, ?)",
                    (time.time(), pack, source, target, kept_entry),
                )
                db.execute(
                    "DELETE FROM history WHERE starred = 0 AND id <= (SELECT max(id) FROM history) - ?", (MAX_ROWS,)
                )
                assert cur.lastrowid is not None  # inserted
                return int(cur.lastrowid)

        return self._run(work)

    def search(self, query: str = "", limit: int | None = 200, starred_only: bool = False) -> list[Entry]:
        """Newest first; ``query`` matches a substring of the source or the translation."""
        pattern = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        starred = "AND starred != 0 " if starred_only else ""
        rows = self._run(
            lambda db: db.execute(
                "SELECT id, created, pack, source, target, starred, dictionary FROM history "
                f"WHERE (source LIKE ? ESCAPE '\\' OR target LIKE ? ESCAPE '\\') {starred}"
                "ORDER BY created DESC, id DESC LIMIT ?",
                (pattern, pattern, -1 if limit is None else limit),
            ).fetchall()
        )
        return [
            Entry(id_, created, pack, source, target, starred=bool(starred), dictionary=dictionary)
            for id_, created, pack, source, target, starred, dictionary in rows
        ]

    def set_starred(self, ids: list[int], starred: bool) -> None:
        def work(db: sqlite3.Connection) -> None:
            with db:
                db.executemany("UPDATE history SET starred=? WHERE id=?", [(int(starred), i) for i in ids])

        self._run(work)

    def delete(self, ids: list[int]) -> None:
        def work(db: sqlite3.Connection) -> None:
            with db:
                db.executemany("DELETE FROM history WHERE id=?", [(i,) for i in ids])
            db.execute("VACUUM")  # gone from the file, not just unlinked

        self._run(work)

    def clear(self) -> None:
        """Delete every entry but the starred ones, and the damaged databases kept aside: the user asked
        for the text to be gone."""

        def work(db: sqlite3.Connection) -> None:
            with db:
                db.execute("DELETE FROM history WHERE starred = 0")
            db.execute("VACUUM")  # gone, not just unlinked

        self._run(work)
        for kept in self.path.parent.glob(f"{self.path.name}.corrupt-*"):
            kept.unlink()

    def close(self) -> None:
        self._db.close()


EXPORT_COLUMNS = ("time", "model", "source", "translation", "starred", "dictionary")


def export_csv(entries: list[Entry], path: Path) -> None:
    """Write ``entries`` as CSV: UTF-8 with a byte-order mark, so that Excel shows the Chinese too."""
    text = io.StringIO(newline="")
    writer = csv.writer(text, lineterminator="\r\n")
    writer.writerow(EXPORT_COLUMNS)
    for e in entries:
        when = datetime.datetime.fromtimestamp(e.created).isoformat(sep=" ", timespec="seconds")
        found = e.found
        shown = f"{found.entry.word} {found.entry.summary()}" if found is not None else ""
        writer.writerow((when, e.pack, e.source, e.target, "yes" if e.starred else "", shown))
    atomic_write_bytes(path, text.getvalue().encode("utf-8-sig"))
