"""Recent translations in a local SQLite file (no Qt here).

The main window keeps one row per draft and updates it as the user types, so translate-as-you-type
does not leave a row for every pause.
"""

from __future__ import annotations

import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path

from fanyi import paths

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
    def __init__(self, path: Path | None = None) -> None:
        self.path = path or history_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(self.path)
        # Saved from the GUI thread after each translation: WAL without a sync per commit keeps that
        # cheap, at the price of maybe losing the last entry in a power cut.
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(_SCHEMA)
        self._db.commit()

    def save(self, source: str, target: str, pack: str, entry_id: int | None = None) -> int:
        """Insert a row, or update ``entry_id`` when it still exists; returns the row id."""
        with self._db:
            if entry_id is not None:
                cur = self._db.execute(
                    "UPDATE history SET source=?, target=?, pack=?, created=? WHERE id=?",
                    (source, target, pack, time.time(), entry_id),
                )
                if cur.rowcount:
                    return entry_id
            cur = self._db.execute(
                "INSERT INTO history (created, pack, source, target) VALUES (?, ?, ?, ?)",
                (time.time(), pack, source, target),
            )
            self._db.execute(
                "DELETE FROM history WHERE id <= (SELECT max(id) FROM history) - ?", (MAX_ROWS,)
            )
            return int(cur.lastrowid)

    def search(self, query: str = "", limit: int = 200) -> list[Entry]:
        """Newest first; ``query`` matches a substring of the source or the translation."""
        pattern = "%" + query.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
        rows = self._db.execute(
            "SELECT id, created, pack, source, target FROM history "
            "WHERE source LIKE ? ESCAPE '\\' OR target LIKE ? ESCAPE '\\' "
            "ORDER BY created DESC, id DESC LIMIT ?",
            (pattern, pattern, limit),
        ).fetchall()
        return [Entry(*row) for row in rows]

    def clear(self) -> None:
        with self._db:
            self._db.execute("DELETE FROM history")
        self._db.execute("VACUUM")  # the user asked for the text to be gone, not just unlinked

    def close(self) -> None:
        self._db.close()
