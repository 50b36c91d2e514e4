"""Automatic direction: which pack and languages translate a text, from the language it is written in.

A one-way pack (MarianMT) is a direction; a many-to-many pack (mBART-50, M2M100, NLLB) has a
source and a target language. ``choose`` detects the text's language (fanyi.langid) and keeps the
direction in use when the text is in its source language; otherwise it turns the direction round
(typing Chinese into English→Chinese gives Chinese→English) or, failing that, keeps the target.
Across one-way packs it picks one translating from the detected language; a many-to-many pack
keeps its pack and changes its languages. Detection never waits for langid's n-gram model (the app
preloads it when the languages need it). No Qt here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from fanyi import langid
from fanyi.engine.language_choice import base_language
from fanyi.packs.library import PackInfo
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from fanyi.ui.worker import ModelInfo


@dataclass(frozen=True)
class Direction:
    pack: PackInfo
    source: str | None = None  # a many-to-many pack's languages, in its codes; None for one-way packs
    target: str | None = None

    @property
    def from_language(self) -> str:
        return self.source or self.pack.source_lang

    @property
    def to_language(self) -> str:
        return self.target or self.pack.target_lang


@dataclass(frozen=True)
class Choice:
    direction: Direction
    detected: str | None  # the text's language (a pack's code); None when the text has no letters
    supported: bool = True  # False: no installed pack translates from the detected language


def one_way(packs: Sequence[PackInfo]) -> list[PackInfo]:
    return [p for p in packs if p.usable and not p.languages]


def one_way_languages(packs: Sequence[PackInfo]) -> list[str]:
    """The languages automatic direction tells apart across one-way packs."""
    return list(dict.fromkeys(code for p in one_way(packs) for code in (p.source_lang, p.target_lang)))


def choose(text: str, current: Direction, packs: Sequence[PackInfo], model: ModelInfo | None,
           default_pack: str = "") -> Choice:
    """The direction for ``text``, starting from ``current`` (see the module docstring).

    ``model`` is the loaded model: a many-to-many pack's languages are known only from it, so until
    it is loaded the current direction stays.
    """
    if current.pack.languages:
        if model is None or model.path != current.pack.path or not model.many_to_many:
            return Choice(current, None)
        return _within(text, current, model)
    return _across(text, current, one_way(packs), default_pack)


def _within(text: str, current: Direction, model: ModelInfo) -> Choice:
    source, target = current.source, current.target
    sources, targets = model.source_languages, model.target_languages
    found = langid.detect(text, sources, prefer=[c for c in (source, target) if c], block=False)
    if not found.confidence:
        return Choice(current, None)
    detected = found.language
    if detected == source:
        return Choice(current, detected)
    if target is not None and base_language(detected) == base_language(target):
        new_target = source if source in targets else target  # the other way round
    else:
        new_target = target
    if new_target is None or base_language(new_target) == base_language(detected):
        new_target = next((c for c in targets if base_language(c) != base_language(detected)), new_target)
    return Choice(Direction(current.pack, detected, new_target), detected)


def _across(text: str, current: Direction, packs: list[PackInfo], default_pack: str) -> Choice:
    pack = current.pack
    languages = list(dict.fromkeys([pack.source_lang, pack.target_lang, *one_way_languages(packs)]))
    found = langid.detect(text, languages, prefer=[pack.source_lang], block=False)
    if not found.confidence:
        return Choice(current, None)
    detected = found.language
    if detected == pack.source_lang:
        return Choice(current, detected)
    fitting = [p for p in packs if p.source_lang == detected]
    if not fitting:
        return Choice(current, detected, supported=False)

    def rank(p: PackInfo) -> tuple[bool, bool, bool]:
        return p.target_lang != pack.source_lang, p.target_lang != pack.target_lang, p.name != default_pack

    return Choice(Direction(min(fitting, key=rank)), detected)


def reverse(current: Direction, packs: Sequence[PackInfo], model: ModelInfo | None) -> Direction | None:
    """The other way round: a many-to-many pack's languages swapped, else a pack for the other direction."""
    if current.pack.languages:
        if model is None or model.path != current.pack.path or current.source is None or current.target is None:
            return None
        if current.target not in model.source_languages or current.source not in model.target_languages:
            return None
        return Direction(current.pack, current.target, current.source)
    wanted = (current.pack.target_lang, current.pack.source_lang)
    back = next((p for p in one_way(packs) if (p.source_lang, p.target_lang) == wanted), None)
    return Direction(back) if back is not None else None
