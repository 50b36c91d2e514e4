"""Summaries: a long text's gist, in its language or another, offline. No Qt: the window, the documents
dialog, the popup, the command line and the local API all call here.

plan.py chooses the packs (a BART summarizer, an LLM that summarizes, the translation packs around BART);
sections.py and chunks.py cut a text at its section and paragraph bounds into what a model reads whole;
run.py summarizes (short, or by section), combines and translates, streamed; document.py reads a document's
text; render.py shows and saves the result.
"""

from .document import read_paragraphs
from .plan import NoSummarizer, Plan, detect, plan
from .render import markdown, note, output_path, save
from .run import (
    COMBINING,
    LENGTHS,
    SECTIONS,
    SHORT,
    SUMMARIZING,
    TRANSLATING,
    TRANSLATING_SUMMARY,
    Progress,
    SectionSummary,
    Summary,
    SummaryError,
    check_text,
    summarize,
)
from .sections import paragraphs_of

__all__ = [
    "COMBINING",
    "LENGTHS",
    "SECTIONS",
    "SHORT",
    "SUMMARIZING",
    "TRANSLATING",
    "TRANSLATING_SUMMARY",
    "NoSummarizer",
    "Plan",
    "Progress",
    "SectionSummary",
    "Summary",
    "SummaryError",
    "check_text",
    "detect",
    "markdown",
    "note",
    "output_path",
    "paragraphs_of",
    "plan",
    "read_paragraphs",
    "save",
    "summarize",
]
