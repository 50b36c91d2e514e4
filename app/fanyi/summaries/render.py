"""A Summary as the command line, the local API and a saved file show it: Markdown text, or a Word document,
written beside its source as ``name.summary.<language>.md`` (numbered when taken), atomically."""

from __future__ import annotations

import io
import itertools
import re
from pathlib import Path

from ..documents.characters import scrub
from ..fsutil import atomic_write_bytes
from .run import Summary

FORMATS = (".md", ".docx")


def note(summary: Summary) -> str | None:
    """What the reader should know of how the summary was made, in one line (English)."""
    if summary.given_back:
        return "The text is shorter than a summary would be: it is given back as it was."
    said = []
    if summary.pretranslated_with:
        said.append(
            f"The text was translated into English by {summary.pretranslated_with} first: "
            f"{summary.model} summarizes English."
        )
    if summary.translated_with:
        said.append(f"Summarized in English by {summary.model}, translated by {summary.translated_with}.")
    return " ".join(said) or None


def markdown(summary: Summary) -> str:
    """The summary, the English one it was translated from, and the note."""
    parts = [summary.text.strip()]
    if summary.english:
        parts += ["---", f"English ({summary.model}):", summary.english.strip()]
    if said := note(summary):
        parts.append(f"*{said}*")
    return "\n\n".join(parts) + "\n"


def docx_bytes(summary: Summary, text: str | None = None) -> bytes:
    """A Word document of `text` (Markdown's headings and blocks; by default markdown(summary))."""
    from docx import Document  # noqa: PLC0415 - python-docx loads lxml: only when a .docx is asked for

    document = Document()
    shown, _dropped = scrub(markdown(summary) if text is None else text)  # what a model wrote and XML cannot hold
    for block in shown.split("\n\n"):
        block = block.strip()
        if not block or block == "---":
            continue
        if block.startswith("## "):
            document.add_heading(block[3:], level=2)
        elif block.startswith("*") and block.endswith("*") and len(block) > 1:
            document.add_paragraph().add_run(block.strip("*")).italic = True
        else:
            document.add_paragraph(block)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def output_path(src: Path, language: str, suffix: str) -> Path:
    """``name.summary.zh.md`` beside the source, ``name.summary.zh.1.md`` … when taken."""
    if suffix not in FORMATS:
        raise ValueError(f"a summary is saved as {' or '.join(FORMATS)}, not {suffix}")
    language = re.sub(r"[^A-Za-z0-9_-]", "", language) or "summary"
    names = itertools.chain(
        [f"{src.stem}.summary.{language}{suffix}"],
        (f"{src.stem}.summary.{language}.{n}{suffix}" for n in itertools.count(1)),
    )
    return next(path for name in names if not (path := src.parent / name).exists())


def save(summary: Summary, path: Path, text: str | None = None) -> Path:
    """Write the summary as Markdown or Word (by the suffix), all at once or not at all; `text` in place of
    markdown(summary) (the app's, in its UI language)."""
    shown = markdown(summary) if text is None else text
    data = docx_bytes(summary, shown) if path.suffix == ".docx" else shown.encode("utf-8")
    atomic_write_bytes(path, data)
    return path
