"""Cutting text into translatable sentences and putting the translations back together.

MarianMT translates one sentence at a time and has at most 512 positions, so a text goes through:

1. ``split_text``: sentences (translated) and the whitespace between them (kept verbatim);
2. ``limit_length``: a sentence still too long for the model is cut into parts that fit;
3. the translator, with a ``SentenceCache`` in front of it;
4. ``part_joiner`` re-joins the parts of a cut sentence, ``join_translations`` (or
   ``separator_text`` piece by piece, when streaming) the text.

``join_hard_wrapped`` is an optional first step for text copied from a PDF.
"""

from __future__ import annotations

import bisect
import re
import threading
import unicodedata
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, TypeVar

from ..languages import is_cjk_language

__all__ = [
    "Segment",
    "SentenceCache",
    "join_hard_wrapped",
    "join_translations",
    "limit_length",
    "part_joiner",
    "separator_text",
    "split_paragraphs",
    "split_text",
]


@dataclass(frozen=True, slots=True)
class Segment:
    """A slice of the input: a sentence to translate, or text to keep verbatim."""

    text: str
    translate: bool


# Everything str.splitlines() breaks on; "\r\n" first so that it counts as one break.
_LINE_BREAK = re.compile(r"\r\n|[\n\r\v\f\x1c\x1d\x1e\x85\u2028\u2029]")
_WHITESPACE = re.compile(r"\s+")
_OPTIONAL_WHITESPACE = re.compile(r"\s*")

_CLOSERS = "\"'”’»)\\]}」』）》】〉"
_OPENERS = "\"'“‘«([{「『（《【〈¿¡"
_EN_FINAL = ".!?…"
_ZH_FINAL = "。！？；…!?"
# Written so that no two ways of matching the same text exist, and a match starts only where a
# run of marks starts: a run of marks that is not followed by a space costs linear time, not
# exponential (nested quantifiers) or quadratic (retrying from every position in the run).
_EN_END = re.compile(
    rf"(?<![{_EN_FINAL}{_CLOSERS}])(?P<end>[{_CLOSERS}]*[{_EN_FINAL}]+(?:[{_CLOSERS}]+[{_EN_FINAL}]+)*[{_CLOSERS}]*)"
    rf"(?=\s+(?P<next>\S))"
)
_ZH_END = re.compile(rf"[{_ZH_FINAL}]+(?:[{_CLOSERS}]+[{_ZH_FINAL}]+)*[{_CLOSERS}]*")

# Abbreviations (lower case, without the final dot) after which ". " never ends a sentence.
# Single capitals ("J. R. R. Tolkien") and dotted initialisms ("U.S.", "e.g.", "p.m.") are
# recognised by shape instead of being listed.
# fmt: off
_ABBREVIATIONS = frozenset({
    "mr", "mrs", "ms", "mx", "messrs", "mmes", "dr", "prof", "sr", "jr", "st", "mt", "rev", "hon",
    "gen", "col", "capt", "lt", "sgt", "cmdr", "adm", "gov", "sen", "rep", "pres", "insp",
    "vs", "etc", "cf", "viz", "al", "ca", "approx", "esp", "incl",
    "inc", "ltd", "co", "corp", "plc", "llc", "bros", "dept", "univ", "assn", "ph.d",
})
# fmt: on
# Words that are abbreviations only in front of a number ("No. 5", "Fig. 3", "Jan. 2024") but are
# also ordinary words or names ("I said no.", "I met Jan."), so they end a sentence otherwise.
# fmt: off
_NUMBER_ABBREVIATIONS = frozenset({
    "no", "nos", "nr", "fig", "figs", "vol", "vols", "p", "pp", "ch", "chap", "sec", "art", "eq",
    "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "sept", "oct", "nov", "dec",
})
# fmt: on
_INITIALISM = re.compile(r"(?:[^\W\d_]\.)+[^\W\d_]")
# Initialisms that usually end their sentence ("We met at 5 p.m. Then ...").
_FINAL_INITIALISMS = frozenset({"a.m", "p.m"})
# The word before a dot; CJK characters end it too, as Chinese is written without spaces.
_LAST_WORD = re.compile(r"[^\s\u2e80-\u9fff\uac00-\ud7af\uf900-\ufaff\ufe30-\ufe4f\uff00-\uffef]*\Z")
# Inside a URL or e-mail address "?" and "!" are not punctuation. ASCII only, so that a URL
# written straight into Chinese text ends where the Chinese starts.
# The look-behinds make a match start only at the start of a word, for linear time on long words.
_URL = re.compile(
    r"(?:(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*://|www\.)[a-z0-9\-._~:/?#\[\]@!$&'()*+,;=%]+"
    r"|(?<![a-z0-9._%+-])[a-z0-9._%+-]+@[a-z0-9-]+(?:\.[a-z0-9-]+)+",
    re.IGNORECASE,
)


def split_text(text: str, *, source_lang: str = "en") -> list[Segment]:
    """Cut ``text`` into sentences (``translate=True``) and verbatim separators, losslessly.

    ``"".join(p.text for p in pieces) == text`` always holds and no piece is empty.
    Separators are line breaks with the whitespace around them (blank lines, indentation),
    whitespace at either end of the text and the whitespace between two sentences of a line.
    A line is never joined with the next one (see ``join_hard_wrapped`` for that).

    English rules (every ``source_lang``): a sentence ends after ``. ! ? …`` (and closing
    quotes/brackets) followed by whitespace and an upper-case letter, a digit, an opening
    quote/bracket or a CJK character; not after an abbreviation (``_ABBREVIATIONS``, and
    ``_NUMBER_ABBREVIATIONS`` before a number), a single capital (initials) or a dotted initialism
    (``U.S.``, ``e.g.``; but ``a.m.``/``p.m.`` do end a sentence), nor inside a URL or e-mail
    address. Decimals, version numbers and ``wait... what`` need no rule: no whitespace follows
    their dots, or a lower-case letter does.

    Chinese rules, added for a Chinese/Japanese ``source_lang`` ("zh", "zh-CN", "cmn_Hans",
    "yue", "ja", ...): a sentence also ends after ``。！？；…!?`` and any closing quotes/brackets,
    with no whitespace needed (so two sentences may be adjacent pieces, with no separator).

    A sentence without any letter or CJK character ("1.", "—", "2024-01-05") is marked
    ``translate=False``, because a translation model mangles numbers and symbols on their own.
    """
    cjk = is_cjk_language(source_lang)
    pieces: list[Segment] = []
    line_start = 0
    for run in _WHITESPACE.finditer(text):
        start, end = run.span()
        if start == 0 or end == len(text) or _LINE_BREAK.search(text, start, end):
            if start > line_start:
                pieces.extend(_split_line(text[line_start:start], cjk))
            pieces.append(Segment(text[start:end], False))
            line_start = end
    if line_start < len(text):
        pieces.extend(_split_line(text[line_start:], cjk))
    return pieces


def split_paragraphs(
    text: str, *, source_lang: str, max_tokens: int, count_tokens: Callable[[str], int]
) -> list[Segment]:
    """Lines as the pieces to translate, for models that translate whole paragraphs (the LLMs): the
    sentences of a line, with what lies between them, are one piece — unless together they come to
    more than ``max_tokens``, when they are grouped, in order, into runs that fit (cut only before a
    sentence). Line breaks and the whitespace at either end stay verbatim separators, as in
    ``split_text``; a line with no sentence in it ("2024-01-05") is kept as it is.
    """
    pieces = split_text(text, source_lang=source_lang)
    out: list[Segment] = []
    line: list[Segment] = []

    def close_line() -> None:
        runs: list[list[Segment]] = [[]]
        for piece in line:
            run = runs[-1]
            if (
                piece.translate
                and any(p.translate for p in run)
                and count_tokens("".join(p.text for p in run) + piece.text) > max_tokens
            ):
                runs.append([])
            runs[-1].append(piece)
        for run in runs:
            trail: list[Segment] = []
            while run and not run[-1].translate and run[-1].text.isspace():
                trail.insert(0, run.pop())
            if run:
                out.append(Segment("".join(p.text for p in run), any(p.translate for p in run)))
            out.extend(trail)
        line.clear()

    for i, piece in enumerate(pieces):
        if piece.text.isspace() and (i in (0, len(pieces) - 1) or _LINE_BREAK.search(piece.text)):
            close_line()
            out.append(piece)
        else:
            line.append(piece)
    close_line()
    return out


def _split_line(line: str, cjk: bool) -> Iterator[Segment]:
    """Sentences of one line, which has no line break and no whitespace at either end."""
    cuts = set(_english_cuts(line))
    if cjk:
        cuts.update(m.end() for m in _ZH_END.finditer(line) if m.end() < len(line))
    urls = [m.span() for m in _URL.finditer(line)] if cuts else []
    start = 0
    for cut in sorted(cuts):
        if cut <= start or _inside(urls, cut):
            continue
        yield _sentence(line[start:cut])
        gap_end = _found(_OPTIONAL_WHITESPACE.match(line, cut)).end()
        if gap_end > cut:
            yield Segment(line[cut:gap_end], False)
        start = gap_end
    yield _sentence(line[start:])


def _english_cuts(line: str) -> Iterator[int]:
    for m in _EN_END.finditer(line):
        following = m.group("next")
        if not _starts_sentence(following):
            continue
        if m.group("end") == ".":
            # Abbreviations are short: the 24 characters before the dot hold the whole word.
            word = _found(_LAST_WORD.search(line, max(0, m.start() - 24), m.start())).group()
            if _is_abbreviation(word.lstrip(_OPENERS), following):
                continue
        yield m.end()


def _is_abbreviation(word: str, following: str) -> bool:
    lower = word.lower()
    if lower in _ABBREVIATIONS or (lower in _NUMBER_ABBREVIATIONS and following.isdigit()):
        return True
    if len(word) == 1:
        return word.isupper()
    return lower not in _FINAL_INITIALISMS and _INITIALISM.fullmatch(word) is not None


def _starts_sentence(char: str) -> bool:
    return char.isupper() or char.istitle() or char.isdigit() or char in _OPENERS or _is_cjk_char(char)


def _found(match: re.Match[str] | None) -> re.Match[str]:
    """The match of a pattern that matches anywhere it is tried (\\s*, or [^\\s]*\\Z up to the end)."""
    assert match is not None
    return match


def _inside(spans: list[tuple[int, int]], position: int) -> bool:
    """Whether ``position`` falls strictly inside one of the sorted, disjoint ``spans``."""
    i = bisect.bisect_left(spans, (position,)) - 1  # the last span starting before position
    return i >= 0 and position < spans[i][1]


def _sentence(text: str) -> Segment:
    return Segment(text, any(char.isalpha() for char in text))


def _is_wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in ("W", "F")


def _is_cjk_char(char: str) -> bool:
    return char.isalpha() and _is_wide(char)


def limit_length(sentence: str, max_tokens: int, count_tokens: Callable[[str], int]) -> list[str]:
    """Cut ``sentence`` into parts of at most ``max_tokens`` tokens each; ``"".join(parts) == sentence``.

    A sentence that fits is returned whole. Otherwise it is cut near where the counts say the
    parts should meet (the middle when two parts suffice), at the nearest ``, ; :`` (and CJK
    ``，；：、``) within half a part's length of that point, else at other punctuation, else at
    whitespace, else between two characters; then each side is treated the same way. Whitespace
    at a cut stays at the end of the left part. ``count_tokens`` is called once per part tried,
    about twice per part returned, and the characters counted in total grow as n·log(n).
    A single character that alone exceeds ``max_tokens`` is returned as it is.
    """
    if max_tokens < 1:
        raise ValueError(f"max_tokens must be at least 1, got {max_tokens!r}")
    tokens = count_tokens(sentence)
    if tokens <= max_tokens:
        return [sentence]
    return _cut_to_fit(sentence, tokens, max_tokens, count_tokens)


# In order of preference: where a sentence can be cut with the least harm to its translation.
_CUT_CLASSES = (
    re.compile(r"[,;:，；：、]"),
    re.compile(r"[.!?…。！？)\]}”’»」』）》】—–/|]"),
    re.compile(r"\s"),
)
# Characters that belong to the one before them: a hard cut never lands just before one.
_ATTACHED = re.compile(r"[\u200c\u200d\ufe00-\ufe0f\U000e0100-\U000e01ef]")


def _cut_to_fit(text: str, tokens: int, max_tokens: int, count_tokens: Callable[[str], int]) -> list[str]:
    if len(text) < 2:
        return [text]
    needed = -(-tokens // max_tokens)
    # Cutting where the counts say, not always in the middle: 1100 tokens at a limit of 512 become
    # 3 parts, where halving twice would make 4.
    part_length = len(text) / needed
    target = round(part_length * (needed // 2))
    cut = _best_cut(text, target, int(part_length / 2))
    parts: list[str] = []
    for side in (text[:cut], text[cut:]):
        side_tokens = count_tokens(side)
        if side_tokens <= max_tokens:
            parts.append(side)
        else:
            parts.extend(_cut_to_fit(side, side_tokens, max_tokens, count_tokens))
    return parts


def _best_cut(text: str, target: int, reach: int) -> int:
    """Index in 1..len(text)-1 to cut at: the best boundary within ``reach`` of ``target``."""
    target = min(max(target, 1), len(text) - 1)
    low, high = max(1, target - reach), min(len(text) - 1, target + reach)
    for pattern in _CUT_CLASSES:
        # The nearest match on each side of target; the left one is found by searching backwards.
        candidates = []
        if after := pattern.search(text, target, high):
            candidates.append(after.start())
        if before := pattern.search(text[low:target][::-1]):
            candidates.append(target - 1 - before.start())
        if candidates:
            index = min(candidates, key=lambda i: abs(i + 1 - target))
            cut = _found(_OPTIONAL_WHITESPACE.match(text, index + 1)).end()
            return cut if cut < len(text) else index + 1
    cut = target
    while cut < len(text) - 1 and (unicodedata.combining(text[cut]) or _ATTACHED.match(text, cut)):
        cut += 1
    return cut


def part_joiner(target_lang: str) -> str:
    """What goes between the translations of the parts ``limit_length`` cut one sentence into.

    Nothing for a Chinese/Japanese target, which writes without spaces; one space otherwise.
    """
    return "" if is_cjk_language(target_lang) else " "


def separator_text(pieces: Sequence[Segment], i: int, target_lang: str) -> str:
    """The output at ``pieces[i]`` that is not a translation: for a verbatim piece, what replaces
    it; for a translated piece, what goes before its translation.

    The gap between two sentences of one line (whitespace without a line break between two
    translated pieces, or nothing at all between two Chinese sentences) becomes ``part_joiner``:
    nothing for a Chinese/Japanese target, exactly one space otherwise. Every other piece is kept
    verbatim, so line breaks, blank lines and indentation survive exactly. This depends on the
    layout alone, never on a translation, so a streamed result equals ``join_translations``.
    """
    piece = pieces[i]
    if piece.translate:
        return part_joiner(target_lang) if i > 0 and pieces[i - 1].translate else ""
    if (
        0 < i < len(pieces) - 1
        and pieces[i - 1].translate
        and pieces[i + 1].translate
        and piece.text.isspace()
        and not _LINE_BREAK.search(piece.text)
    ):
        return part_joiner(target_lang)
    return piece.text


def join_translations(pieces: Sequence[Segment], translations: Sequence[str], *, target_lang: str) -> str:
    """Rebuild the text of ``split_text`` with each ``translate=True`` piece replaced by the next
    translation (stripped), and the layout between them rendered by ``separator_text``."""
    wanted = sum(piece.translate for piece in pieces)
    if len(translations) != wanted:
        raise ValueError(f"{wanted} sentences to translate but {len(translations)} translations")
    remaining = iter(translations)
    out: list[str] = []
    for i, piece in enumerate(pieces):
        out.append(separator_text(pieces, i, target_lang))
        if piece.translate:
            out.append(next(remaining).strip())
    return "".join(out)


_LIST_ITEM = re.compile(
    r"\s*(?:[-*•‣◦▪·–—]\s|[(（]?\d{1,3}[.)）]\s|[(（]?[a-z][)）]\s|[(（]?[一二三四五六七八九十]+[、.）)])"
)
_HYPHENS = "-\u2010\u00ad"
# A line this much shorter than the typical line was not wrapped: a heading, a caption, or
# the end of a paragraph.
_SHORT_LINE = 0.6


def join_hard_wrapped(text: str) -> str:
    """Undo the line wrapping of text copied from a PDF, keeping its real line structure.

    Each line break between two non-blank lines is kept unless one of these joins the lines
    (checked in order; the first that decides wins):

    - the next line is a list item ("- ", "* ", "• ", "1. ", "2) ", "(3) ", "a) ", "一、"): kept;
    - the line ends with a letter and a hyphen and the next line starts lower-case: joined
      without the hyphen ("hyphen-" + "ated" → "hyphenated");
    - the line ends with sentence-final punctuation or a colon (``. ! ? … 。 ！ ？ : ：``,
      possibly followed by closing quotes): kept;
    - the next line starts with a lower-case letter: joined;
    - the line is shorter than 60% of the typical line (the 75th percentile of line lengths),
      so it is a heading, a caption or a paragraph's last line: kept;
    - otherwise the line was wrapped mid-sentence: joined.

    Joined lines lose the whitespace around the break and meet directly when either side is a
    CJK (wide) character, else with one space. Blank lines, and every kept break, are left
    exactly as they were.
    """
    parts = _LINE_BREAK.split(text)
    breaks = _LINE_BREAK.findall(text)
    width = _typical_width(parts)
    out = [parts[0]]
    for line_break, line, following in zip(breaks, parts, parts[1:]):
        joint = _wrap_joint(line, following, width)
        if joint is None:
            out += [line_break, following]
            continue
        left = out[-1].rstrip()
        if joint == "hyphen":
            left, joint = left[:-1], ""
        out[-1] = left
        out += [joint, following.lstrip()]
    return "".join(out)


def _wrap_joint(line: str, following: str, width: int) -> str | None:
    """What replaces the break between ``line`` and ``following``: None to keep the break,
    "hyphen" to drop the hyphen and join, or the string to join with."""
    left, right = line.strip(), following.strip()
    if not left or not right or _LIST_ITEM.match(following):
        return None
    if left[-1] in _HYPHENS and len(left) > 1 and left[-2].isalpha() and right[0].islower():
        return "hyphen"
    marks = left.rstrip(_CLOSERS)
    if marks and marks[-1] in ".!?…。！？:：":
        return None
    if not right[0].islower() and len(left) < _SHORT_LINE * width:
        return None
    # A hyphen that is not hyphenation ("pages 10-" + "20") is kept, and nothing is put after it.
    return "" if left[-1] in _HYPHENS or _is_wide(left[-1]) or _is_wide(right[0]) else " "


def _typical_width(lines: list[str]) -> int:
    lengths = sorted(len(line.strip()) for line in lines if line.strip())
    return lengths[len(lengths) * 3 // 4] if lengths else 0


V = TypeVar("V")


class SentenceCache(Generic[V]):
    """A thread-safe LRU map from caller-built keys (model id, options, sentence) to translations."""

    def __init__(self, maxsize: int = 2048) -> None:
        if maxsize < 1:
            raise ValueError(f"maxsize must be at least 1, got {maxsize!r}")
        self.maxsize = maxsize
        self._entries: OrderedDict[Hashable, V] = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable) -> V | None:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: Hashable, value: V) -> None:
        with self._lock:
            self._entries[key] = value
            self._entries.move_to_end(key)
            if len(self._entries) > self.maxsize:
                self._entries.popitem(last=False)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()

    def __len__(self) -> int:
        with self._lock:
            return len(self._entries)
