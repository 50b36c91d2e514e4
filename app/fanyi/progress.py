"""How long work reports progress: ``progress(done, total)`` in the work's own unit (sentences,
document units, bytes copied). Downloads report more (speed, time left): library.download.TransferProgress."""

from __future__ import annotations

from collections.abc import Callable

ProgressCallback = Callable[[int, int], None]
