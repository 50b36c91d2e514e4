"""Recent translations in a local SQLite file (no Qt here).

The main window keeps one row per draft and updates it as the user types, so translate-as-you-type
does not leave a row for every pause.

A damaged database (not SQLite, pages that fail SQLite's check, a foreign table) is moved aside,
kept as ``history.sqlite3.corrupt-<date>-<time>``, and a new one started; ``on_moved_aside`` is
told where it went so the user can be, once.
"""

from __future__ import annotations

import logging
import os
import sqlite3
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

from fanyi import paths
from fanyi.fsutil import move_aside

log = logging.getLogger(__name__)
T = TypeVar("T")

HISTORY_FILE = "history.sqlite3"
MAX_ROWS = 5000  # old rows are dropped beyond this so the file stays small

_SCHEMA = """
CREATE TABLE IF NOT EXISTS history (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    created REAL NOT NULL,
    pack TEXT NOT NULL,
    source TEXT NOT NULL,
    target TEXT NOT NULL
)
"""
_COLUMNS = {"id", "created", "pack", "source", "target"}


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
        if missing := _COLUMNS - {row[1] for row in db.execute("PRAGMA table_info(history)")}:
            raise _Damaged(f"the history table has no {', '.join(sorted(missing))}")
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

    def save(self, source: str, target: str, pack: str, entry_id: int | None = None) -> int:
        """Insert a row, or update ``entry_id`` when it still exists; returns the row id."""

        def work(db: sqlite3.Connection) -> int:
            with db:
                if entry_id is not None:
                    cur = db.execute(
                        "UPDATE history SET source=?, target=?, pack=?, created=? WHERE id=?",
                        (source, target, pack, time.time(), entry_id),
                    )
                    if cur.rowcount:
                        return entry_id
                cur = db.execute(
                    "INSERT INTO history (created, pack, source, target) VALUES (?, ?, ?, ?)",
                    (time.time(), pack, source, target),
                )
                db.execute("DELETE FROM history WHERE id <= (SELECT max(id) FROM history) - ?", (MAX_ROWS,))
                return int(cur.lastrowid)

        return self._run(work)

    def search(self, query: str = "", limit: int = 200) -> list[Entry]:
        """Newest first; ``query`` matches a substring of the source or the translation."""
        pattern = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = self._run(lambda db: db.execute(
            "SELECT id, created, pack, source, target FROM history "
            "WHERE source LIKE ? ESCAPE '\\' OR target LIKE ? ESCAPE '\\' "
            "ORDER BY created DESC, id DESC LIMIT ?",
            (pattern, pattern, limit),
        ).fetchall())
        return [Entry(*row) for row in rows]

    def clear(self) -> None:
        """Delete every entry, and the damaged databases kept aside: the user asked for the text to be gone."""

        def work(db: sqlite3.Connection) -> None:
            with db:
                db.execute("DELETE FROM history")
            db.execute("VACUUM")  # gone, not just unlinked

        self._run(work)
        for kept in self.path.parent.glob(f"{self.path.name}.corrupt-*"):
            kept.unlink()

    def close(self) -> None:
        self._db.close()
