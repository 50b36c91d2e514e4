"""What a caller may ask of a translation: decoding options and a cancel token."""

from __future__ import annotations

import threading
from dataclasses import dataclass


class Cancelled(Exception):
    """Raised inside the engine when a CancelToken was cancelled; nothing partial is returned."""


class CancelToken:
    """Checked at every decoder step and between document units; cancel() may be called from any thread."""

    def __init__(self) -> None:
        self._event = threading.Event()

    def cancel(self) -> None:
        self._event.set()

    @property
    def cancelled(self) -> bool:
        return self._event.is_set()

    def raise_if_cancelled(self) -> None:
        if self._event.is_set():
            raise Cancelled()


@dataclass(frozen=True)
class DecodeOptions:
    """Decoding options; None means "the pack's default" (read from its manifest, never hard-coded).

    ``target`` names a target-language token of a multi-target Marian pack, e.g. "cmn_Hans" for
    ``>>cmn_Hans<<``, or a language of a many-to-many pack in the model's own code ("zh_CN", "zh",
    "zho_Hans"); ``source`` is the source language of a many-to-many pack ("en_XX", "en", "eng_Latn").
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

    def __post_init__(self) -> None:
        def positive(name: str) -> None:
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 1):
                raise ValueError(f"{name} must be a positive integer, got {value!r}")

        for name in ("beams", "max_length", "max_new_tokens"):
            positive(name)
        for name in ("min_length", "no_repeat_ngram_size"):
            value = getattr(self, name)
            if value is not None and (not isinstance(value, int) or value < 0):
                raise ValueError(f"{name} must be a non-negative integer, got {value!r}")
        if self.repetition_penalty is not None and self.repetition_penalty <= 0:
            raise ValueError(f"repetition_penalty must be > 0, got {self.repetition_penalty!r}")
        if self.early_stopping not in (None, True, False, "never"):
            raise ValueError(f"early_stopping must be True, False or 'never', got {self.early_stopping!r}")
