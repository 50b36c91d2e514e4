"""The Qt binding itself: what the app relies on and one release broke."""

from __future__ import annotations

import sys

import PySide6
import pytest
from PySide6.QtCore import QObject, Signal


class _Emitter(QObject):
    delta = Signal(int, str)


@pytest.mark.xfail(
    PySide6.__version__ == "6.12.0",
    strict=True,
    reason="PySide6 6.12.0 drops a reference to True per emit(); pyproject.toml excludes it",
)
def test_emitting_a_signal_keeps_the_reference_count_of_true(qapp):
    # The worker emits a signal per streamed token. Were True to lose a reference each time, Python
    # 3.11 (where True is not immortal) aborts with "bool_dealloc" after a few thousand of them.
    emitter = _Emitter()
    received = []
    emitter.delta.connect(lambda req_id, text: received.append(text))
    before = sys.getrefcount(True)
    for _ in range(50):
        emitter.delta.emit(1, "piece")
    assert len(received) == 50
    assert sys.getrefcount(True) >= before
