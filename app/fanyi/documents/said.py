"""What a document's report says, as data: a kind of line and its parameters.

A report's reasons and notes are text (the command line prints them, the local API sends them); a line made
with ``said(kind, **parameters)`` is that text too — its English, from ENGLISH below — and keeps its kind and
parameters, from which the app says it in its own language (fanyi.ui.report_dialog holds a template of every
kind, with the same {names}; tests/ui/test_report_language.py holds the two tables equal). A parameter is a
number, a piece of text the report quotes as it is, or a line of its own (``Said``), said in the same
language; a tuple of lines is said one after the other, joined by "; ". A new kind is one line here, one
template in the app, and its translation in assets/i18n.

A plain string is a line too, one that has no kind: the app says the ones it knows (fixed reasons such as
"numbers or symbols only") in its language and any other (an engine's message) as it is.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from fanyi.engine import REASONS

# kind → its English, {parameters} in braces
ENGLISH: dict[str, str] = {
    # a part the model could not translate (fanyi.engine.degenerate's reasons), and how the job says it
    **{f"model.{kind.replace(' ', '_')}": reason for kind, reason in REASONS.items()},
    "model.again": "{reason}, also when translated again with a repetition guard",
    "model.sentences": "{sentences}",
    "model.sentence": "sentence “{sentence}”: {reason}",
    "model.empty_translation": "the translator returned an empty translation",
    # a report's first line when more of a document's words were left than translated (base.JobReport)
    "report.mostly_left": "most of its words were left as they were: {left} of {total} letters ({reasons})",
    # a PDF: what its writer drew smaller or could not draw, page by page (fanyi.documents.pdf.rewrite)
    "pdf.page": "page {page}: {facts}",
    "pdf.kept": "could not be rewritten ({reason}) and is kept as it was",
    "pdf.shrunk": "{count} drawn smaller than the rest of their kind to fit",
    "pdf.overflowed": "{count} drawn below the smallest size set for them to fit",
    "pdf.cut": "{count} cut short (“…”): they did not fit even at the smallest size",
    "pdf.no_glyph": "the font has no glyph for {characters}: those characters are not drawn",
    # a PDF's pages without a text layer (fanyi.documents.pdf.document)
    "pdf.page_has": "page {pages} has",
    "pdf.pages_have": "pages {pages} have",
    "pdf.ocr": "{pages} no text layer (a scan): the text there was recognised by OCR and may hold misread characters",
    "pdf.no_ocr": "{pages} no text layer and were left out: {error}",
}


class Said(str):
    """A report's line: its English text, with the kind and parameters it was made of."""

    kind: str
    parameters: Mapping[str, Any]

    def __new__(cls, kind: str, **parameters: Any) -> Said:
        line = super().__new__(cls, say(kind, parameters, ENGLISH.__getitem__, str, "; "))
        line.kind = kind
        line.parameters = parameters
        return line

    def __reduce__(self) -> tuple[Any, ...]:  # a copy keeps its kind (str would give a plain string back)
        return _said, (self.kind, dict(self.parameters))


def _said(kind: str, parameters: dict[str, Any]) -> Said:
    return Said(kind, **parameters)


def said(kind: str, **parameters: Any) -> Said:
    """A line of ``kind`` (a key of ENGLISH) with its parameters."""
    return Said(kind, **parameters)


def model_failed(kind: str) -> Said:
    """Why the model could not translate a sentence (a fanyi.engine.degenerate kind)."""
    return said(f"model.{kind.replace(' ', '_')}")


def say(
    kind: str,
    parameters: Mapping[str, Any],
    template: Callable[[str], str],
    text: Callable[[str], str],
    joiner: str,
) -> str:
    """A line in a language: ``template(kind)`` with its parameters said in the same language — a line by its own
    template, a tuple of lines joined by ``joiner``, a plain string by ``text``, a number as it is."""

    def value(v: Any) -> str:
        if isinstance(v, Said):
            return say(v.kind, v.parameters, template, text, joiner)
        if isinstance(v, tuple):
            return joiner.join(value(item) for item in v)
        return text(v) if isinstance(v, str) else str(v)

    return template(kind).format(**{name: value(v) for name, v in parameters.items()})
