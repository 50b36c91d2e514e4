"""The one place that builds ONNX Runtime sessions, so threads and optimisation are set consistently.

ONNX Runtime is imported when the first session is built, not with this module: the model families
(which name their runners) are read by everything that looks at a pack's manifest — the pack library,
the installer, `fanyi models list` — and those never run a model.
"""

from __future__ import annotations

import logging
import os
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .. import defaults, limits

if TYPE_CHECKING:
    import onnxruntime as ort

log = logging.getLogger(__name__)


def default_threads() -> int:
    return defaults.threads()


def thread_count(threads: int | None) -> int:
    """The intra-op threads to use: None or 0 means the default; more than the CPUs (or MAX_THREADS) is
    clamped, because ONNX Runtime starts every one of them and 100,000 threads exhaust the machine."""
    if not threads or threads < 0:
        return default_threads()
    most = limits.max_threads()
    if threads > most:
        log.warning(
            "using %d threads, not %d: this machine has %d CPUs (at most %d are used)",
            most,
            threads,
            os.cpu_count() or 1,
            limits.MAX_THREADS,
        )
        return most
    return threads


def session_options(threads: int | None = None, *, arena: bool = True) -> ort.SessionOptions:
    """``arena=False`` for models whose inputs change size from run to run (OCR of images): ONNX Runtime's
    memory arena would keep the largest run's memory for good (~450 MB after one A4 page)."""
    import onnxruntime as ort  # noqa: PLC0415 - loaded with the first session, not to read a manifest

    opts = ort.SessionOptions()
    opts.enable_cpu_mem_arena = arena
    opts.intra_op_num_threads = count = thread_count(threads)
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.log_severity_level = 3
    # Worker threads spin while a run waits for them only when a core is left for everything else:
    # a decoder step is some 45 small parallel sections, and waking parked threads for each cost
    # 10-15 % of a step on a quiet machine; but with every core taken, a spinning thread waits for
    # one the system has parked, and steps took three times as long (two threads on two busy
    # cores; a third longer with the spin bounded to 25 µs by spin_duration_us). ONNX Runtime stops
    # the spinning when a run ends (~0.03 s of CPU after the last step), so an idle app burns no
    # core between keystrokes either way.
    spare_core = count < (os.cpu_count() or 1)
    opts.add_session_config_entry("session.intra_op.allow_spinning", "1" if spare_core else "0")
    return opts


def open_session(
    path: Path, threads: int | None = None, initializers: dict[str, np.ndarray] | None = None, *, arena: bool = True
) -> ort.InferenceSession:
    """A CPU session; `initializers` replace the graph's tensors of those names."""
    import onnxruntime as ort  # noqa: PLC0415 - loaded with the first session, not to read a manifest

    opts = session_options(threads, arena=arena)
    values = []
    for name, array in (initializers or {}).items():
        value = ort.OrtValue.ortvalue_from_numpy(np.ascontiguousarray(array))
        opts.add_initializer(name, value)
        values.append(value)
    session = ort.InferenceSession(str(path), sess_options=opts, providers=["CPUExecutionProvider"])
    # ONNX Runtime borrows the replacement buffers: they must live as long as the session
    session.fanyi_initializers = values
    return session


class PinnedBinding:
    """A session's IOBinding of numpy arrays by pointer: ONNX Runtime reads and writes them in place (a
    cache bound as both past and present is updated with no copy), so each stays referenced here for as
    long as it is bound."""

    def __init__(self, session: ort.InferenceSession) -> None:
        self.binding = session.io_binding()
        self._arrays: dict[str, np.ndarray] = {}

    def input(self, name: str, array: np.ndarray) -> np.ndarray:
        array = np.ascontiguousarray(array)
        self._arrays[name] = array
        self.binding.bind_input(name, "cpu", 0, array.dtype, array.shape, array.ctypes.data)
        return array

    def output(self, name: str, array: np.ndarray) -> np.ndarray:
        self._arrays["out:" + name] = array
        self.binding.bind_output(name, "cpu", 0, array.dtype, array.shape, array.ctypes.data)
        return array
