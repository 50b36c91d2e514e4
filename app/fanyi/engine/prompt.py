"""Translation prompts of decoder-only packs: the card's instruction inside the model's own chat template.

A pack records (manifest "prompt") the instructions its model card documents — a plain translation,
one for Chinese pairs, one with a glossary, one with context — and carries the model's chat template
(chat_template.jinja). A request's text becomes one user message, which the template renders the way
transformers' ``apply_chat_template`` does in the card's own example: jinja2's immutable sandbox with the
same extension, filters and globals, the tokenizer's special tokens, the pack's template arguments
(Qwen3: enable_thinking=False) and add_generation_prompt as the card passes it (manifest
"prompt.generation_prompt": HY-MT1.5's card renders without it, so its prompt ends with the template's
``<｜hy_place▁holder▁no▁8｜>``, not ``<｜hy_Assistant｜>``). Rendering a template cannot touch files or
Python objects beyond the values handed to it.

Placeholders in an instruction ({text}, {source_language}, {target_language}, {terms}, {context})
are replaced by name only; a text's own braces are never read as placeholders.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import jinja2
import jinja2.ext
from jinja2.sandbox import ImmutableSandboxedEnvironment

from ..languages import base_language

PLACEHOLDER = re.compile(r"\{(text|source_language|target_language|terms|context)\}")
# the instruction used, by what a request carries: markup, a glossary, context, a Chinese pair
DEFAULT, CHINESE, TERMINOLOGY, CONTEXT, FORMATTED = "default", "chinese", "terminology", "context", "formatted"
SUMMARIZE = "summarize"  # not a translation: the text's summary in the target language (fanyi.summaries)
TEXT, STRUCTURED = "text", "structured"  # a user message's content: the instruction, or TranslateGemma's record
THINK_OPEN, THINK_CLOSE = "<think>", "</think>"
MARKER = "\ue000FANYI\ue000"  # where a text goes, in private-use characters no template writes


class PromptError(ValueError):
    """A chat template that cannot be used: it does not compile, or fails on a translation request."""


def _raise_exception(message: str) -> None:
    raise jinja2.exceptions.TemplateError(message)


def _tojson(
    x: object,
    ensure_ascii: bool = False,
    indent: int | None = None,
    separators: tuple[str, str] | None = None,
    sort_keys: bool = False,
) -> str:
    # transformers' tojson: no HTML escaping, and its keyword arguments
    return json.dumps(x, ensure_ascii=ensure_ascii, indent=indent, separators=separators, sort_keys=sort_keys)


class _GenerationTag(jinja2.ext.Extension):
    """`{% generation %}…{% endgeneration %}` (marks assistant text for training), rendered as its body."""

    tags = {"generation"}

    def parse(self, parser: jinja2.parser.Parser) -> jinja2.nodes.Node:
        lineno = next(parser.stream).lineno
        body = parser.parse_statements(("name:endgeneration",), drop_needle=True)
        return jinja2.nodes.CallBlock(self.call_method("_body"), [], [], body).set_lineno(lineno)

    def _body(self, caller: jinja2.runtime.Macro) -> str:
        return caller()


def compile_template(source: str) -> jinja2.Template:
    env = ImmutableSandboxedEnvironment(
        trim_blocks=True, lstrip_blocks=True, extensions=[_GenerationTag, jinja2.ext.loopcontrols]
    )
    env.filters["tojson"] = _tojson
    env.globals["raise_exception"] = _raise_exception
    env.globals["strftime_now"] = lambda fmt: datetime.now().strftime(fmt)
    try:
        return env.from_string(source)
    except jinja2.TemplateError as exc:
        raise PromptError(f"the chat template does not compile: {exc}") from None


@dataclass(frozen=True)
class Instruction:
    text: str  # with placeholders
    names: str  # the language the language names are written in: "en" or "zh"


@dataclass(frozen=True)
class Request:
    """What one source asks of the model besides its text."""

    source: str  # the pack's language codes
    target: str
    terms: tuple[tuple[str, str], ...] = ()  # glossary entries found in the text: (term, translation)
    context: str = ""  # text before this one (the previous paragraph of a document)
    formatted: bool = False  # the text marks its formatted spans <sn>…</sn> (a document paragraph's markup)
    summarize: bool = False  # the text's summary in the target language, not its translation


class Prompts:
    def __init__(self, section: dict[str, Any], template: str, names: dict[str, tuple[str, str]]) -> None:
        self._template = compile_template(template)
        self._template_kwargs = dict(section["template_kwargs"])
        self._variables = {**section["special_tokens"], **self._template_kwargs}
        self._message = section["message"]
        self.generation_prompt = bool(section["generation_prompt"])
        self._instructions = {
            key: Instruction(value["text"], value["names"]) for key, value in section["instructions"].items()
        }
        self._names = names
        self.term_line = section["term_line"]

    def has(self, key: str) -> bool:
        """Whether the pack's card documents this instruction (terminology, context)."""
        return key in self._instructions

    def name(self, code: str, written_in: str) -> str:
        english, chinese = self._names.get(code, (code, code))
        return chinese if written_in == "zh" else english

    def instruction(self, request: Request) -> Instruction:
        if request.summarize:
            return self._instructions[SUMMARIZE]  # the family offers summaries only where the pack has it
        chinese = "zh" in (base_language(request.source), base_language(request.target))
        wanted_by = (
            (FORMATTED, request.formatted),
            (TERMINOLOGY, bool(request.terms)),
            (CONTEXT, bool(request.context)),
            (CHINESE, chinese),
        )
        for key, wanted in wanted_by:
            if wanted and key in self._instructions:
                return self._instructions[key]
        return self._instructions[DEFAULT]

    def user_message(self, text: str, request: Request) -> str:
        instruction = self.instruction(request)
        terms = "\n".join(
            self.term_line.replace("{term}", term).replace("{translation}", translation)
            for term, translation in request.terms
        )
        values = {
            "text": text,
            "terms": terms,
            "context": request.context,
            "source_language": self.name(request.source, instruction.names),
            "target_language": self.name(request.target, instruction.names),
        }
        return PLACEHOLDER.sub(lambda m: values[m.group(1)], instruction.text)

    def messages(self, text: str, request: Request) -> list[dict[str, Any]]:
        """The conversation a translation request is: one user message."""
        if self._message == STRUCTURED:
            content: object = [
                {"type": "text", "source_lang_code": request.source, "target_lang_code": request.target, "text": text}
            ]
        else:
            content = self.user_message(text, request)
        return [{"role": "user", "content": content}]

    @property
    def template_kwargs(self) -> dict[str, Any]:
        return dict(self._template_kwargs)

    def render(self, text: str, request: Request) -> str:
        """The whole prompt as text, ending where the model's answer starts."""
        return self._render(self.messages(text, request), self.generation_prompt)

    def _render(self, messages: list[dict[str, Any]], generation_prompt: bool) -> str:
        try:
            return self._template.render(
                messages=messages,
                tools=None,
                documents=None,
                add_generation_prompt=generation_prompt,
                **self._variables,
            )
        except jinja2.TemplateError as exc:
            raise PromptError(f"the chat template fails on these messages: {exc}") from None

    def conversation(self, messages: list[dict[str, Any]]) -> str:
        """A whole conversation (a chat client's messages) as the template renders it, ending where the model's
        answer starts, as the pack's card prompts it (``generation_prompt``)."""
        return self._render(messages, self.generation_prompt)

    def after_answer(self, request: Request) -> str:
        """What the template writes after the model's answer, up to the end of the conversation: its end of
        turn comes first (<end_of_turn>, <|im_end|>). PromptError where the template renders no answer."""
        answered = self.messages("Hello.", request) + [{"role": "assistant", "content": MARKER}]
        rendered = self._render(answered, False)
        if MARKER not in rendered:
            raise PromptError("the chat template does not write the model's answer back")
        return rendered[rendered.index(MARKER) + len(MARKER) :]

    def fixed_prefix(self, request: Request) -> str:
        """The prompt's text before the source text: the same for every text of this language pair."""
        rendered = self.render(MARKER, request)
        return rendered[: rendered.index(MARKER)] if MARKER in rendered else ""


@dataclass(frozen=True)
class StripRule:
    """What a model writes around its translation, removed by rule (manifest "prompt.strip"): a leading
    <think>…</think> block, and literal prefixes such as "Translation:"."""

    think: bool = False
    prefixes: tuple[str, ...] = ()

    def apply(self, text: str) -> str:
        return text[self.held(text, final=True) :]

    def held(self, text: str, final: bool = False) -> int:
        """How many leading characters of `text` are removed. Before the text is `final`, a start that may
        still turn into a removed part is held back whole."""
        i = len(text) - len(text.lstrip())
        if self.think:
            rest = text[i:]
            if rest.startswith(THINK_OPEN):
                end = rest.find(THINK_CLOSE)
                if end < 0:  # never closed: held while it may close, kept at the end (no guessing)
                    return i if final else len(text)
                i += end + len(THINK_CLOSE)
                i = len(text) - len(text[i:].lstrip())
            elif not final and THINK_OPEN.startswith(rest):
                return len(text)
        rest = text[i:]
        for prefix in self.prefixes:
            if rest.startswith(prefix):
                i += len(prefix)
                return len(text) - len(text[i:].lstrip())
            if not final and prefix.startswith(rest):
                return len(text)
        return i


def strip_rule(section: dict[str, Any]) -> StripRule:
    return StripRule(bool(section.get("think")), tuple(section.get("prefixes") or ()))
