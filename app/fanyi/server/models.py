"""The models that answer requests: the installed packs, each behind a TranslatorGate, opened on first use.

In the desktop app one gate is *shared*: the app's worker already holds the pack the window uses,
and a request for that pack's direction is translated by that very Translator (one model in
memory). A request for another direction (zh→en while the window shows en→zh) opens that pack
here, once; should the window later switch to a pack opened here, this copy is dropped.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

from fanyi.engine import TranslatorGate
from fanyi.library.installed import PackInfo

OpenPack = Callable[[Path], Any]  # pack folder → Translator


def _same(a: Path, b: Path) -> bool:
    return Path(a).resolve() == Path(b).resolve()


def _pack_path(translator: Any) -> Path | None:
    return getattr(getattr(translator, "pack", None), "path", None)


def holds(translator: Any, pack: PackInfo) -> bool:
    """Whether ``translator`` is the model of ``pack`` (a gate's model can change while a request waits)."""
    path = _pack_path(translator)
    return path is not None and _same(path, pack.path)


class Models:
    def __init__(
        self, packs: Callable[[], list[PackInfo]], opener: OpenPack, shared: TranslatorGate | None = None
    ) -> None:
        self._packs = packs
        self._open = opener
        self._shared = shared
        self._own: dict[Path, TranslatorGate] = {}
        self._lock = threading.Lock()

    def packs(self) -> list[PackInfo]:
        return list(self._packs())

    def in_memory(self) -> list[Path]:
        """The packs whose models are loaded, the app's own first: the router prefers them (fanyi.routing)."""
        shared = self._shared_path()
        with self._lock:
            return ([shared] if shared is not None else []) + list(self._own)

    def gate(self, pack: PackInfo) -> TranslatorGate:
        """The gate of a pack's Translator, opening the pack when nobody holds it yet (PackError if it cannot)."""
        with self._lock:
            shared = self._shared_path()
            if shared is not None and _same(pack.path, shared):
                self._own.pop(pack.path, None)  # the app holds it now: keep one copy in memory
                return self._shared  # type: ignore[return-value]
            if pack.path not in self._own:
                self._own[pack.path] = TranslatorGate(self._open(pack.path))
            return self._own[pack.path]

    def _shared_path(self) -> Path | None:
        return _pack_path(self._shared.translator) if self._shared is not None else None
