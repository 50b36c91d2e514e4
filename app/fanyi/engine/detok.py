"""Streaming detokenization: text out as soon as later ids can no longer change it.

The full decode is strip(R), then the optional clean-up, where R is the concatenation of each id's
text (Tokenizer.piece_text). (tokenizer.json files decode to R with one leading space dropped and
nothing stripped — `strips` is False there; the rules below then hold without the stripping.)
Appending ids only appends to R, so

* without clean-up, everything of R but its leading and trailing whitespace is final at once
  (CJK characters and whole words appear with the push that decides them);
* with clean-up, later text can also delete a space before it (" ." -> ".", " n't" -> "n't", ...).
  We then emit up to the last *safe split* of the pending text, a point where no replacement can
  ever straddle, so clean-up of the parts concatenates to clean-up of the whole. Every
  replacement pattern starts with a space and only deletes spaces, which keeps the rules local
  (see _safe_split). Text is examined only from the previous split on, so a push costs about its
  own length.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

from .tokenizer import clean_up_tokenization

# Characters occurring in clean-up patterns; any other character never takes part in a replacement.
_PATTERN_CHARS = frozenset(" .?!,'ntmsver")
# Non-space pattern characters that some pattern continues after ("n" of " n't", "v" of " 've").
_CONTINUED = frozenset("'nvr")
# What follows the leading space of a pattern (" .", " n't", " 's", ...).
_AFTER_SPACE = frozenset(".?!,'n")


def _inert(s: str, j: int) -> bool:
    """s[j] is in no replacement of any clean-up pass, whatever follows s.

    A space qualifies when both neighbours are non-spaces, which clean-up never deletes, so they
    stay its neighbours in every pass: no pattern starts with it (the next character is not a
    pattern's second one) and " ' " cannot end with it (the previous one is no "'").
    """
    c = s[j]
    if c not in _PATTERN_CHARS:
        return True
    if c != " " or j + 1 >= len(s):
        return False
    after = s[j + 1]
    return after != " " and after not in _AFTER_SPACE and (j == 0 or s[j - 1] not in " '")


def _safe_split(s: str) -> int:
    """The largest k with clean(s[:k] + rest) == clean(s[:k]) + clean(s[k:] + rest) for any rest.

    That holds when no replacement can cover both s[k-1] and s[k]: s[k-1] or s[k] is inert; or
    s[k-1] is a non-space no pattern continues after; or the 3 characters before k are non-spaces
    (a replacement starts with a space and is at most 4 long, and those 3 are never deleted).
    """
    for k in range(len(s), 0, -1):
        last = s[k - 1]
        if (last != " " and last not in _CONTINUED) or " " not in s[max(0, k - 3) : k]:
            return k
        if _inert(s, k - 1) or (k < len(s) and _inert(s, k)):
            return k
    return 0


class Pieces(Protocol):
    """What a StreamDecoder reads of its tokenizer."""

    @property
    def strips(self) -> bool: ...
    @property
    def clean_up_tokenization_spaces(self) -> bool: ...
    def piece_text(self, i: int) -> str: ...


class StreamDecoder:
    """push() the ids as they are decided; everything returned, finish() included, concatenates
    to exactly tokenizer.decode(all ids)."""

    def __init__(self, tokenizer: Pieces) -> None:
        """`tokenizer`: a Tokenizer, M2M100Tokenizer or JsonTokenizer."""
        self._text_of = tokenizer.piece_text
        self._clean = tokenizer.clean_up_tokenization_spaces
        self._strips = tokenizer.strips
        self._drops_first_space = getattr(tokenizer, "drops_first_space", False)
        self._started = False  # seen a non-whitespace character (or, without stripping, any text)
        self._pending = ""  # decided text not returned yet: held trailing whitespace or a clean-up tail

    def _start(self, text: str) -> str:
        if self._strips:
            text = text.lstrip()
        elif text and self._drops_first_space and text[0] == " ":
            text = text[1:]  # the first token's space, even when nothing else comes of the token
            self._started = True
            return text
        self._started = bool(text)
        return text

    def push(self, ids: Sequence[int]) -> str:
        text = "".join(self._text_of(int(i)) for i in ids)
        if not self._started:
            text = self._start(text)
        self._pending += text
        body = self._pending.rstrip() if self._strips else self._pending  # decode would strip it
        k = _safe_split(body) if self._clean else len(body)
        self._pending = self._pending[k:]
        return clean_up_tokenization(body[:k]) if self._clean else body[:k]

    def finish(self) -> str:
        """The rest of the text; the decoder is then ready for a new sequence."""
        body = self._pending.rstrip() if self._strips else self._pending
        self._pending, self._started = "", False
        return clean_up_tokenization(body) if self._clean else body
