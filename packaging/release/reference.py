"""The reference translation a release pack carries, for the self-test of every installation.

A sentence from a short fixed list: the first that the published pack translates exactly as PyTorch
does (and not to nothing). An int8 pack is run on each int8 weight path whose sums are exact on the
build machine (engine/int8_weights.py: "reduced" everywhere, "full" unless the CPU is x86 without
VNNI), and all of them must agree, so the recorded output is what every user's CPU should reproduce.
A translation LLM's reference is English into its default target, and records both languages.
"""

from __future__ import annotations

import contextlib
import json
import os
from collections.abc import Iterator
from dataclasses import asdict
from pathlib import Path

from fanyi.engine.int8_weights import needs_reduced_range
from fanyi.engine.options import DecodeOptions
from fanyi.engine.pack import MANIFEST, ModelPack, Reference
from fanyi.fsutil import atomic_write_text
from fanyi.languages import base_language

from .scoring import reference_translations

# Short everyday sentences, most likely first to come out the same in int8 and fp32.
SENTENCES = {
    "en": (
        "Hello, how are you today?",
        "Thank you very much.",
        "Good morning.",
        "Where is the train station?",
        "I like reading books.",
        "The weather is nice today.",
    ),
    "zh": ("你好，你今天好吗？", "非常感谢。", "早上好。", "火车站在哪里？", "我喜欢读书。", "今天天气很好。"),
}
WEIGHTS_ENV = "FANYI_INT8_WEIGHTS"


class ReferenceMismatch(Exception):
    pass


@contextlib.contextmanager
def int8_weights(path: str | None) -> Iterator[None]:
    """Translators opened inside use this int8 weight path ("full", "reduced"; None: the CPU decides)."""
    saved = os.environ.pop(WEIGHTS_ENV, None)
    if path is not None:
        os.environ[WEIGHTS_ENV] = path
    try:
        yield
    finally:
        os.environ.pop(WEIGHTS_ENV, None)
        if saved is not None:
            os.environ[WEIGHTS_ENV] = saved


def cpu_path() -> str:
    """The int8 weight path this CPU takes by itself."""
    with int8_weights(None):
        return "reduced" if needs_reduced_range() else "full"


def exact_paths() -> tuple[str, ...]:
    """Paths whose integer sums are exact here: full levels saturate on x86 without VNNI."""
    return ("full", "reduced") if cpu_path() == "full" else ("reduced",)


def _request(pack: ModelPack) -> DecodeOptions:
    """What the reference asks: a one-way pack its default target; a translation LLM English (or its first
    language) into its default target, both named, as the self-test will ask."""
    if not pack.family.decoder_only:
        return DecodeOptions(target=pack.default_target)
    sources = pack.source_languages
    return DecodeOptions(source="en" if "en" in sources else sources[0], target=pack.default_target)


def choose(hf_dir: Path, pack_dir: Path, allow_disagreement: bool = False) -> Reference:
    """The reference for a release pack; ReferenceMismatch when no sentence agrees (unless allowed)."""
    from fanyi.engine.translator import Translator

    pack = ModelPack.open(pack_dir)
    options = _request(pack)
    source = options.source or pack.source_lang
    sentences = SENTENCES.get(base_language(source))
    if sentences is None:
        raise ReferenceMismatch(f"no reference sentences for source language {source!r}")
    # one sentence at a time, as the self-test translates it
    pytorch = reference_translations(hf_dir, pack_dir, list(sentences), options, batch_size=1)
    # int8 packs on each exact int8 weight path; others as they load (None: no path to choose)
    paths: tuple[str | None, ...] = exact_paths() if pack.quantization == "int8" else (None,)
    outputs: dict[str | None, list[str]] = {}
    for path in paths:
        with int8_weights(path):
            translator = Translator.open(pack_dir, threads=1)
        outputs[path] = [translator.translate(s, options) for s in sentences]
    recorded = [p for p in outputs if p is not None]

    def reference(i: int, output: str, agreeing: list[str]) -> Reference:
        return Reference(sentences[i], options.target, pytorch[i], output, tuple(agreeing), options.source)

    for i in range(len(sentences)):
        if pytorch[i] and all(out[i] == pytorch[i] for out in outputs.values()):
            return reference(i, pytorch[i], recorded)
    if not allow_disagreement:
        lines = [
            f"  {s!r}: PyTorch {pytorch[i]!r}, "
            + ", ".join(f"{pack.quantization}{'' if p is None else ' ' + p} {out[i]!r}" for p, out in outputs.items())
            for i, s in enumerate(sentences)
        ]
        raise ReferenceMismatch(
            f"the {pack.quantization} pack translates none of the reference sentences "
            "as PyTorch does:\n" + "\n".join(lines)
        )
    here = outputs[cpu_path() if pack.quantization == "int8" else None][0]
    return reference(0, here, [p for p in recorded if outputs[p][0] == here])


def record(pack_dir: Path, pack_version: int, reference: Reference | None) -> None:
    """Write pack_version and the reference (None: a pack without one, a summarizer) into the manifest (which
    is not among its own checksummed files)."""
    path = pack_dir / MANIFEST
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["pack_version"] = pack_version
    if reference is not None:
        manifest["reference"] = asdict(reference)
    atomic_write_text(path, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
