"""One router: which installed pack translates a request, and in which of its languages.

The window, the clipboard popup, the command line and the local API all ask here. No Qt, no ONNX
Runtime, and no model needs to be loaded: what a pack offers is in its ``PackInfo`` (its manifest).

Packs are of two kinds, told apart by their PackInfo alone:

- one-way (MarianMT): ``source_lang`` → ``target_lang``, some with target tokens that choose how
  Chinese is written (cmn_Hans 简体, cmn_Hant 繁體, yue 粤语);
- multilingual (mBART-50, M2M100, NLLB, and any pack that lists its languages the same way, as
  translation LLM packs do): ``source_languages`` and ``languages`` (its targets) in its own codes
  (en_XX, en, eng_Latn, zho_Hant); ``source_lang`` and ``target_lang`` are then "mul".

Codes of every style are read by fanyi.languages: en, EN-US, en_XX and eng_Latn are English; zh-TW,
zho_Hant and cmn_Hant are Chinese written in Traditional characters; a bare zh is Simplified. What a
client or the command line asks for (``languages.requested``) may also be one of the two Traditional
Chinese that any pack writing Simplified can make (fanyi.variants, OpenCC): zh-TW (繁體（台灣）) and zh-HK
(繁體（香港）).

The questions, one function each:

- ``route(packs, source, target, text)``: a language pair as a client or the command line names it,
  "auto" for "detect it" or "the other language" → ``Route`` (the local API, ``fanyi translate``);
- ``choose(text, current, packs)``: automatic direction from the language a text is written in →
  ``Choice`` (the window and the popup);
- ``reverse(current, packs)``: the other way round (the swap buttons);
- ``default_pack``, ``saved_languages``, ``variant``, ``decode_options``: what the user's settings
  add to a ``Direction``; ``pairs``: every language pair the packs translate (the API's lists);
- ``rewrite``: Chinese text into a direction that writes Chinese is no translation: OpenCC writes it the
  way asked for (简→繁, 繁→简), no model; ``route`` says the same in ``Route.rewrite``.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Generic, Protocol, TypeVar

from fanyi import langid, variants
from fanyi.engine import DecodeOptions
from fanyi.languages import (
    AUTO,
    CANTONESE,
    CHINESE,
    CONVERTED,
    ENGLISH,
    SIMPLIFIED,
    TRADITIONAL,
    VARIANTS,
    Language,
    base_language,
    language_of,
    requested,
)

DEFAULT_PAIR = ("en", "zh")  # what a pack is chosen for when the user has not chosen one


class Pack(Protocol):
    """What the router reads of a pack, as fanyi.library.installed.PackInfo has it (not imported here: the
    library asks the router for its default pack). ``languages`` are a multilingual pack's targets."""

    @property
    def name(self) -> str: ...
    @property
    def path(self) -> Path: ...
    @property
    def source_lang(self) -> str: ...
    @property
    def target_lang(self) -> str: ...
    @property
    def target_tokens(self) -> dict[str, str]: ...
    @property
    def languages(self) -> tuple[str, ...]: ...
    @property
    def source_languages(self) -> tuple[str, ...]: ...
    @property
    def default_target(self) -> str | None: ...
    @property
    def translates(self) -> bool: ...  # False: a summarizer (BART), which the router never chooses
    @property
    def usable(self) -> bool: ...


P = TypeVar("P", bound=Pack)  # the router hands back the packs it was given, of their own type


class NoRoute(ValueError):
    """No installed pack translates what was asked; the message is one line for the user."""


@dataclass(frozen=True)
class Direction(Generic[P]):
    """A pack, and for a multilingual pack the languages to ask it for (its own codes)."""

    pack: P
    source: str | None = None  # None for a one-way pack
    target: str | None = None

    @property
    def from_language(self) -> str:
        return self.source or self.pack.source_lang

    @property
    def to_language(self) -> str:
        return self.target or self.pack.target_lang


@dataclass(frozen=True)
class Route(Generic[P]):
    """What ``route`` found for a request."""

    direction: Direction[P] | None  # None: the text is in the target language already: no model (see rewrite)
    source: str  # the source language ("en", "zh"), given or detected
    confidence: float  # of the detection; 1.0 when the source was given
    # a one-way pack's target token, or a CONVERTED variant (any pack); None for the pack's default
    variant: str | None = None
    # without a direction: Chinese asked for in Chinese, written this way by OpenCC (variants.REWRITE);
    # None: the text stays as it is
    rewrite: str | None = None


@dataclass(frozen=True)
class Choice(Generic[P]):
    """What automatic direction chose for a text."""

    direction: Direction[P]
    detected: str | None  # the text's language (a pack's code); None when the text has no letters
    supported: bool = True  # False: no installed pack translates from the detected language
    # a direction pinned by the user: the one automatic direction would take for the text, when another
    suggested: Direction[P] | None = None


@dataclass(frozen=True)
class Pair:
    """A language pair some pack translates, for the API's language lists."""

    source: str
    target: str
    variants: tuple[str, ...]  # the ways of writing Chinese a client may ask for (VARIANTS), when more than one


def _serves(pack: Pack) -> bool:
    """A pack the router may choose: usable, and made to translate."""
    return pack.usable and pack.translates


def multilingual(pack: Pack) -> bool:
    return bool(pack.languages)


def language_count(sources: Iterable[str], targets: Iterable[str]) -> int:
    """How many languages a multilingual pack (or a catalog entry) offers, as every list of packs says it
    (the window, the model manager, the command line, the API's messages): its codes, sources and targets
    together (HY-MT1.5's 33 languages and 5 varieties are 38)."""
    return len(set(sources) | set(targets))


def _one_way(packs: Iterable[P]) -> list[P]:
    return [p for p in packs if _serves(p) and not multilingual(p)]


def one_way_languages(packs: Iterable[Pack]) -> list[str]:
    """The languages automatic direction tells apart across one-way packs."""
    return _unique(code for p in _one_way(packs) for code in (p.source_lang, p.target_lang))


# --- the user's settings ---------------------------------------------------------------------------
def default_pack(packs: Sequence[P], preferred: str = "") -> P | None:
    """The pack named ``preferred``, else the first English→Chinese one, else the first; None without packs."""
    usable = [p for p in packs if _serves(p)]
    return (
        next((p for p in usable if p.name == preferred), None)
        or next((p for p in usable if (p.source_lang, p.target_lang) == DEFAULT_PAIR), None)
        or (usable[0] if usable else None)
    )


def saved_languages(pack: Pack, saved: Mapping[str, Sequence[str]]) -> tuple[str | None, str | None]:
    """(source, target) of a multilingual pack: the pair last chosen for it (``saved`` by pack name),
    else English → the pack's default target; (None, None) for a one-way pack."""
    sources, targets = pack.source_languages, pack.languages
    if not multilingual(pack) or not sources:
        return None, None
    chosen = saved.get(pack.name) or ("", "")
    english = next((c for c in sources if base_language(c) == ENGLISH), sources[0])
    source = chosen[0] if chosen[0] in sources else english
    target = (
        chosen[1] if chosen[1] in targets else pack.default_target if pack.default_target in targets else targets[0]
    )
    return source, target


def variant(pack: Pack, wanted: str | None) -> str | None:
    """The target token to ask a one-way pack for: ``wanted`` where the pack offers it (Simplified for a
    CONVERTED variant), else its default."""
    if not pack.target_tokens:
        return None
    token = SIMPLIFIED if wanted in CONVERTED else wanted
    return token if token in pack.target_tokens else pack.default_target


def ways_of_writing(direction: Direction[Any]) -> list[str]:
    """The ways of writing Chinese (VARIANTS) the user can choose between for ``direction``: a one-way
    pack's target tokens, and Taiwan's and Hong Kong's Traditional wherever the target is Simplified
    Chinese; none for a target that is not Chinese (or is Chinese the pack writes one other way)."""
    pack = direction.pack
    if direction.target is not None:
        return [SIMPLIFIED, *CONVERTED] if language_of(direction.target) == Language("zh", SIMPLIFIED) else []
    if multilingual(pack) or language_of(pack.target_lang).code != "zh":
        return []
    tokens = [v for v in (SIMPLIFIED, TRADITIONAL, CANTONESE) if v in pack.target_tokens]
    if pack.target_tokens and SIMPLIFIED not in pack.target_tokens:
        return tokens if len(tokens) > 1 else []
    return [SIMPLIFIED, *CONVERTED, *tokens[1:]]


def written(direction: Direction[Any], wanted: str | None) -> str | None:
    """The way of writing Chinese ``direction`` gives for the user's choice ``wanted``: it where offered,
    else the pack's default (Simplified for a many-to-many pack); None when there is no choice."""
    offered = ways_of_writing(direction)
    if not offered:
        return None
    default = direction.pack.default_target if direction.target is None else SIMPLIFIED
    return wanted if wanted in offered else default if default in offered else offered[0]


def decode_options(
    direction: Direction[P], wanted_variant: str | None = None, base: DecodeOptions | None = None
) -> DecodeOptions:
    """``base`` (beams, lengths) asking ``direction``'s pack for its languages: a multilingual pack's pair,
    or a one-way pack's target token (``wanted_variant`` where the pack offers it); a CONVERTED variant
    asks for Simplified, converted by OpenCC, wherever the direction writes Simplified Chinese."""
    convert = (
        wanted_variant if wanted_variant in CONVERTED and written(direction, wanted_variant) == wanted_variant else None
    )
    target = direction.target or variant(direction.pack, wanted_variant)
    return dataclasses.replace(base or DecodeOptions(), source=direction.source, target=target, convert=convert)


# --- a language pair (the local API, the command line) ---------------------------------------------
def route(
    packs: Sequence[P], source: str = AUTO, target: str = AUTO, text: str = "", *, prefer: Collection[Path] = ()
) -> Route[P]:
    """The pack and languages that translate ``text`` from ``source`` into ``target`` (codes of any
    style, or AUTO: the source told from the text, the target "the other language").

    Where several packs could, the first of ``prefer`` (pack folders, e.g. the models already in
    memory) wins, then a one-way pack over a multilingual one, then the order of ``packs``. Raises
    NoRoute (one line naming what is installed) when none can.
    """
    usable = [p for p in packs if _serves(p)]
    order = [Path(p).resolve() for p in prefer]

    def rank(pack: P) -> tuple[int, bool]:
        where = Path(pack.path).resolve()
        return order.index(where) if where in order else len(order), multilingual(pack)

    ranked = sorted(usable, key=rank)
    wanted_source = None if source.strip().lower() == AUTO else language_of(source)
    wanted_target = None if target.strip().lower() == AUTO else requested(target)
    if wanted_target is not None and not any(wanted_target.code in _targets(p) for p in usable):
        rewritten = _without_model(text, wanted_source, wanted_target)
        if rewritten is not None:
            return rewritten
    if not usable:
        raise NoRoute("no translation model is installed")
    offered = _describe(usable)
    named_target = target if wanted_target is not None else ""
    confidence = 1.0
    if wanted_target is None:
        if wanted_source is None:
            every = _unique(c for p in ranked for c in (*_sources(p), *_targets(p)))
            wanted_source, confidence = _detect(text, every, ranked)
        found = next(
            (
                t
                for p in ranked
                if wanted_source.code in _sources(p)
                for t in [_other_language(p, wanted_source.code)]
                if t is not None
            ),
            None,
        )
        if found is None:
            raise NoRoute(f"no installed model translates from {wanted_source.code} (installed: {offered})")
        wanted_target = Language(found)  # no way of writing asked for: the pack's default
    if not any(wanted_target.code in _targets(p) for p in usable):
        raise NoRoute(f"no installed model translates into {target} (installed: {offered})")
    if wanted_source is None:
        # among the languages that packs translate into the target, and the target itself
        candidates = _unique(
            [c for p in ranked if wanted_target.code in _targets(p) for c in _sources(p)] + [wanted_target.code]
        )
        wanted_source, confidence = _detect(text, candidates, ranked)
    if wanted_source.code == wanted_target.code:  # 简→繁, 繁→简: OpenCC alone
        return Route(None, wanted_source.code, confidence, rewrite=_rewritten(wanted_target.variant))
    fitting = [p for p in ranked if wanted_source.code in _sources(p) and wanted_target.code in _targets(p)]
    if not fitting:
        raise NoRoute(
            f"no installed model translates {wanted_source.code} into {wanted_target.code} (installed: {offered})"
        )
    # a pack that can write the Chinese asked for goes first; the best of the rest says why it cannot
    pack = min(fitting, key=lambda p: not _writes(p, wanted_target))
    if not _writes(pack, wanted_target):
        raise NoRoute(
            f"the model {pack.name} cannot write {wanted_target.variant} "
            f"(it offers: {', '.join(_choosable(pack, wanted_target.code))})"
        )
    converted = wanted_target.variant if wanted_target.variant in CONVERTED else None
    if not multilingual(pack):
        token = wanted_target.variant if wanted_target.variant in pack.target_tokens else None
        return Route(Direction(pack), wanted_source.code, confidence, converted or token)
    written_as = Language("zh", SIMPLIFIED) if converted else wanted_target
    source_code = _code_for(pack.source_languages, wanted_source, source, text)
    target_code = _code_for(pack.languages, written_as, "" if converted else named_target or pack.default_target or "")
    return Route(Direction(pack, source_code, target_code), wanted_source.code, confidence, converted)


def pairs(packs: Iterable[Pack]) -> list[Pair]:
    """Every language pair the usable packs translate, once each, in the packs' order."""
    found: dict[tuple[str, str], tuple[str, ...]] = {}
    for pack in packs:
        if not _serves(pack):
            continue
        choosable = {target: _choosable(pack, target) for target in _targets(pack)}
        for source in _sources(pack):
            for target, ways in choosable.items():
                if source != target:
                    held = found.get((source, target), ())
                    found[(source, target)] = tuple(v for v in VARIANTS if v in held or v in ways)
    return [Pair(source, target, variants) for (source, target), variants in found.items()]


def _sources(pack: Pack) -> list[str]:
    """The languages (Language.code) a pack translates from."""
    if multilingual(pack):
        return _unique(language_of(c).code for c in pack.source_languages)
    return [language_of(pack.source_lang).code]


def _targets(pack: Pack) -> list[str]:
    if multilingual(pack):
        return _unique(language_of(c).code for c in pack.languages)
    return [language_of(pack.target_lang).code]


def _written(pack: Pack, language: str) -> list[str]:
    """The ways a pack can write ``language`` (VARIANTS for Chinese): its target tokens or its codes."""
    if not multilingual(pack):
        return [t for t in pack.target_tokens if language_of(pack.target_lang).code == language]
    return _unique(
        v
        for c in pack.languages
        if (found := language_of(c)).code == language
        for v in [found.variant]
        if v is not None
    )


def _choosable(pack: Pack, language: str) -> list[str]:
    """The ways of writing ``language`` a request can choose between: none when the pack has only one.
    Where a pack writes Simplified Chinese, OpenCC makes Taiwan's and Hong Kong's Traditional of it."""
    ways = _written(pack, language)
    if language == "zh" and (not ways or SIMPLIFIED in ways):
        ways = [*(ways or [SIMPLIFIED]), *CONVERTED]
    return ways if len(ways) > 1 else []


def _writes(pack: Pack, wanted: Language) -> bool:
    choices = _choosable(pack, wanted.code)
    return not choices or wanted.variant is None or wanted.variant in choices


def _other_language(pack: Pack, source: str) -> str | None:
    """ "The other language" for a text in ``source``: a one-way pack's target; a multilingual pack's
    default target, or English for a text already in that language."""
    if not multilingual(pack):
        return _targets(pack)[0]
    preferred = [language_of(pack.default_target).code] if pack.default_target else []
    return next((t for t in [*preferred, ENGLISH, *_targets(pack)] if t != source and t in _targets(pack)), None)


def _code_for(codes: Sequence[str], wanted: Language, given: str, text: str = "") -> str:
    """The pack's own code for ``wanted``: ``given`` when it is one of them and of that language, else
    one written the way asked for (Chinese not asked for: Simplified), and among several (ace_Arab,
    ace_Latn) the one of the text's script."""
    if given in codes and language_of(given).code == wanted.code:
        return given
    same = [c for c in codes if language_of(c).code == wanted.code]
    way = wanted.variant or language_of(wanted.code).variant
    fitting = [c for c in same if language_of(c).variant == way] or same
    if len(fitting) > 1 and text:
        return langid.detect(text, fitting, block=False).language
    return fitting[0]


def _without_model(text: str, source: Language | None, target: Language) -> Route[Any] | None:
    """Chinese asked for in Chinese where no pack writes Chinese (or none is installed): OpenCC's, which needs
    no model. A text is Chinese when said so, or when more of its letters are Han than Latin — English being
    the other language a text for Fanyi is in; a text without either is not told apart here."""
    if target.code != CHINESE:
        return None
    if source is None:
        found = langid.detect(text, [CHINESE, ENGLISH])
        if not found.confidence:
            return None
        source = Language(found.language)
        confidence = found.confidence
    else:
        confidence = 1.0
    if source.code != CHINESE:
        return None
    return Route(None, CHINESE, confidence, rewrite=_rewritten(target.variant))


def _detect(text: str, candidates: list[str], ranked: Sequence[Pack]) -> tuple[Language, float]:
    """The candidate ``text`` is written in; without letters, what the best-ranked pack translates from."""
    found = langid.detect(text, candidates)
    if found.confidence:
        return Language(found.language), found.confidence
    usual = [_sources(p)[0] if not multilingual(p) else ENGLISH for p in ranked]
    return Language(next((c for c in usual if c in candidates), candidates[0])), 0.0


def rewrite_way(target: str) -> str | None:
    """How a text already in Chinese is written anew (OpenCC, no model) when Chinese is asked for as ``target``;
    None when ``target`` is no Chinese written some way (another language, Cantonese)."""
    wanted = requested(target)
    return _rewritten(wanted.variant) if wanted.code == CHINESE else None


def _describe(packs: Sequence[Pack]) -> str:
    return ", ".join(
        sorted(
            {
                f"{p.name} ({language_count(p.source_languages, p.languages)} languages)"
                if multilingual(p)
                else f"{p.source_lang}→{p.target_lang}"
                for p in packs
            }
        )
    )


def _rewritten(way: str | None) -> str | None:
    """The way Chinese text is written anew for a Chinese target written ``way``; None for one that is no
    script (Cantonese is a language of its own: that text stays as it is)."""
    return way if way in variants.REWRITE else None


def rewrite(direction: Direction[Any], detected: str | None, wanted: str | None) -> str | None:
    """How a text in ``detected`` (a pack's code) is written anew, with no model, instead of being translated
    in ``direction``: when it is Chinese and the direction writes Chinese, the way ``written`` gives for the
    user's choice ``wanted`` (or the target's own script); None when it is to be translated."""
    target = language_of(direction.to_language)
    if detected is None or language_of(detected).code != "zh" or target.code != "zh":
        return None
    return _rewritten(written(direction, wanted) or target.variant)


def _unique(codes: Iterable[str]) -> list[str]:
    return list(dict.fromkeys(codes))


# --- automatic direction (the window and the popup) ------------------------------------------------
def choose(text: str, current: Direction[P], packs: Sequence[P], default: str = "") -> Choice[P]:
    """The direction for ``text``, starting from ``current``.

    A multilingual pack keeps its pack and changes its languages; across one-way packs, one
    translating from the detected language is chosen. The direction in use stays when the text is
    in its source language; otherwise it turns round (Chinese typed into English→Chinese gives
    Chinese→English) or, failing that, keeps its target. ``default``: the pack name that wins a tie.
    Detection never waits for langid's n-gram model (the app preloads it when the languages need it).
    """
    if multilingual(current.pack):
        return _within(text, current)
    return _across(text, current, _one_way(packs), default)


def _within(text: str, current: Direction[P]) -> Choice[P]:
    source, target = current.source, current.target
    sources, targets = current.pack.source_languages, current.pack.languages
    if not sources:
        return Choice(current, None)
    found = langid.detect(text, sources, prefer=[c for c in (source, target) if c], block=False)
    if not found.confidence:
        return Choice(current, None)
    detected = found.language
    if detected == source:
        return Choice(current, detected)
    new_target: str | None = target
    if target is not None and base_language(detected) == base_language(target) and source in targets:
        new_target = source  # the other way round
    if new_target is None or base_language(new_target) == base_language(detected):
        new_target = next((c for c in targets if base_language(c) != base_language(detected)), new_target)
    return Choice(Direction(current.pack, detected, new_target), detected)


def _across(text: str, current: Direction[P], packs: list[P], default: str) -> Choice[P]:
    pack = current.pack
    languages = _unique([pack.source_lang, pack.target_lang, *one_way_languages(packs)])
    found = langid.detect(text, languages, prefer=[pack.source_lang], block=False)
    if not found.confidence:
        return Choice(current, None)
    detected = found.language
    if detected == pack.source_lang:
        return Choice(current, detected)
    fitting = [p for p in packs if p.source_lang == detected]
    if not fitting:
        return Choice(current, detected, supported=False)

    def rank(p: P) -> tuple[bool, bool, bool]:
        return p.target_lang != pack.source_lang, p.target_lang != pack.target_lang, p.name != default

    return Choice(Direction(min(fitting, key=rank)), detected)


def reverse(current: Direction[P], packs: Sequence[P]) -> Direction[P] | None:
    """The other way round: a multilingual pack's languages swapped, else a pack for the other direction."""
    if multilingual(current.pack):
        if current.source is None or current.target is None:
            return None
        if current.target not in current.pack.source_languages or current.source not in current.pack.languages:
            return None
        return Direction(current.pack, current.target, current.source)
    wanted = (current.pack.target_lang, current.pack.source_lang)
    back = next((p for p in _one_way(packs) if (p.source_lang, p.target_lang) == wanted), None)
    return Direction(back) if back is not None else None
