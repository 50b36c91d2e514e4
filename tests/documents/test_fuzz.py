"""Mutated files of every format: the only way a document may fail is a one-line DocumentError.

Valid small files (the fixtures of the format tests, python-docx and python-pptx output, PDFs with
and without compressed streams) are damaged with a fixed seed: bits flipped, bytes overwritten,
ranges deleted or duplicated, random bytes inserted, the file truncated; for ZIP formats also the
XML inside an entry, re-zipped so the damage reaches the parsers. Each case runs through
``translate_document`` with the fast fake translator; a sample also runs through ``fanyi file`` as
a subprocess, which must print no traceback. ``FUZZ_SEED=n`` picks other cases (for a longer hunt,
raise CASES_PER_FORMAT too); the suite runs the fixed default.
"""

from __future__ import annotations

import io
import os
import random
import re
import subprocess
import sys
import traceback
import zipfile
import zlib
from collections.abc import Callable
from pathlib import Path

import pytest
from docfixtures import FakeTranslator, leftovers, make_pdf, page_text, pdf_with_contents, zip_bytes

from fanyi.documents import DocumentError, translate_document

SEED = int(os.environ.get("FUZZ_SEED", "20240611"))
CASES_PER_FORMAT = 40


def seed_documents(tmp: Path) -> dict[str, bytes]:
    """A small valid document of every format, by suffix (the pdf twice: plain and flate-compressed)."""
    from test_docx import build_docx
    from test_epub import ENTRIES, chapter
    from test_html import PAGE
    from test_markdown import SOURCE as MARKDOWN
    from test_pdf import PAGES
    from test_pptx import build_pptx
    from test_subtitles import SRT, VTT
    from test_txt import SOURCE as TEXT

    build_docx(tmp / "seed.docx")
    build_pptx(tmp / "seed.pptx")
    compressed = [(zlib.compress(page_text(lines)), "/FlateDecode") for lines in PAGES]
    return {
        ".txt": TEXT.encode(),
        ".md": MARKDOWN.encode(),
        ".srt": SRT.encode(),
        ".vtt": VTT.encode(),
        ".html": PAGE.encode(),
        ".xhtml": chapter("One", "<h1>Chapter one</h1><p>It was a <i>dark</i> night.<br/>Rain.</p>").encode(),
        ".docx": (tmp / "seed.docx").read_bytes(),
        ".pptx": (tmp / "seed.pptx").read_bytes(),
        ".epub": zip_bytes(ENTRIES, stored=["mimetype"]),
        ".pdf": make_pdf(PAGES),
        ".flate.pdf": pdf_with_contents(compressed),
    }


def _flip(data: bytearray, rng: random.Random) -> None:
    for _ in range(rng.randint(1, 8)):
        position = rng.randrange(len(data))
        data[position] ^= 1 << rng.randrange(8)


def _overwrite(data: bytearray, rng: random.Random) -> None:
    for _ in range(rng.randint(1, 4)):
        data[rng.randrange(len(data))] = rng.choice(b"\x00\xff<>&;\"'/\\\n\r()[]{}#*-|`%")


def _truncate(data: bytearray, rng: random.Random) -> None:
    del data[rng.randrange(1, len(data)) :]


def _delete(data: bytearray, rng: random.Random) -> None:
    start = rng.randrange(len(data))
    del data[start : start + rng.randint(1, 64)]


def _duplicate(data: bytearray, rng: random.Random) -> None:
    start = rng.randrange(len(data))
    piece = data[start : start + rng.randint(1, 256)]
    at = rng.randrange(len(data))
    data[at:at] = piece * rng.randint(1, 3)


def _insert(data: bytearray, rng: random.Random) -> None:
    at = rng.randrange(len(data))
    data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 16)))


Mutation = Callable[[bytearray, random.Random], None]
MUTATIONS: list[Mutation] = [_flip, _overwrite, _truncate, _delete, _duplicate, _insert]


def mutate(data: bytes, rng: random.Random) -> bytes:
    damaged = bytearray(data)
    for _ in range(rng.randint(1, 3)):
        if len(damaged) > 1:
            rng.choice(MUTATIONS)(damaged, rng)
    return bytes(damaged)


def mutate_entry(package: bytes, rng: random.Random) -> bytes:
    """One entry of a ZIP package mutated (an XML part, mostly) and the package zipped again."""
    with zipfile.ZipFile(io.BytesIO(package)) as archive:
        entries = [(info, archive.read(info)) for info in archive.infolist()]
    markup = [n for n, (info, _) in enumerate(entries) if info.filename.endswith((".xml", ".xhtml", ".opf", ".rels"))]
    victim = rng.choice(markup or range(len(entries)))
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        for n, (info, data) in enumerate(entries):
            archive.writestr(info, mutate(data, rng) if n == victim else data)
    return buffer.getvalue()


def cases(seeds: dict[str, bytes], kind: str) -> list[tuple[str, bytes]]:
    rng = random.Random(f"{SEED}{kind}")
    seed = seeds[kind]
    zipped = kind in (".docx", ".pptx", ".epub")
    return [
        (f"case{n}", mutate_entry(seed, rng) if zipped and n % 2 else mutate(seed, rng))
        for n in range(CASES_PER_FORMAT)
    ]


@pytest.fixture(scope="module")
def seeds(tmp_path_factory) -> dict[str, bytes]:
    return seed_documents(tmp_path_factory.mktemp("seeds"))


KINDS = [".txt", ".md", ".srt", ".vtt", ".html", ".xhtml", ".docx", ".pptx", ".epub", ".pdf", ".flate.pdf"]


@pytest.mark.parametrize("kind", KINDS)
def test_a_damaged_document_fails_only_with_a_one_line_document_error(tmp_path, seeds, kind, capsys):
    suffix = ".pdf" if kind.endswith(".pdf") else kind
    problems, outcomes = [], {"translated": 0, "refused": 0}
    for name, data in cases(seeds, kind):
        folder = tmp_path / name
        folder.mkdir()
        src = folder / f"{name}{suffix}"
        src.write_bytes(data)
        try:
            translate_document(src, FakeTranslator(record=False))
            outcomes["translated"] += 1
        except DocumentError as error:
            outcomes["refused"] += 1
            message = str(error)
            if "\n" in message or len(message) > 600 or not message.startswith(("Could not", "Will not", str(folder))):
                problems.append(f"{name}: {type(error).__name__} not one readable line: {message!r}")
        except Exception as error:  # noqa: BLE001 - the point of the test
            frames = "".join(traceback.format_exception(error)[-4:])
            problems.append(f"{name}: {type(error).__name__}: {error}\n{frames}")
        if leftovers(folder):
            problems.append(f"{name}: left {leftovers(folder)}")
    assert not problems, f"{len(problems)} of {CASES_PER_FORMAT} damaged {kind} files:\n" + "\n".join(problems)
    assert outcomes["translated"] + outcomes["refused"] == CASES_PER_FORMAT
    assert capsys.readouterr().err == ""  # nothing else reaches the terminal (pdfminer logs warnings)


def test_fanyi_file_prints_no_traceback_for_damaged_documents(tiny_pack, tmp_path, seeds):
    paths = []
    for kind in KINDS:
        suffix = ".pdf" if kind.endswith(".pdf") else kind
        for name, data in cases(seeds, kind)[:3]:
            path = tmp_path / f"{kind.strip('.').replace('.', '-')}-{name}{suffix}"
            path.write_bytes(data)
            paths.append(str(path))
    result = subprocess.run(
        [sys.executable, "-m", "fanyi", "file", "--model", str(tiny_pack), *paths],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert result.returncode in (0, 1)
    assert "Traceback" not in result.stderr and "Error" not in result.stderr.replace("error: ", ""), result.stderr
    for line in result.stderr.splitlines():
        shown = line.split("\r")[-1]
        # an error, a progress bar (a terminal) or a progress line ("name: 3/7", into a pipe), or nothing
        assert (
            shown.startswith("error: ")
            or "] " in shown
            or re.fullmatch(r".+: \d+/\d+", shown.strip())
            or not shown.strip()
        ), line
    assert leftovers(tmp_path) == []
