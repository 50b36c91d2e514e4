"""Which way the window translates, and the decoding options that go with it.

The window's direction is its pack and, for a many-to-many pack, the pair of languages last chosen
for that pack (kept in the settings); automatic direction, the swap button and the popup ask the
router (fanyi.routing) and follow its answer here.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from PySide6.QtCore import QObject, Signal

from fanyi import routing
from fanyi.documents.base import TextTranslator
from fanyi.engine import DecodeOptions
from fanyi.languages import ENGLISH, language_of
from fanyi.rewriter import Rewriter
from fanyi.routing import Choice, Direction
from fanyi.ui.controllers.glossary import GlossaryController
from fanyi.ui.controllers.packs import PackController
from fanyi.ui.controllers.settings import LiveSettings


class DirectionController(QObject):
    # the languages, the Chinese variant, the beams or length, automatic direction or the glossary changed:
    # what is shown must be translated again
    changed = Signal()

    def __init__(self, settings: LiveSettings, packs: PackController, glossary: GlossaryController) -> None:
        super().__init__()
        self._settings = settings
        self._packs = packs
        self._glossary = glossary
        settings.on_change(
            self.changed.emit,
            settings.beams,
            settings.max_length,
            settings.target_variant,
            settings.pack_languages,
            settings.auto_direction,
        )
        glossary.changed.connect(self.changed.emit)

    @property
    def auto(self) -> bool:
        return self._settings.auto_direction.value

    @property
    def wanted_variant(self) -> str:
        """The way of writing Chinese the user chose (fanyi.languages.VARIANTS), where a direction offers it."""
        return self._settings.target_variant.value

    def current(self) -> Direction | None:
        """The window's direction: its pack, and a many-to-many pack's languages."""
        pack = self._packs.current
        if pack is None:
            return None
        return Direction(pack, *routing.saved_languages(pack, self._settings.pack_languages.value))

    def choose(self, text: str, start: Direction | None = None) -> Choice | None:
        """The direction to translate ``text`` in: detected from it, or the window's when the user pinned one;
        pinned, what the text is written in is still told, with the direction automatic direction would
        take (``Choice.suggested``: a one-click switch)."""
        current = start or self.current()
        if current is None:
            return None
        found = routing.choose(text, current, self._packs.installed, self._settings.default_pack.value)
        if self.auto:
            return found
        suggested = found.direction if found.direction != current else None
        return Choice(current, found.detected, found.supported, suggested=suggested)

    def rewrite(self, choice: Choice | None, variant: str | None = None) -> str | None:
        """How the chosen text is written anew by OpenCC, no model (fanyi.routing.rewrite): Chinese into a
        direction that writes Chinese, the way the user chose (``variant``: the popup's own choice)."""
        if choice is None:
            return None
        return routing.rewrite(choice.direction, choice.detected, variant or self.wanted_variant)

    def reverse(self, direction: Direction) -> Direction | None:
        return routing.reverse(direction, self._packs.installed)

    def follow(self, direction: Direction) -> bool:
        """Make ``direction`` the window's; True when it had another, then the window translates again
        once the pack is loaded or the languages are set."""
        current = self.current()
        if current is None:
            return False
        if direction.pack.path != current.pack.path:
            self._packs.choose(direction.pack)
            return True
        if direction.source is not None and (direction.source, direction.target) != (current.source, current.target):
            self.set_languages(direction.source, direction.target)
            return True
        return False

    def set_auto(self, on: bool) -> None:
        """Automatic direction on, or off to keep the one the user chose."""
        self._settings.auto_direction.set(on)

    def set_languages(self, source: str | None, target: str | None) -> None:
        """Remember the languages chosen for the window's many-to-many pack (and translate again)."""
        pack = self._packs.current
        if pack is None or not routing.multilingual(pack):
            return
        self._settings.pack_languages.set(dict(self._settings.pack_languages.value, **{pack.name: [source, target]}))

    def set_variant(self, key: str) -> None:
        self._settings.target_variant.set(key)

    def document_rewriter(self) -> Callable[[str, TextTranslator | None], Rewriter | None]:
        """For a document queued now: given its first text and the documents' translator, OpenCC where it is
        Chinese and the window's direction writes Chinese (as ``rewrite`` for typed text), its English
        sentences through that translator where the direction is from English; else None. Called in the
        documents' thread: it holds values only."""
        direction, wanted, options = self.current(), self.wanted_variant, self.options()

        def rewriter(text: str, translator: TextTranslator | None) -> Rewriter | None:
            if direction is None:
                return None
            detected = routing.choose(text, direction, [direction.pack]).detected
            way = routing.rewrite(direction, detected, wanted)
            if way is None:
                return None
            if translator is None or language_of(direction.from_language).code != ENGLISH:
                return Rewriter(way)
            return Rewriter(way, others=lambda: translator, others_options=options)

        return rewriter

    def written(self, direction: Direction, variant: str | None = None) -> str | None:
        """How ``direction`` writes Chinese for the user's choice (or ``variant``, the popup's own); None when
        it offers no choice."""
        return routing.written(direction, variant or self.wanted_variant)

    def options(self, direction: Direction | None = None, variant: str | None = None) -> DecodeOptions:
        """Decoding options for ``direction`` (by default the window's): its languages, the user's variant
        (or ``variant``, the popup's own), beams and length, and the glossary's terms of its language pair."""
        direction = direction or self.current()
        if direction is None:
            return self.user_options()
        options = routing.decode_options(direction, variant or self.wanted_variant, self.user_options())
        return dataclasses.replace(
            options, glossary=self._glossary.entries(direction.from_language, direction.to_language)
        )

    def user_options(self) -> DecodeOptions:
        """Beams and length as the user set them (0: the pack's own); read by the API in its thread too."""
        s = self._settings.current
        return DecodeOptions(beams=s.beams or None, max_length=s.max_length or None)
