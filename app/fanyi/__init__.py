"""Fanyi: an offline English-Chinese translator running MarianMT models on ONNX Runtime."""

import os

__version__ = "0.1.0"

# ONNX Runtime's wheels (1.32, Linux and macOS included) start Microsoft's telemetry with the first
# inference session: a device id and an event database under ~/.cache/Microsoft and a lookup of the
# collector host. Only this variable, present before ONNX Runtime initialises, turns all of it off,
# and every entry point (the CLI, `python -m fanyi`, the app, the frozen bundle's launcher) imports
# this package before anything imports onnxruntime. Forced rather than defaulted: Fanyi sends nothing.
os.environ["ORT_DISABLE_TELEMETRY"] = "1"
