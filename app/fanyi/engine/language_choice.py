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

# NLLB-200's ISO 639-3 codes of languages that have an ISO 639-1 code (the sentence splitter and
# joiner, the language names and the language detector know languages by that one)
# fmt: off
ISO639_1 = {
    "afr": "af", "amh": "am", "bak": "ba", "bel": "be", "bul": "bg", "ben": "bn", "bos": "bs", "cat": "ca",
    "ces": "cs", "cym": "cy", "dan": "da", "deu": "de", "ell": "el", "eng": "en", "spa": "es", "est": "et",
    "fin": "fi", "fra": "fr", "gle": "ga", "gla": "gd", "glg": "gl", "guj": "gu", "hau": "ha", "heb": "he",
    "hin": "hi", "hrv": "hr", "hat": "ht", "hun": "hu", "hye": "hy", "ind": "id", "ibo": "ig", "isl": "is",
    "ita": "it", "jpn": "ja", "jav": "jv", "kat": "ka", "kaz": "kk", "khm": "km", "kan": "kn", "kor": "ko",
    "ltz": "lb", "lug": "lg", "lin": "ln", "lao": "lo", "lit": "lt", "lvs": "lv", "plt": "mg", "mkd": "mk",
    "mal": "ml", "khk": "mn", "mar": "mr", "zsm": "ms", "mya": "my", "npi": "ne", "nld": "nl", "nso": "ns",
    "oci": "oc", "ory": "or", "pan": "pa", "pol": "pl", "pbt": "ps", "por": "pt", "ron": "ro", "rus": "ru",
    "snd": "sd", "sin": "si", "slk": "sk", "slv": "sl", "som": "so", "als": "sq", "srp": "sr", "ssw": "ss",
    "sun": "su", "swe": "sv", "swh": "sw", "tam": "ta", "tel": "te", "tha": "th", "tgl": "tl", "tsn": "tn",
    "tur": "tr", "ukr": "uk", "urd": "ur", "uzn": "uz", "vie": "vi", "wol": "wo", "xho": "xh", "ydd": "yi",
    "yor": "yo", "zho": "zh", "cmn": "zh", "zul": "zu", "bod": "bo", "uig": "ug", "fil": "tl",
}
# fmt: on


@dataclass(frozen=True)
class LanguageChoice:
    source_token: str | None  # the token encode() puts into the source (>>cmn_Hans<<, en_XX, __en__)
    forced_bos_id: int | None  # the first target token, for families that choose the target that way
    source_lang: str  # for sentence splitting: "en", "zh", …
    target_lang: str  # for joining sentences: no spaces between Chinese ones
    source: str | None = None  # the languages in the pack's codes, where a prompt names them (LLMs)
    target: str | None = None


def base_language(code: str) -> str:
    """A model's language code as the splitter and joiner read it: zh_CN → zh, zho_Hans → zh, eng_Latn → en."""
    base = code.replace("-", "_").split("_")[0].lower()
    return ISO639_1.get(base, base)


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
