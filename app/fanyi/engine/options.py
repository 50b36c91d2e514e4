"""Decoding options: what a caller may ask of a translation."""

from __future__ import annotations

import math
from dataclasses import dataclass

from .. import limits, variants


@dataclass(frozen=True)
class DecodeOptions:
    """Decoding options; None means "the pack's default" (read from its manifest, never hard-coded).

    ``target`` names a target-language token of a multi-target Marian pack, e.g. "cmn_Hans" for
    ``>>cmn_Hans<<``, or a language of a many-to-many pack in the model's own code ("zh_CN", "zh",
    "zho_Hans"); ``source`` is the source language of a many-to-many pack ("en_XX", "en", "eng_Latn").
    ``glossary`` holds (term, translation) pairs of this request's language pair (fanyi.glossary): an
    LLM pack is given the terms a paragraph holds through its terminology prompt, an encoder-decoder
    pack translates placeholders that are replaced by the given translations (engine/terms.py).
    ``convert`` ("zh-TW", "zh-HK"): the output, asked for in Simplified Chinese, is converted into
    Traditional with that region's words (fanyi.variants, OpenCC).
    ``summary``: the text's summary is asked for, not its translation (in ``target``, for an LLM pack that
    summarizes; a BART pack writes English summaries only and nothing else).
    """

    beams: int | None = None
    max_length: int | None = None
    max_new_tokens: int | None = None
    min_length: int | None = None
    length_penalty: float | None = None
    early_stopping: bool | str | None = None
    no_repeat_ngram_size: int | None = None
    repetition_penalty: float | None = None
    target: str | None = None
    source: str | None = None
    glossary: tuple[tuple[str, str], ...] = ()
    convert: str | None = None
    summary: bool = False

    def __post_init__(self) -> None:
        variants.check(self.convert)
        for name, (low, high) in _INTEGER_RANGES.items():
            value = getattr(self, name)
            if value is None:
                continue
            # bool is an int to Python, not to a user: DecodeOptions(beams=True) is a mistake
            if type(value) is not int or not low <= value <= high:
                raise OutOfRange(name, low, high, value)
        for name in ("length_penalty", "repetition_penalty"):
            value = getattr(self, name)
            if value is not None and (
                isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value)
            ):
                raise ValueError(f"{name} must be a finite number, got {value!r}")
        if self.repetition_penalty is not None and self.repetition_penalty <= 0:
            raise ValueError(f"repetition_penalty must be > 0, got {self.repetition_penalty!r}")
        if self.early_stopping not in (None, True, False, "never"):
            raise ValueError(f"early_stopping must be True, False or 'never', got {self.early_stopping!r}")
        if (
            not isinstance(self.glossary, tuple)
            or len(self.glossary) > limits.MAX_GLOSSARY_TERMS
            or not all(
                isinstance(e, tuple) and len(e) == 2 and all(isinstance(x, str) and x.strip() for x in e)
                for e in self.glossary
            )
        ):
            raise ValueError(
                f"glossary must be a tuple of at most {limits.MAX_GLOSSARY_TERMS} (term, translation) "
                "pairs of non-empty strings"
            )


# field: (lowest, highest), the highest from fanyi.limits
_INTEGER_RANGES = {
    "beams": (1, limits.MAX_BEAMS),
    "max_length": (1, limits.MAX_DECODE_LENGTH),
    "max_new_tokens": (1, limits.MAX_DECODE_LENGTH),
    "min_length": (0, limits.MAX_DECODE_LENGTH),
    "no_repeat_ngram_size": (0, limits.MAX_NO_REPEAT_NGRAM),
}


class OutOfRange(ValueError):
    """An integer option that is not one, or past its bound: ``field`` and the range, so that a caller can
    name the option its own way (the command line says --max-length)."""

    def __init__(self, field: str, low: int, high: int, got: object) -> None:
        self.field, self.low, self.high, self.got = field, low, high, got
        super().__init__(f"{field} must be an integer from {low} to {high}, got {got!r}")
