"""The one place that builds ONNX Runtime sessions, so threads and optimisation are set consistently."""

from __future__ import annotations

import os
from pathlib import Path

import onnxruntime as ort


def default_threads() -> int:
    # Decoding one sentence is latency-bound; more than 4 intra-op threads rarely helps a d_model-512 model.
    return max(1, min(4, os.cpu_count() or 1))


def session_options(threads: int | None = None) -> ort.SessionOptions:
    opts = ort.SessionOptions()
    opts.intra_op_num_threads = threads or default_threads()
    opts.inter_op_num_threads = 1
    opts.execution_mode = ort.ExecutionMode.ORT_SEQUENTIAL
    opts.graph_optimization_level = ort.GraphOptimizationLevel.ORT_ENABLE_ALL
    opts.log_severity_level = 3
    # Between keystrokes the worker idles; spinning threads would burn a core for nothing.
    opts.add_session_config_entry("session.intra_op.allow_spinning", "0")
    return opts


def open_session(path: Path, threads: int | None = None) -> ort.InferenceSession:
    return ort.InferenceSession(str(path), sess_options=session_options(threads), providers=["CPUExecutionProvider"])
