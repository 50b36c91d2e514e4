"""Fanyi: an offline translator, English↔Chinese first, for text, the clipboard, screenshots and documents.

It runs MarianMT (OPUS-MT), mBART-50, M2M100 and NLLB-200 models and translation LLMs (Qwen3, HY-MT1.5,
TranslateGemma) on ONNX Runtime, from model packs on this machine: the desktop app (``fanyi.ui``), the
command line (``fanyi.cli``) and a local LibreTranslate/DeepL-compatible API (``fanyi.server``), with no
network once a pack is installed.
"""

import os

__version__ = "0.1.0"

# ONNX Runtime's wheels (1.32, Linux and macOS included) start Microsoft's telemetry with the first
# inference session: a device id and an event database under ~/.cache/Microsoft and a lookup of the
# collector host. Only this variable, present before ONNX Runtime initialises, turns all of it off,
# and every entry point (the CLI, `python -m fanyi`, the app, the frozen bundle's launcher) imports
# this package before anything imports onnxruntime. Forced rather than defaulted: Fanyi sends nothing.
os.environ["ORT_DISABLE_TELEMETRY"] = "1"
