"""Carrying inline markup across a translation.

A block of text (a paragraph of runs, an HTML block with <b> and <a>, a Markdown line with ``code``)
is translated as one sentence, then the translation is *distributed* over the block's text pieces:
each piece keeps its own formatting element and receives a share of the translation proportional to
its share of the source text, with cuts moved so that no Latin word or number is split. Markup and
structure are never touched, so a document stays element-for-element the same; what can drift is
which translated words carry a bold or a link when word order changes. We chose this over
placeholders because MarianMT models drop or mangle placeholder tokens unpredictably, which would
lose markup; distribution can only misplace it.

Pieces of kind KEEP (inline code, URLs) are never rewritten; they are looked up in the translation
(models copy such strings through) and the translation is cut around them, so they are not doubled.

A model that can be told where the formatting is (HY-MT1.5's formatted translation prompt) is given the
block with its styled pieces marked ``<sn>…</sn>`` (``marked_text``) and answers ``<target>…</target>``
with the marks where it placed them: each styled piece then gets what its mark holds, and only the text
between marks is shared by length. A translation whose marks do not match the block's (lost, added,
nested) is read without them, shared as any other.
"""

from __future__ import annotations

import enum
import re
from collections.abc import Sequence
from dataclasses import dataclass


class Kind(enum.Enum):
    TEXT = "text"  # rewritten with a share of the translation
    KEEP = "keep"  # left as it is, and looked for in the translation
    SEP = "sep"  # left as it is: markup, tabs, line breaks


@dataclass(frozen=True)
class Piece:
    text: str  # what the translator sees of this piece
    kind: Kind = Kind.TEXT
    raw: str | None = None  # how a KEEP/SEP piece is written back, when it differs from ``text``
    styled: bool = False  # a TEXT piece inside formatting (bold, a link…) within its block

    @property
    def source(self) -> str:
        return self.text if self.raw is None else self.raw


def source_text(pieces: Sequence[Piece]) -> str:
    return "".join(p.text for p in pieces)


def has_words(pieces: Sequence[Piece]) -> bool:
    return any(p.kind is Kind.TEXT and p.text.strip() for p in pieces)


MARK_OPEN, MARK_CLOSE = "<sn>", "</sn>"
WRAP_OPEN, WRAP_CLOSE = "<target>", "</target>"
_TAGS = (MARK_OPEN, MARK_CLOSE, WRAP_OPEN, WRAP_CLOSE, "<source>", "</source>")
_MARKED = re.compile(re.escape(MARK_OPEN) + "(.*?)" + re.escape(MARK_CLOSE), re.DOTALL)


def _styled(pieces: Sequence[Piece]) -> list[int]:
    return [i for i, p in enumerate(pieces) if p.kind is Kind.TEXT and p.styled and p.text.strip()]


def marked_text(pieces: Sequence[Piece]) -> str | None:
    """The block's text with each styled piece marked <sn>…</sn> (its edge spaces outside the mark); None
    where no piece is styled, a kept piece would have to be found in the translation, or the text itself
    holds the prompt's tags."""
    if not _styled(pieces) or any(p.kind is Kind.KEEP and p.text.strip() for p in pieces):
        return None
    if any(tag in p.text for p in pieces for tag in _TAGS):
        return None
    styled = set(_styled(pieces))
    return "".join(
        _leading_space(p.text) + MARK_OPEN + p.text.strip() + MARK_CLOSE + _trailing_space(p.text)
        if i in styled
        else p.text
        for i, p in enumerate(pieces)
    )


def _unwrapped(translation: str) -> str:
    body = translation.strip()
    if body.startswith(WRAP_OPEN):
        body = body[len(WRAP_OPEN) :]
    if body.endswith(WRAP_CLOSE):
        body = body[: -len(WRAP_CLOSE)]
    return body


def _marked_shares(translation: str, pieces: Sequence[Piece]) -> dict[int, str] | None:
    """Each TEXT piece's share of a translation that kept the block's marks, in place; None where it did not."""
    styled = _styled(pieces)
    parts = _MARKED.split(_unwrapped(translation))  # between marks, in a mark, between, …
    if len(parts) != 2 * len(styled) + 1 or any(tag in part for part in parts for tag in _TAGS):
        return None
    shares = {index: parts[2 * k + 1].strip() for k, index in enumerate(styled)}
    bounds = [-1, *styled, len(pieces)]
    for gap, (after, before) in enumerate(zip(bounds, bounds[1:])):
        group = [i for i in range(after + 1, before) if pieces[i].kind is Kind.TEXT]
        region = parts[2 * gap]
        if group:
            weights = [len(pieces[i].text) if pieces[i].text.strip() else 0 for i in group]
            shares.update(zip(group, _spread(region, weights)))
        elif gap:  # between two marks, or after the last, with no piece of its own: the mark before keeps it
            shares[styled[gap - 1]] += region.rstrip() if gap == len(styled) else region
        else:
            shares[styled[0]] = region.lstrip() + shares[styled[0]]
    return shares


def _plain(translation: str, pieces: Sequence[Piece]) -> str:
    """A translation of a marked block read without its marks."""
    if marked_text(pieces) is None:
        return translation
    body = _unwrapped(translation)
    for tag in (MARK_OPEN, MARK_CLOSE):
        body = body.replace(tag, "")
    return body


def render(pieces: Sequence[Piece], translation: str) -> str:
    """The block written back: markup as it was, text pieces replaced by their share."""
    shares = iter(distribute(translation, pieces))
    return "".join(next(shares) if p.kind is Kind.TEXT else p.source for p in pieces)


def distribute(translation: str, pieces: Sequence[Piece]) -> list[str]:
    """The new text of every TEXT piece, in order; joined they give the whole translation.

    Whitespace at the very start and end of the block (indentation, newlines in pretty-printed
    markup) stays where it was; whitespace inside is whatever the translation has.
    """
    text_index = [i for i, p in enumerate(pieces) if p.kind is Kind.TEXT]
    if not text_index:
        return []
    marked = _marked_shares(translation, pieces) if marked_text(pieces) is not None else None
    if marked is not None:
        return _edged(marked, pieces, text_index)
    translation = _plain(translation, pieces)
    if translation.split() == source_text(pieces).split():
        # Came back as it was (a name, a sentence left untranslated): every piece keeps its own text,
        # rather than shares by length that move the markup ("<b>world</b>, <a>link</a>" was
        # "<b>world, </b>l<a>ink</a>").
        return [pieces[i].text for i in text_index]
    body = translation.strip()
    regions, groups = _split_at_anchors(body, pieces)
    shares: dict[int, str] = {}
    for region, group in zip(regions, groups):
        weights = [len(pieces[i].text) if pieces[i].text.strip() else 0 for i in group]
        for i, share in zip(group, _spread(region, weights)):
            shares[i] = share
    return _edged(shares, pieces, text_index)


def _edged(shares: dict[int, str], pieces: Sequence[Piece], text_index: list[int]) -> list[str]:
    """The shares in order, the block's own leading and trailing whitespace kept where it was."""
    first, last = text_index[0], text_index[-1]
    if first == 0:
        shares[first] = _leading_space(pieces[first].text) + shares[first].lstrip()
    if last == len(pieces) - 1:
        shares[last] = shares[last].rstrip() + _trailing_space(pieces[last].text)
    return [shares[i] for i in text_index]


def _leading_space(text: str) -> str:
    return text[: len(text) - len(text.lstrip())]


def _trailing_space(text: str) -> str:
    return text[len(text.rstrip()) :]


def _split_at_anchors(body: str, pieces: Sequence[Piece]) -> tuple[list[str], list[list[int]]]:
    """Cut the translation around the KEEP pieces found in it (in order); group the TEXT pieces between."""
    regions: list[str] = []
    groups: list[list[int]] = [[]]
    cursor = 0
    for i, piece in enumerate(pieces):
        if piece.kind is Kind.TEXT:
            groups[-1].append(i)
        elif piece.kind is Kind.KEEP and piece.text.strip():
            found = body.find(piece.text.strip(), cursor)
            if found < 0:
                continue
            regions.append(body[cursor:found])
            cursor = found + len(piece.text.strip())
            groups.append([])
    regions.append(body[cursor:])
    # A region with no text piece to hold it joins its neighbour, so no translated word is lost.
    merged_regions: list[str] = []
    merged_groups: list[list[int]] = []
    carry = ""
    for region, group in zip(regions, groups):
        if group:
            merged_regions.append(_join(carry, region) if carry else region)
            merged_groups.append(group)
            carry = ""
        else:
            carry = _join(carry, region)
    if carry and merged_regions:
        merged_regions[-1] = _join(merged_regions[-1], carry)
    return merged_regions, merged_groups


def _join(left: str, right: str) -> str:
    """Two parts of a translation that a kept piece stood between: a space only between Latin words."""
    left, right = left.rstrip(), right.lstrip()
    if left and right and _is_word(left[-1]) and _is_word(right[0]):
        return left + " " + right
    return left + right


def _is_word(char: str) -> bool:
    return char.isascii() and char.isalnum()


def _spread(region: str, weights: list[int]) -> list[str]:
    """Split ``region`` into len(weights) consecutive parts sized like the weights.

    A part of positive weight gets at least one character when there are enough; a part of zero
    weight (a whitespace-only piece) gets nothing.
    """
    total = sum(weights)
    if total == 0:
        return [region] + [""] * (len(weights) - 1)
    size = len(region)
    cuts = [0]
    acc = 0
    for k, weight in enumerate(weights[:-1]):
        acc += weight
        prev = cuts[-1]
        if weight == 0:
            cuts.append(prev)
            continue
        needed_after = sum(1 for w in weights[k + 1 :] if w > 0)
        low, high = min(prev + 1, size), max(size - needed_after, prev)
        cut = min(max(_snap(region, round(size * acc / total), low, high), low), high)
        if cut < high and region[cut : cut + 1].isspace():
            cut += 1  # a space ends the piece before rather than starting the next (a link, a bold run)
        cuts.append(cut)
    cuts.append(size)
    return [region[a:b] for a, b in zip(cuts, cuts[1:])]


def _snap(text: str, ideal: int, low: int, high: int) -> int:
    """The boundary nearest ``ideal`` within [low, high] that splits no Latin word, number or URL."""
    reach = max(3, len(text) // 4)
    for delta in range(reach + 1):
        for pos in (ideal + delta, ideal - delta):
            if low <= pos <= high and _is_boundary(text, pos):
                return pos
    return ideal


def _is_boundary(text: str, pos: int) -> bool:
    """Not inside a run of ASCII non-space characters: a word, a number, a URL, "e.g."."""
    if pos <= 0 or pos >= len(text):
        return True
    return not all(c.isascii() and not c.isspace() for c in text[pos - 1 : pos + 1])
