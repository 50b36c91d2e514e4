"""What a decoder-only pack's chat template says, found at export through the engine's own renderer.

The end of a turn: the token the template writes after the model's answer (<end_of_turn>, <|im_end|>),
which the runtime stops at whether or not the folder's generation_config lists it among its eos ids (a
third-party copy of TranslateGemma's lists only <eos>). And the languages: the pack offers exactly the codes
its template renders (TranslateGemma's maps codes to names and refuses the rest), each probed here; the others
are left out and said in the log, and the export fails in one line only when English or Chinese cannot render.

Read with the tokenizers library and the engine's jinja2 sandbox (engine/prompt.py): no transformers.
"""

from __future__ import annotations

import logging
from typing import Any

from tokenizers import Tokenizer

from ..engine.prompt import PromptError, Prompts, Request
from ..languages import CHINESE, ENGLISH
from .errors import ExportError

log = logging.getLogger(__name__)
ESSENTIAL = {ENGLISH: "English", CHINESE: "Chinese"}  # a pack that cannot render these is no use to Fanyi


def _prompts(manifest: dict[str, Any], template: str) -> Prompts:
    names = {code: (pair[0], pair[1]) for code, pair in manifest["languages"]["names"].items()}
    return Prompts(manifest["prompt"], template, names)


def end_of_turn(prompts: Prompts, tokenizer: Tokenizer, request: Request) -> str | None:
    """The special token the template closes the model's answer with; None where it writes no answer back."""
    try:
        after = prompts.after_answer(request)
    except PromptError:
        return None
    ids = tokenizer.encode(after, add_special_tokens=False).ids
    special = {token.content for token in tokenizer.get_added_tokens_decoder().values() if token.special}
    token = tokenizer.id_to_token(ids[0]) if ids else None
    return token if token in special else None


def _fails(prompts: Prompts, source: str, target: str) -> str | None:
    """Why the template cannot render a request from ``source`` into ``target``, or None."""
    try:
        prompts.render("Hello.", Request(source, target))
    except PromptError as exc:
        return str(exc)
    return None


def renderable(prompts: Prompts, codes: list[str]) -> list[str]:
    """The codes the template renders, as source and as target of a request with another offered code (English,
    once it is known to render); ExportError in one line when English or Chinese does not render."""

    def why_not(code: str, partners: list[str]) -> str | None:
        first = None
        for other in partners:
            why = _fails(prompts, code, other) or _fails(prompts, other, code)
            if why is None:
                return None
            first = first or why
        return first or "no other language is offered"

    for code, name in ESSENTIAL.items():
        if code in codes and (why := why_not(code, [c for c in codes if c != code])) is not None:
            raise ExportError(f"the chat template cannot render {name} ({code!r}): {why}")
    anchor = next((code for code in ESSENTIAL if code in codes), None)
    return [
        code
        for code in codes
        if code == anchor or why_not(code, [anchor] if anchor else [c for c in codes if c != code]) is None
    ]


def offer_renderable(manifest: dict[str, Any], prompts: Prompts) -> None:
    """Keep in the manifest's languages only the codes the template renders; log the rest."""
    languages = manifest["languages"]
    offered = list(dict.fromkeys([*languages["source"], *languages["target"]]))
    kept = set(renderable(prompts, offered))
    left = sorted(set(offered) - kept)
    if not left:
        return
    log.warning(
        "the chat template cannot render %d of the languages Fanyi offers (%s): left out of the pack's languages",
        len(left),
        ", ".join(left),
    )
    for side in ("source", "target"):
        languages[side] = [code for code in languages[side] if code in kept]
    languages["names"] = {code: names for code, names in languages["names"].items() if code in kept}


def record_chat_template(manifest: dict[str, Any], template: str, tokenizer_json: str) -> None:
    """Check the pack's languages against its template and record its end of turn (manifest "prompt.end_of_turn",
    its id added to the ids decoding stops at)."""
    prompts = _prompts(manifest, template)
    offer_renderable(manifest, prompts)
    languages = manifest["languages"]
    default = manifest["default_target"] or languages["target"][0]
    tokenizer = Tokenizer.from_str(tokenizer_json)
    source = next((c for c in languages["source"] if c != default), default)
    token = end_of_turn(prompts, tokenizer, Request(source, default))
    if token is None:
        return
    manifest["prompt"]["end_of_turn"] = token
    ids = manifest["special_ids"]
    stops = ids["eos_all"] or [ids["eos"]]
    token_id = tokenizer.token_to_id(token)
    ids["eos_all"] = stops if token_id in stops else [*stops, token_id]
