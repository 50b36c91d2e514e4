"""What a decoder-only pack's chat template says, found at export through the engine's own renderer.

The end of a turn: the token the template writes after the model's answer (<end_of_turn>, <|im_end|>),
which the runtime stops at whether or not the folder's generation_config lists it among its eos ids (a
third-party copy of TranslateGemma's lists only <eos>). And the languages: every code the pack offers
must render through the template (TranslateGemma's maps codes to names and refuses the rest), or the
export fails in one line instead of a translation at run time.

Read with the tokenizers library and the engine's jinja2 sandbox (engine/prompt.py): no transformers.
"""

from __future__ import annotations

from typing import Any

from tokenizers import Tokenizer

from ..engine.prompt import PromptError, Prompts, Request
from .errors import ExportError


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


def check_languages(prompts: Prompts, codes: list[str], default: str) -> None:
    """ExportError naming the first offered code the template cannot render, as source or as target."""
    for code in codes:
        other = default if code != default else next((c for c in codes if c != code), code)
        for source, target in ((code, other), (other, code)):
            try:
                prompts.render("Hello.", Request(source, target))
            except PromptError as exc:
                raise ExportError(
                    f"language {code!r} is offered but the chat template cannot render it: {exc}"
                ) from None


def record_chat_template(manifest: dict[str, Any], template: str, tokenizer_json: str) -> None:
    """Check the pack's languages against its template and record its end of turn (manifest "prompt.end_of_turn",
    its id added to the ids decoding stops at)."""
    prompts = _prompts(manifest, template)
    languages = manifest["languages"]
    default = manifest["default_target"] or languages["target"][0]
    check_languages(prompts, sorted(set(languages["source"]) | set(languages["target"])), default)
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
