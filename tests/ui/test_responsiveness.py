"""The window never freezes: a 10 ms timer keeps firing while tens of paragraphs translate."""

from __future__ import annotations

import time

from PySide6.QtCore import QTimer
from test_main_window import long_text, wait_idle

MAX_STALL = 0.100  # seconds


def test_the_event_loop_keeps_answering_during_a_long_translation(qtbot, window, backend):
    text = long_text(30)
    window.source.set_text(text)
    window._debounce.stop()
    ticks: list[float] = []
    timer = QTimer(interval=10)
    timer.timeout.connect(lambda: ticks.append(time.perf_counter()))
    timer.start()
    started = time.perf_counter()
    window.translate_now()
    wait_idle(qtbot, window)
    timer.stop()
    elapsed = time.perf_counter() - started
    gaps = [b - a for a, b in zip(ticks, ticks[1:])]
    assert elapsed > 0.5, "the translation was too short to measure anything"
    assert window.target.view.text() == backend.translate(text, window.direction.options())
    print(f"{backend.kind}: longest stall {max(gaps) * 1000:.1f} ms, {len(ticks)} ticks in {elapsed:.1f} s")
    assert max(gaps) < MAX_STALL, f"longest stall {max(gaps) * 1000:.0f} ms over {elapsed:.1f} s"
