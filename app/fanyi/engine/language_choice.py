"""Which languages a request asks for, and how the pack's family is told.

MarianMT: one source language; a multi-target pack picks its target by a ``>>id<<`` token at the
start of the source. mBART-50, M2M100, NLLB-200: the source language token goes into the source
and the target language token is forced as the first target token (``forced_bos_token_id``); both
are named in the model's own codes ("en_XX", "en", "eng_Latn").
"""

from __future__ import annotations

from dataclasses import dataclass

from .options import DecodeOptions
from .pack import ModelPack

# ISO 639-3 codes of NLLB-200 whose ISO 639-1 code the sentence splitter and joiner know
_ISO639_1 = {"zho": "zh", "yue": "yue", "jpn": "ja", "kor": "ko", "eng": "en", "cmn": "zh"}


@dataclass(frozen=True)
class LanguageChoice:
    source_token: str | None  # the token encode() puts into the source (>>cmn_Hans<<, en_XX, __en__)
    forced_bos_id: int | None  # the first target token, for families that choose the target that way
    source_lang: str  # for sentence splitting: "en", "zh", …
    target_lang: str  # for joining sentences: no spaces between Chinese ones


def base_language(code: str) -> str:
    """A model's language code as the splitter and joiner read it: zh_CN → zh, zho_Hans → zh, eng_Latn → en."""
    base = code.replace("-", "_").split("_")[0].lower()
    return _ISO639_1.get(base, base)


def _offered(pack: ModelPack, what: str, wanted: str, offered: list[str]) -> None:
    if wanted not in offered:
        shown = ", ".join(offered[:12]) + (f", … ({len(offered)} in all)" if len(offered) > 12 else "")
        raise ValueError(f"{what} {wanted!r} is not offered by the model {pack.name} (it offers: {shown or 'none'})")


def choose(pack: ModelPack, options: DecodeOptions | None) -> LanguageChoice:
    """The languages of a request; ValueError (one line) for a language the pack does not offer."""
    o = options or DecodeOptions()
    if pack.family.target_language == "source_token":
        if o.source is not None and o.source != pack.source_lang:
            raise ValueError(f"the model {pack.name} translates from {pack.source_lang!r} only, not {o.source!r}")
        wanted = o.target or pack.default_target
        token = None
        if wanted is not None:
            tokens = pack.target_tokens
            _offered(pack, "target", wanted, sorted(tokens))
            token = tokens[wanted]
        return LanguageChoice(token, None, pack.source_lang, pack.target_lang)

    sources, targets = pack.source_languages, pack.target_languages
    source = o.source
    if source is None:
        if len(sources) != 1:
            raise ValueError(f"the model {pack.name} translates from {len(sources)} languages: "
                             f"name the source language (--source), e.g. {sources[0] if sources else '?'}")
        source = sources[0]
    _offered(pack, "source language", source, sources)
    target = o.target or pack.default_target
    if target is None:
        raise ValueError(f"the model {pack.name} needs a target language (--target)")
    _offered(pack, "target language", target, targets)
    tokens = pack.language_tokens
    return LanguageChoice(tokens[source][0], tokens[target][1], base_language(source), base_language(target))
