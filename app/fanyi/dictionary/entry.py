"""One dictionary entry as Fanyi shows it, and what a lookup found.

ECDICT keeps a word's senses as lines of text: ``n. 罩；风帽`` (a part of speech, then the senses), ``[网络]
胡德；兜帽`` (a field: web, medicine …) — each line a ``Sense``, the unit a user copies with one click. Its word
forms (``exchange``) and parts of speech (``pos``) are ``k:v`` lists (fanyi.dictionary.ecdict.parse_pairs);
its exam lists (``tag``) are words: zk 中考, gk 高考, ky 考研, cet4, cet6, toefl, ielts, gre.

``as_json`` is what the local API answers and the history keeps; ``from_json`` reads it back (bounded:
it comes from a file a user may have edited).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from .. import limits
from .ecdict import Row, parse_pairs

# word forms ECDICT lists, in the order shown: past, past participle, -ing, third person, comparative,
# superlative, plural (README: 词形变化); "0" names the lemma and "1" which of its forms this word is
FORM_KINDS = ("p", "d", "i", "3", "r", "t", "s")
LEMMA, LEMMA_FORMS = "0", "1"
TAGS = ("zk", "gk", "ky", "cet4", "cet6", "toefl", "ielts", "gre")  # dictutils.py's order
MATCHES = ("exact", "case", "lemma", "fuzzy", "phrase", "chinese")

_POS_LABEL = re.compile(r"^((?:[a-z]{1,7}\.\s*(?:&\s*)?)+)\s*")  # "n. ", "vt. & vi. ", "abbr. "
_FIELD_LABEL = re.compile(r"^\[([^\]]{1,12})\]\s*")  # "[网络] ", "[医] ", "[计] "
_BRACKETED = re.compile(r"[（(\[【〈<][^）)\]】〉>]{0,40}[）)\]】〉>]")
_SEPARATORS = re.compile(r"[；;，,、/\s]+")
_HAN = re.compile(r"^[\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\U00020000-\U0002fa1f]+$")
_SHOWN_LINES = 32  # senses or definition lines kept of one entry: enough for "set" and "run"


@dataclass(frozen=True)
class Sense:
    """One line of an entry: ``label`` its part of speech ("n.", "vt. & vi.") or field ("[网络]"), may be ""."""

    label: str
    text: str


def senses(text: str) -> tuple[Sense, ...]:
    """The lines of a translation or definition field, each split into its label and its text."""
    out = []
    for line in text.splitlines():
        line = line.strip()
        if not line:
            continue
        if m := _FIELD_LABEL.match(line):
            label, rest = f"[{m[1]}]", line[m.end() :]
        elif m := _POS_LABEL.match(line):
            label, rest = m[1].strip(), line[m.end() :]
        else:
            label, rest = "", line
        out.append(Sense(label, rest.strip() or line))
        if len(out) == _SHOWN_LINES:
            break
    return tuple(out)


def reverse_terms(translation: str) -> list[str]:
    """The Chinese words of a translation a reverse lookup finds the entry by: each sense item that is Han
    characters only (brackets and their contents taken out), at most limits.MAX_REVERSE_TERMS of them."""
    terms: list[str] = []
    for sense in senses(translation):
        for item in _SEPARATORS.split(_BRACKETED.sub("", sense.text)):
            if 0 < len(item) <= limits.MAX_LOOKUP_HAN and _HAN.match(item) and item not in terms:
                terms.append(item)
                if len(terms) == limits.MAX_REVERSE_TERMS:
                    return terms
    return terms


@dataclass(frozen=True)
class Entry:
    word: str
    phonetic: str = ""
    senses: tuple[Sense, ...] = ()  # Chinese, from ECDICT's translation
    definitions: tuple[Sense, ...] = ()  # English, from ECDICT's definition
    pos: tuple[tuple[str, int], ...] = ()  # parts of speech and their share in per cent: (("n", 46), ("v", 54))
    forms: dict[str, str] = field(default_factory=dict)  # FORM_KINDS → the form: {"p": "went", "d": "gone"}
    lemma: str = ""  # the word this one is a form of ("go" for "went"), "" when none
    lemma_forms: str = ""  # which forms of the lemma this word is: "p", "pd", "s3"
    tags: tuple[str, ...] = ()  # exam lists, TAGS order
    collins: int = 0  # Collins stars, 0-5
    oxford: bool = False  # one of the Oxford 3000
    bnc: int = 0  # frequency rank in the British National Corpus, 0: not ranked
    frq: int = 0  # frequency rank in the contemporary corpus, 0: not ranked

    @classmethod
    def of(cls, row: Row) -> Entry:
        exchange = parse_pairs(row.exchange)
        shares = []
        for key, value in parse_pairs(row.pos).items():
            if key and value.isdigit():
                shares.append((key, int(value)))
        lemma = exchange.get(LEMMA, "")
        if lemma.lower() == row.word.lower():  # ECDICT marks some lemmas as their own (dictutils.word_exchange)
            lemma = ""
        tags = set(row.tag.split())
        return cls(
            word=row.word,
            phonetic=row.phonetic.strip(),
            senses=senses(row.translation),
            definitions=senses(row.definition),
            pos=tuple(shares),
            forms={k: exchange[k] for k in FORM_KINDS if exchange.get(k)},
            lemma=lemma,
            lemma_forms=exchange.get(LEMMA_FORMS, "") if lemma else "",
            tags=tuple(t for t in TAGS if t in tags),
            collins=max(0, min(row.collins, 5)),
            oxford=row.oxford > 0,
            bnc=max(0, row.bnc),
            frq=max(0, row.frq),
        )

    def summary(self, senses_shown: int = 2) -> str:
        """One line for a list or a history entry: ``/gəʊ/ v. 去；走 · n. 尝试``."""
        head = f"/{self.phonetic}/ " if self.phonetic else ""
        body = " · ".join(f"{s.label} {s.text}".strip() for s in self.senses[:senses_shown])
        return (head + body).strip()

    def as_json(self) -> dict[str, Any]:
        return {
            "word": self.word,
            "phonetic": self.phonetic,
            "senses": [{"label": s.label, "text": s.text} for s in self.senses],
            "definitions": [{"label": s.label, "text": s.text} for s in self.definitions],
            "pos": [{"pos": p, "percent": share} for p, share in self.pos],
            "forms": dict(self.forms),
            "lemma": self.lemma,
            "lemma_forms": self.lemma_forms,
            "tags": list(self.tags),
            "collins": self.collins,
            "oxford": self.oxford,
            "bnc": self.bnc,
            "frq": self.frq,
        }

    @classmethod
    def from_json(cls, data: object) -> Entry | None:
        """An entry as as_json wrote it; None for anything else (a history file edited by hand)."""
        if not isinstance(data, dict) or not isinstance(data.get("word"), str):
            return None

        def text(key: str) -> str:
            value = data.get(key)
            return value[: limits.MAX_DICTIONARY_FIELD_CHARS] if isinstance(value, str) else ""

        def number(key: str) -> int:
            value = data.get(key)
            return value if isinstance(value, int) and not isinstance(value, bool) and value >= 0 else 0

        def lines(key: str) -> tuple[Sense, ...]:
            items = data.get(key)
            if not isinstance(items, list):
                return ()
            return tuple(
                Sense(s["label"], s["text"])
                for s in items[:_SHOWN_LINES]
                if isinstance(s, dict) and isinstance(s.get("label"), str) and isinstance(s.get("text"), str)
            )

        pos = data.get("pos")
        forms = data.get("forms")
        tags = data.get("tags")
        return cls(
            word=text("word"),
            phonetic=text("phonetic"),
            senses=lines("senses"),
            definitions=lines("definitions"),
            pos=tuple(
                (p["pos"], p["percent"])
                for p in (pos if isinstance(pos, list) else [])[:16]
                if isinstance(p, dict) and isinstance(p.get("pos"), str) and isinstance(p.get("percent"), int)
            ),
            forms={
                k: v
                for k, v in (forms.items() if isinstance(forms, dict) else ())
                if k in FORM_KINDS and isinstance(v, str)
            },
            lemma=text("lemma"),
            lemma_forms=text("lemma_forms"),
            tags=tuple(t for t in TAGS if isinstance(tags, list) and t in tags),
            collins=min(number("collins"), 5),
            oxford=data.get("oxford") is True,
            bnc=number("bnc"),
            frq=number("frq"),
        )


@dataclass(frozen=True)
class Found:
    """What a lookup found for ``query``: one entry for an English word or phrase (``match`` says by which rule),
    or the English words whose senses hold a Chinese one (``match`` "chinese", most frequent first)."""

    query: str
    match: str  # one of MATCHES
    entries: tuple[Entry, ...]
    form_of: str = ""  # the query is these forms of entries[0] ("p": "went" of "go"); "" when it is the entry

    @property
    def entry(self) -> Entry:
        return self.entries[0]

    def as_json(self) -> dict[str, Any]:
        return {
            "query": self.query,
            "match": self.match,
            "form_of": self.form_of,
            "entries": [e.as_json() for e in self.entries],
        }

    @classmethod
    def from_json(cls, data: object) -> Found | None:
        if not isinstance(data, dict) or data.get("match") not in MATCHES or not isinstance(data.get("query"), str):
            return None
        raw = data.get("entries")
        entries = tuple(e for e in (Entry.from_json(r) for r in (raw if isinstance(raw, list) else [])[:16]) if e)
        if not entries:
            return None
        form_of = data.get("form_of")
        return cls(
            data["query"][: limits.MAX_LOOKUP_CHARS],
            data["match"],
            entries,
            form_of if isinstance(form_of, str) else "",
        )
