"""The languages of a request as a pack's family takes them (each family's ``choose`` makes one).

MarianMT: one source language; a multi-target pack picks its target by a ``>>id<<`` token at the
start of the source. mBART-50, M2M100, NLLB-200: the source language token goes into the source
and the target language token is forced as the first target token (``forced_bos_token_id``); both
are named in the model's own codes ("en_XX", "en", "eng_Latn"). Translation LLMs name both
languages in their prompt.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .options import DecodeOptions
    from .pack_view import PackView


@dataclass(frozen=True)
class LanguageChoice:
    source_token: str | None  # the token encode() puts into the source (>>cmn_Hans<<, en_XX, __en__)
    forced_bos_id: int | None  # the first target token, for families that choose the target that way
    source_lang: str  # for sentence splitting: "en", "zh", …
    target_lang: str  # for joining sentences: no spaces between Chinese ones
    source: str | None = None  # the languages in the pack's codes, where a prompt names them (LLMs)
    target: str | None = None
    summary: bool = False  # the request asks for a summary (an LLM's prompt then says so), not a translation


def offered(pack: PackView, what: str, wanted: str, choices: list[str]) -> None:
    """ValueError (one line) when a request names a language the pack does not offer."""
    if wanted not in choices:
        shown = ", ".join(choices[:12]) + (f", … ({len(choices)} in all)" if len(choices) > 12 else "")
        raise ValueError(f"{what} {wanted!r} is not offered by the model {pack.name} (it offers: {shown or 'none'})")


def pick_languages(pack: PackView, options: DecodeOptions | None) -> tuple[str, str]:
    """A many-to-many pack's source and target for a request (its only source when it names none, its
    default target); ValueError (one line) for a language the pack does not offer."""
    sources, targets = pack.source_languages, pack.target_languages
    source = options.source if options else None
    if source is None:
        if len(sources) != 1:
            raise ValueError(
                f"the model {pack.name} translates from {len(sources)} languages: "
                f"name the source language (--source), e.g. {sources[0] if sources else '?'}"
            )
        source = sources[0]
    offered(pack, "source language", source, sources)
    target = (options.target if options else None) or pack.default_target
    if target is None:
        raise ValueError(f"the model {pack.name} needs a target language (--target)")
    offered(pack, "target language", target, targets)
    return source, target
