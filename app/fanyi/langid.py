"""Which of a few languages a text is written in: the app's automatic direction and the local API's ``auto``.

The candidates are language codes as packs name them ("en", "zh", "en_XX", "eng_Latn", "zho_Hant").
First the script decides: every letter of the text is counted for the candidates written in its
script, and the candidates with the most win — so English with a few Chinese words is English, and
Chinese with a few English words is Chinese. A Han, kana or Hangul character counts as
``SYLLABIC_WEIGHT`` letters: an English word is about five letters, a Chinese word under two
characters, so by plain letter count a Chinese sentence with one product name in it would read as
English.

Candidates that share the script (English, French and German; Chinese and Japanese on Han text
alone) are told apart by py3langid, a naive-Bayes model over byte n-grams of 97 languages (BSD,
4.6 MB, numpy only; lingua, more accurate on short text, is a 96 MB wheel). Its model takes half a
second to load, so the window asks ``preload()`` for it in a thread when a pack offers several
languages of one script, and until it is ready (``block=False``) a tie goes to the preferred
candidate — the direction in use — as it does for text too short to judge.

No Qt here: the UI and the server both use it.
"""

from __future__ import annotations

import functools
import threading
import unicodedata
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any, NamedTuple

from fanyi import limits
from fanyi.languages import HAN, base_language, scripts_of

SYLLABIC_WEIGHT = 3
SHORT_TEXT_LETTERS = 12  # below this many letters, a tie within a script keeps the preferred language

_SYLLABIC = frozenset({HAN, "HIRAGANA", "KATAKANA", "HANGUL", "YI"})


class Detection(NamedTuple):
    language: str  # one of the candidates
    confidence: float  # the share of the text's letters written in its script (0–1); 0 without letters


@functools.lru_cache(maxsize=4096)
def _script(char: str) -> str | None:
    """The script of a letter, as the first word of its Unicode name; None for anything else."""
    if not char.isalpha():
        return None
    name = unicodedata.name(char, "")
    return name.split(" ", 1)[0] if name else None


def letter_counts(text: str) -> Counter[str]:
    """Letters of each script in the first ``limits.DETECT_SAMPLE_CHARS`` characters of ``text``."""
    counts: Counter[str] = Counter()
    for char in text[: limits.DETECT_SAMPLE_CHARS]:
        if (script := _script(char)) is not None:
            counts[script] += 1
    return counts


def detect(text: str, candidates: Sequence[str], prefer: Iterable[str] = (), *, block: bool = True) -> Detection:
    """The candidate ``text`` is most likely written in.

    A tie goes to the first of ``prefer`` among the tied, else the first tied candidate; text
    without letters gives the first preferred candidate (or the first) with confidence 0.
    ``block=False`` never waits for the n-gram model to load (see the module docstring).
    """
    if not candidates:
        raise ValueError("no candidate languages")
    preferred = [c for c in prefer if c in candidates]
    counts = letter_counts(text)
    weighted = {script: n * (SYLLABIC_WEIGHT if script in _SYLLABIC else 1) for script, n in counts.items()}
    total = sum(weighted.values())
    if total == 0:
        return Detection((preferred or list(candidates))[0], 0.0)
    scores = {code: sum(weighted.get(s, 0) for s in scripts_of(code)) for code in candidates}
    best = max(scores.values())
    tied = [code for code in candidates if scores[code] == best]
    confidence = min(best / total, 1.0)
    if len(tied) > 1:
        tied = (
            _by_ngrams(text, tied, short=sum(counts.values()) < SHORT_TEXT_LETTERS and bool(preferred), block=block)
            or tied
        )
    return Detection(next((c for c in preferred if c in tied), tied[0]), confidence)


def _by_ngrams(text: str, tied: list[str], short: bool, block: bool) -> list[str]:
    """The tied candidates of the language py3langid ranks first among theirs; [] when it cannot tell."""
    if short:
        return []
    identifier = _identifier(block)
    if identifier is None:
        return []
    known = set(identifier.labels)
    bases = {base_language(c) for c in tied}
    if len(bases & known) < 2:
        return []
    for language, _score in identifier.rank(text[: limits.DETECT_SAMPLE_CHARS]):
        if language in bases:
            return [c for c in tied if base_language(c) == language]
    return []


_model = None
_model_lock = threading.Lock()


def _identifier(block: bool) -> Any:
    """py3langid's identifier, loaded once; None while another thread loads it and ``block`` is False,
    or when py3langid is not installed."""
    global _model
    if _model is None and not block:
        preload()  # loading takes ~0.5 s: never in the caller's thread (the GUI's) when it must not wait
        return None
    if _model is not None or not _model_lock.acquire(blocking=block):
        return _model or None
    try:
        if _model is None:
            try:
                from py3langid.langid import MODEL_FILE, LanguageIdentifier  # ~0.5 s: in the loading thread
            except ImportError:
                _model = False
            else:
                _model = LanguageIdentifier.from_model_file(MODEL_FILE, norm_probs=False)
    finally:
        _model_lock.release()
    return _model or None


def needs_ngrams(candidates: Iterable[str]) -> bool:
    """Whether some candidates share a script, so that telling them apart needs the n-gram model."""
    seen: set[tuple[str, ...]] = set()
    for code in candidates:
        scripts = scripts_of(code)
        if scripts in seen:
            return True
        seen.add(scripts)
    return False


def preload() -> None:
    """Load the n-gram model in a thread, so that the first detection that needs it does not wait."""
    if _model is None and not _model_lock.locked():
        threading.Thread(target=_identifier, args=(True,), name="fanyi-langid", daemon=True).start()
