"""Which installed packs make a summary of a text, in which language: no Qt, no model loaded (their PackInfo).

- An LLM pack that summarizes (Qwen3's prompts say how) and offers both languages writes the summary in the
  target language itself, from a text in any language it reads. It is preferred for a summary in a language
  other than English, and wherever BART cannot read the text.
- A BART pack summarizes English into English. A summary asked for in another language is the English one
  translated by the pack that translates English into it (the English is kept beside it). A text in another
  language is translated into English first, and the summary says so.
- Chinese written in Traditional characters (zh-Hant, zh-TW, zh-HK) is written in Simplified and converted by
  OpenCC, as elsewhere in Fanyi (fanyi.variants).

Models made only to translate (MarianMT, HY-MT1.5, TranslateGemma) are never asked for a summary. With none that
can, or none for the text's language, NoSummarizer says so in one line.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Generic, Protocol, TypeVar

from .. import langid, routing
from ..languages import CANTONESE, SIMPLIFIED, TOLD_BY_SCRIPT, Language, base_language, requested

ENGLISH = "en"  # what a BART summarizer reads and writes


class Pack(routing.Pack, Protocol):
    """What the plan reads of a pack (fanyi.library.installed.PackInfo)."""

    @property
    def summarizes(self) -> bool: ...
    @property
    def family(self) -> str: ...


P = TypeVar("P", bound=Pack)


class NoSummarizer(ValueError):
    """No installed pack can summarize what was asked; one line for the user."""


@dataclass(frozen=True)
class Plan(Generic[P]):
    summarizer: P
    source: str  # the text's language ("en", "zh"), given or detected
    target: Language  # the summary's language, as asked (zh with its way of writing)
    reads: str | None = None  # an LLM summarizer's codes for the two languages (None: BART's English)
    writes: str | None = None
    before: routing.Route[P] | None = None  # the text translated into English for BART first
    after: routing.Route[P] | None = None  # BART's English summary translated into the target

    @property
    def direct(self) -> bool:
        """The summarizer writes the target language itself (an LLM)."""
        return self.writes is not None

    @property
    def rewrite(self) -> str | None:
        """The way of writing Chinese OpenCC turns the Simplified summary into, if not Simplified."""
        variant = self.target.variant
        return variant if self.target.code == "zh" and variant not in (None, SIMPLIFIED, CANTONESE) else None


def _llm_code(pack: Pack, codes: tuple[str, ...], language: str) -> str | None:
    """The pack's code of a language, Simplified Chinese for zh."""
    fitting = [c for c in codes if base_language(c) == language]
    return next((c for c in fitting if c.lower() in (language, "zh-hans", "zh_cn")), fitting[0] if fitting else None)


def detect(text: str, packs: list[P]) -> str:
    """The language a text is written in, among those the packs read (English preferred in a tie)."""
    candidates = list(TOLD_BY_SCRIPT)
    for pack in packs:
        for code in (*pack.source_languages, pack.source_lang):
            if code and code != "mul" and (base := base_language(code)) not in candidates:
                candidates.append(base)
    return langid.detect(text, candidates, prefer=[ENGLISH]).language


def plan(
    packs: list[P], text: str, target: str | None = None, *, source: str | None = None, model: str | None = None
) -> Plan[P]:
    """How `text` is summarized into `target` (None: the text's own language) with the installed `packs`;
    `model` names the summarizer (a pack's name or folder). NoSummarizer (one line) when nothing can."""
    usable = [p for p in packs if p.usable]
    summarizers = [p for p in usable if p.summarizes]
    if model is not None:
        chosen = [p for p in usable if model in (p.name, str(p.path), Path(p.path).name)]
        if not chosen:
            raise NoSummarizer(f"no installed model is named {model!r}")
        if not chosen[0].summarizes:
            raise NoSummarizer(f"the model {chosen[0].name} translates; it does not summarize")
        summarizers = chosen
    if not summarizers:
        raise NoSummarizer(
            "no installed model can summarize: install bart-large-cnn or distilbart-cnn-12-6 (English), or a Qwen3 "
            "pack (fanyi models install NAME)"
        )
    language = base_language(source) if source else detect(text, usable)
    wanted = requested(target) if target else Language(language, SIMPLIFIED if language == "zh" else None)
    llms = [p for p in summarizers if p.languages]
    bart = [p for p in summarizers if not p.languages]
    direct = [
        (p, reads, writes)
        for p in llms
        if (reads := _llm_code(p, tuple(p.source_languages), language)) is not None
        and (writes := _llm_code(p, p.languages, wanted.code)) is not None
    ]
    # BART is made to summarize English: an English summary of an English text is its job
    if bart and language == ENGLISH and wanted.code == ENGLISH or not direct:
        return _through_english(bart, usable, text, language, wanted)
    pack, reads, writes = direct[0]
    return Plan(pack, language, wanted, reads, writes)


def _through_english(bart: list[P], usable: list[P], text: str, language: str, wanted: Language) -> Plan[P]:
    if not bart:
        raise NoSummarizer(f"no installed model can summarize text in {language} into {wanted.code}")
    translating = [p for p in usable if p.translates]
    other = "; a Qwen3 pack summarizes other languages itself (fanyi models install NAME)"
    before = after = None
    if language != ENGLISH:
        try:
            before = routing.route(translating, language, ENGLISH, text)
        except routing.NoRoute:
            raise NoSummarizer(
                f"{bart[0].name} summarizes English only, and no installed model translates {language} into English"
                + other
            ) from None
    if wanted.code != ENGLISH:
        try:
            after = routing.route(translating, ENGLISH, wanted.code)
        except routing.NoRoute:
            raise NoSummarizer(
                f"{bart[0].name} summarizes in English, and no installed model translates English into {wanted.code}"
                + other
            ) from None
    return Plan(bart[0], language, wanted, before=before, after=after)
