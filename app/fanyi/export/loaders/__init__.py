"""One loader per architecture: how a Hugging Face checkpoint of each model family becomes a pack's weights and
manifest (the family itself, fanyi.engine.families, runs the pack). Importing this package registers them; the
order decides which loader claims a folder whose architecture several share (M2M100 before NLLB)."""

from __future__ import annotations

from . import bart, gemma3, hunyuan, m2m100, marian, mbart50, nllb, qwen3  # noqa: F401 - they register themselves
from .base import LOADERS, ExportRefused, HfFolder, Loader, loader_for_folder, supported

__all__ = ["LOADERS", "ExportRefused", "HfFolder", "Loader", "loader_for_folder", "supported"]
