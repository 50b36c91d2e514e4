"""Documents sent to the API (LibreTranslate's /translate_file, DeepL's /v2/document), kept on disk while
they are translated and until their result has been fetched or ``API_DOCUMENT_KEEP_SECONDS`` pass.

Each lives in a folder of its own under a private temporary folder (0700, removed when the server
stops), named by a random id; a client finds it by that id (and, for DeepL, its key), never by a
path it sends. At most ``API_MAX_DOCUMENTS`` are held at once; more are refused (429).
"""

from __future__ import annotations

import hmac
import re
import secrets
import shutil
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from fanyi import limits, names
from fanyi.cancel import CancelToken

from .errors import ApiError

QUEUED, TRANSLATING, DONE, ERROR = "queued", "translating", "done", "error"


@dataclass
class Document:
    id: str
    key: str  # DeepL's document_key: asked for with the id
    folder: Path
    source: Path
    name: str  # the client's file name (client_name): the output is called after it
    status: str = QUEUED
    to: str | None = None  # what it is written as, where it can be more than one kind (a PDF: "pdf" or "docx")
    bilingual: str | None = None  # "side" or "alternate": the original beside its translation
    output: Path | None = None
    error: str = ""
    characters: int = 0  # translated: DeepL's billed_characters
    untranslated: int = 0  # parts left as they were: the pack could not translate them
    progress: tuple[int, int] = (0, 0)  # units done, of
    started: float = 0.0  # time.monotonic() when the translation started
    finished_at: float | None = None
    finished: threading.Event = field(default_factory=threading.Event)
    cancel: CancelToken = field(default_factory=CancelToken)

    @property
    def download_name(self) -> str:
        """The client's name with the output's language and suffix: report.docx → report.zh.docx."""
        assert self.output is not None
        return Path(self.name).stem + self.output.name[len(self.source.stem) :]

    def seconds_remaining(self) -> int | None:
        done, total = self.progress
        if self.status != TRANSLATING or not done or not total:
            return None
        return round((time.monotonic() - self.started) * (total - done) / done)

    def succeed(self, output: Path, characters: int, untranslated: int = 0) -> None:
        self.output, self.characters, self.untranslated, self.status = output, characters, untranslated, DONE
        self._finish()

    def fail(self, message: str) -> None:
        self.error, self.status = message, ERROR
        self._finish()

    def _finish(self) -> None:
        self.finished_at = time.monotonic()
        self.finished.set()


class Files:
    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._root: Path | None = None
        self._documents: dict[str, Document] = {}

    def add(self, name: str, content: BinaryIO, suffix: str) -> Document:
        """Keep an uploaded document (``name``: client_name's, ``suffix``: its format's, both checked by the
        caller); 429 when full."""
        with self._lock:
            self._expire()
            if len(self._documents) >= limits.API_MAX_DOCUMENTS:
                raise ApiError(
                    429,
                    f"{limits.API_MAX_DOCUMENTS} documents are being translated or waiting to be "
                    "fetched; try again later",
                    retry_after=60,
                )
            if self._root is None:
                self._root = Path(tempfile.mkdtemp(prefix="fanyi-api-"))  # mode 0700
            document_id = secrets.token_hex(16)
            folder = self._root / document_id
            folder.mkdir()
            document = Document(document_id, secrets.token_hex(16), folder, folder / f"source{suffix}", name)
            self._documents[document_id] = document
        try:
            with document.source.open("wb") as out:
                shutil.copyfileobj(content, out)
        except BaseException:
            self.remove(document)
            raise
        return document

    def find(self, document_id: str, key: str | None = None) -> Document:
        """The document with this id (and key, when one is given), or 404."""
        with self._lock:
            self._expire()
            document = self._documents.get(document_id)
        if document is None or (key is not None and not hmac.compare_digest(key.encode(), document.key.encode())):
            raise ApiError(
                404,
                "there is no such document here (or it was removed after "
                f"{limits.API_DOCUMENT_KEEP_SECONDS // 60:g} minutes)",
            )
        return document

    def remove(self, document: Document) -> None:
        document.cancel.cancel()
        with self._lock:
            self._documents.pop(document.id, None)
        shutil.rmtree(document.folder, ignore_errors=True)

    def close(self) -> None:
        """Stop every translation and remove every file (the server is stopping)."""
        with self._lock:
            documents, self._documents = list(self._documents.values()), {}
            root, self._root = self._root, None
        for document in documents:
            document.cancel.cancel()
        if root is not None:
            shutil.rmtree(root, ignore_errors=True)

    def _expire(self) -> None:  # with self._lock held
        now = time.monotonic()
        for document in [
            d
            for d in self._documents.values()
            if d.finished_at is not None and now - d.finished_at > limits.API_DOCUMENT_KEEP_SECONDS
        ]:
            del self._documents[document.id]
            shutil.rmtree(document.folder, ignore_errors=True)


def client_name(given: str | None) -> str:
    """The name a client gave its document, without the folders some clients put before it (RFC 7578 4.2:
    a receiver uses no directory path information); 400 when what is left cannot be a file name (fanyi.names),
    since the translation is downloaded under it."""
    base = re.split(r"[/\\]", given or "")[-1] or "document"
    try:
        return names.check(base, "the file name")
    except names.BadName as exc:
        raise ApiError(400, str(exc)) from None
