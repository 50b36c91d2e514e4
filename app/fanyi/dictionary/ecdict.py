"""ECDICT's own formats, read as ECDICT's stardict.py reads them (skywind3000/ECDICT, README.md and stardict.py).

Two files carry the data. The repository's ``ecdict.csv`` (~770k entries): UTF-8 CSV whose first line names
the columns ``word, phonetic, definition, translation, pos, collins, oxford, tag, bnc, frq, exchange,
detail, audio``; text fields escape a line break as ``\\n`` and a backslash as ``\\\\`` (DictCsv.encode), and
an empty number is 0 (DictCsv.readint); a word that repeats another in lower case is left out, the first
kept (DictCsv.__read). The release's ``stardict.db`` (in ``ecdict-sqlite-28.zip``, ~3.4M entries): SQLite
with the same columns in a table ``stardict``, line breaks as they are.

``strip_word`` is ECDICT's ``sw`` key, the word's letters and digits in lower case (stardict.stripword),
which finds ``long-time``, ``longtime`` and ``long time`` alike. ``parse_pairs`` reads the ``exchange``
field (``p:perceived/d:perceived/i:perceiving/3:perceives``; ``0:`` the lemma, ``1:`` which forms of it
this word is) and the ``pos`` field (``n:46/v:54``) as stardict.tools.exchange_loads does.

A file that is neither is refused in one line (DictionaryError); every bound is limits.py's.
"""

from __future__ import annotations

import csv
import io
import sqlite3
import zipfile
import zlib
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO, NamedTuple

from .. import limits
from ..cancel import CancelToken
from .errors import DictionaryError

COLUMNS = ("word", "phonetic", "definition", "translation", "pos", "collins", "oxford", "tag", "bnc", "frq", "exchange")
ALL_COLUMNS = (*COLUMNS, "detail", "audio")  # detail and audio are empty in ECDICT's data ("to be added")
TABLE = "stardict"  # stardict.db's table
SQLITE_MAGIC = b"SQLite format 3\0"
ZIP_MAGIC = b"PK\x03\x04"
SOURCE_SUFFIXES = (".csv", ".db")  # what a zip may hold: the repository's CSV, the release's SQLite file
# sqlite3.h's SQLITE_LIMIT_LENGTH, for Connection.setlimit (Python 3.11+)
_SQLITE_LIMIT_LENGTH = 0

Progress = Callable[[int, int], None]


class Row(NamedTuple):
    """One ECDICT entry as the data holds it: text with real line breaks, numbers as ints (0: none)."""

    word: str
    phonetic: str
    definition: str
    translation: str
    pos: str
    collins: int
    oxford: int
    tag: str
    bnc: int
    frq: int
    exchange: str


def strip_word(word: str) -> str:
    """ECDICT's ``sw`` key: the word's letters and digits, lower case (stardict.py's stripword)."""
    return "".join(c for c in word if c.isalnum()).lower()


def parse_pairs(text: str) -> dict[str, str]:
    """``k:v/k:v`` (the exchange and pos fields) as a dict; items without a colon are left out."""
    pairs: dict[str, str] = {}
    for item in text.split("/") if text else ():
        key, colon, value = item.partition(":")
        if colon:
            pairs[key.strip()] = value.strip()
    return pairs


def _number(text: str | int | None) -> int:
    """DictCsv.readint: "" and anything not a number are 0."""
    if isinstance(text, int):
        return text
    try:
        return int(text or 0)
    except ValueError:
        return 0


def _unescape(text: str) -> str:
    """DictCsv.decode: ``\\n`` a line break, ``\\r`` a carriage return, ``\\\\`` a backslash; others kept."""
    if "\\" not in text:
        return text
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text):
            nxt = text[i + 1]
            out.append({"\\": "\\", "n": "\n", "r": "\r"}.get(nxt, "\\" + nxt))
            i += 2
        else:
            out.append(c)
            i += 1
    return "".join(out)


def kind_of(path: Path) -> str:
    """ "csv", "sqlite" or "zip", told by the file's first bytes; DictionaryError for anything else."""
    try:
        with open(path, "rb") as f:
            head = f.read(4096)
    except OSError as exc:
        raise DictionaryError(f"{path} cannot be read ({exc.strerror or exc})") from None
    if head.startswith(SQLITE_MAGIC):
        return "sqlite"
    if head.startswith(ZIP_MAGIC):
        return "zip"
    first = head.removeprefix(b"\xef\xbb\xbf").split(b"\n", 1)[0].strip().decode("utf-8", "replace")
    if [c.strip() for c in first.split(",")][: len(COLUMNS)] == list(COLUMNS):
        return "csv"
    raise DictionaryError(
        f"{path.name} is not ECDICT data: neither its CSV (whose first line names the columns "
        f"{','.join(COLUMNS)}) nor its SQLite file (stardict.db), nor a .zip holding one"
    )


class _Counting(io.RawIOBase):
    """A binary file that counts the bytes read from it: the CSV reader's progress."""

    def __init__(self, raw: BinaryIO) -> None:
        self.raw, self.count = raw, 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        n = self.raw.readinto(buffer)  # type: ignore[attr-defined]
        self.count += n or 0
        return n or 0


def _check_size(path: Path) -> int:
    size = path.stat().st_size
    if size > limits.MAX_DICTIONARY_SOURCE_BYTES:
        raise DictionaryError(
            f"{path.name} is larger than {limits.MAX_DICTIONARY_SOURCE_BYTES >> 30} GiB: no ECDICT file is that large"
        )
    return size


def read_csv(path: Path, progress: Progress | None = None, cancel: CancelToken | None = None) -> Iterator[Row]:
    """The entries of an ECDICT CSV; progress in bytes read. DictionaryError names the line that is wrong."""
    total = _check_size(path)
    with open(path, "rb") as raw:
        counting = _Counting(raw)
        text = io.TextIOWrapper(io.BufferedReader(counting), encoding="utf-8-sig", newline="")
        reader = csv.reader(text)
        try:
            header = [c.strip() for c in next(reader, [])]
            if header[: len(COLUMNS)] != list(COLUMNS):
                raise DictionaryError(f"{path.name}: the first line does not name ECDICT's columns")
            for number, fields in enumerate(reader, start=2):
                if number % 4096 == 0:
                    if cancel is not None:
                        cancel.raise_if_cancelled()
                    if progress is not None:
                        progress(counting.count, total)
                if not fields:
                    continue
                if any(len(f) > limits.MAX_DICTIONARY_FIELD_CHARS for f in fields):  # past csv's own bound
                    raise DictionaryError(f"{path.name}, line {reader.line_num}: a field is longer than the bound")
                fields += [""] * (len(COLUMNS) - len(fields))
                yield Row(
                    _unescape(fields[0]),
                    _unescape(fields[1]),
                    _unescape(fields[2]),
                    _unescape(fields[3]),
                    _unescape(fields[4]),
                    _number(fields[5]),
                    _number(fields[6]),
                    _unescape(fields[7]),
                    _number(fields[8]),
                    _number(fields[9]),
                    _unescape(fields[10]),
                )
        except UnicodeDecodeError as exc:
            raise DictionaryError(
                f"{path.name} is not UTF-8 text (byte {exc.start} of a block: {exc.reason})"
            ) from None
        except csv.Error as exc:
            raise DictionaryError(f"{path.name}, line {reader.line_num}: {exc}") from None
    if progress is not None:
        progress(total, total)


def open_untrusted(path: Path) -> sqlite3.Connection:
    """A downloaded or imported SQLite file, read-only and defended as sqlite.org/security.html advises: no
    schema-defined functions with side effects, cell sizes checked, no memory map, no value past the field bound."""
    try:
        db = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, check_same_thread=False)
    except sqlite3.Error as exc:
        raise DictionaryError(f"{path.name} cannot be opened as SQLite ({exc})") from None
    try:
        setlimit = getattr(db, "setlimit", None)  # Python 3.11+; the queries cut every value too
        if setlimit is not None:
            setlimit(_SQLITE_LIMIT_LENGTH, limits.MAX_DICTIONARY_FIELD_CHARS * 4)  # bytes of UTF-8
        for pragma in ("trusted_schema=OFF", "cell_size_check=ON", "mmap_size=0"):
            db.execute(f"PRAGMA {pragma}")
    except sqlite3.Error as exc:
        db.close()
        raise DictionaryError(f"{path.name} is not a readable SQLite file ({exc})") from None
    return db


def read_stardict(path: Path, progress: Progress | None = None, cancel: CancelToken | None = None) -> Iterator[Row]:
    """The entries of ECDICT's stardict.db; progress by row id."""
    _check_size(path)
    db = open_untrusted(path)
    try:
        if cancel is not None:  # a hostile file (a view of an endless query) stops at the user's cancel
            db.set_progress_handler(lambda: int(cancel.cancelled), 100_000)
        try:
            kind = db.execute("SELECT type FROM sqlite_master WHERE name = ?", (TABLE,)).fetchone()
            columns = {row[1] for row in db.execute(f"PRAGMA table_info({TABLE})")}
        except sqlite3.DatabaseError as exc:
            raise DictionaryError(f"{path.name} is damaged or not SQLite ({exc})") from None
        if kind is None or kind[0] != "table" or not set(COLUMNS) <= columns:
            raise DictionaryError(f"{path.name} is SQLite but not ECDICT's stardict.db: it has no table {TABLE}")
        try:
            last = db.execute(f"SELECT max(rowid) FROM {TABLE}").fetchone()[0] or 0
            bounded = ", ".join(f"substr({c}, 1, {limits.MAX_DICTIONARY_FIELD_CHARS})" for c in COLUMNS)
            cursor = db.execute(f"SELECT rowid, {bounded} FROM {TABLE}")
            for number, (rowid, *f) in enumerate(cursor, start=1):
                if number % 4096 == 0:
                    if cancel is not None:
                        cancel.raise_if_cancelled()
                    if progress is not None:
                        progress(min(rowid, last), last)
                if not isinstance(f[0], str):
                    continue
                yield Row(
                    f[0],
                    _text(f[1]),
                    _text(f[2]),
                    _text(f[3]),
                    _text(f[4]),
                    _number(f[5]),
                    _number(f[6]),
                    _text(f[7]),
                    _number(f[8]),
                    _number(f[9]),
                    _text(f[10]),
                )
        except sqlite3.OperationalError as exc:
            if cancel is not None and cancel.cancelled:
                cancel.raise_if_cancelled()
            raise DictionaryError(f"{path.name} cannot be read ({exc})") from None
        except sqlite3.DatabaseError as exc:
            raise DictionaryError(f"{path.name} is damaged ({exc})") from None
        if progress is not None:
            progress(last, last)
    finally:
        db.close()


def _text(value: object) -> str:
    return value if isinstance(value, str) else "" if value is None else str(value)


@contextmanager
def unzipped(path: Path, into: Path, cancel: CancelToken | None = None) -> Iterator[Path]:
    """The ECDICT file a .zip holds (the release's ``ecdict-sqlite-28.zip`` holds ``stardict.db``), unpacked
    into the folder `into` for the time of the ``with``; DictionaryError for a zip that holds none, or one
    whose member would unpack past the bounds."""
    try:
        archive = zipfile.ZipFile(path)
    except (zipfile.BadZipFile, OSError) as exc:
        raise DictionaryError(f"{path.name} is not a readable .zip ({exc})") from None
    with archive:
        members = [m for m in archive.infolist() if not m.is_dir() and m.filename.lower().endswith(SOURCE_SUFFIXES)]
        if not members:
            raise DictionaryError(f"{path.name} holds no ECDICT file (ecdict.csv or stardict.db)")
        # the release's file, else the largest: an archive with a readme beside the data is fine
        member = max(members, key=lambda m: (Path(m.filename).name in ("stardict.db", "ecdict.csv"), m.file_size))
        if member.file_size > limits.MAX_DICTIONARY_SOURCE_BYTES:
            raise DictionaryError(f"{path.name}: {member.filename} would unpack to more than the bound")
        suffix = Path(member.filename).suffix.lower()
        into.mkdir(parents=True, exist_ok=True)
        out = into / f"unpacked{suffix}"
        written = 0
        try:
            with archive.open(member) as src, open(out, "wb") as dst:
                for block in iter(lambda: src.read(1 << 20), b""):
                    written += len(block)
                    if written > member.file_size:  # the directory lied: never more than it said
                        raise DictionaryError(f"{path.name}: {member.filename} is longer than the archive says")
                    if cancel is not None:
                        cancel.raise_if_cancelled()
                    dst.write(block)
        except (zipfile.BadZipFile, EOFError, zlib.error) as exc:
            out.unlink(missing_ok=True)
            raise DictionaryError(f"{path.name} is damaged ({exc})") from None
        except BaseException:
            out.unlink(missing_ok=True)
            raise
    try:
        yield out
    finally:
        out.unlink(missing_ok=True)


def read_any(
    path: Path, scratch: Path, progress: Progress | None = None, cancel: CancelToken | None = None
) -> Iterator[Row]:
    """The entries of any ECDICT file: its CSV, its stardict.db, or a .zip holding one (unpacked into `scratch`)."""
    kind = kind_of(path)
    if kind == "zip":
        with unzipped(path, scratch, cancel) as inner:
            if kind_of(inner) == "zip":
                raise DictionaryError(f"{path.name} holds another .zip, not ECDICT's data")
            yield from read_any(inner, scratch, progress, cancel)
        return
    yield from (read_csv if kind == "csv" else read_stardict)(path, progress, cancel)
