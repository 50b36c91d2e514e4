"""The reference translation a release pack carries, for the self-test of every installation.

A sentence from a short fixed list: the first that the int8 pack translates exactly as PyTorch does
(and not to nothing). The int8 pack is run on each int8 weight path whose sums are exact on the build machine
(engine/int8_weights.py: "reduced" everywhere, "full" unless the CPU is x86 without VNNI), and all
of them must agree, so the recorded output is what every user's CPU should reproduce.
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

from .scoring import pytorch_translations

# Short everyday sentences, most likely first to come out the same in int8 and fp32.
SENTENCES = {
    "en": ("Hello, how are you today?", "Thank you very much.", "Good morning.",
           "Where is the train station?", "I like reading books.", "The weather is nice today."),
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


def choose(hf_dir: Path, pack_dir: Path, allow_disagreement: bool = False) -> Reference:
    """The reference for an int8 pack; ReferenceMismatch when no sentence agrees (unless allowed)."""
    from fanyi.engine.translator import Translator

    pack = ModelPack.open(pack_dir)
    sentences = SENTENCES.get(pack.source_lang)
    if sentences is None:
        raise ReferenceMismatch(f"no reference sentences for source language {pack.source_lang!r}")
    target = pack.default_target
    token = pack.target_tokens[target] if target else None
    # one sentence at a time, as the self-test translates it
    pytorch = pytorch_translations(hf_dir, list(sentences), token, batch_size=1)
    options = DecodeOptions(target=target)
    outputs: dict[str, list[str]] = {}
    for path in exact_paths():
        with int8_weights(path):
            translator = Translator.open(pack_dir, threads=1)
        outputs[path] = [translator.translate(s, options) for s in sentences]

    for i, sentence in enumerate(sentences):
        if pytorch[i] and all(out[i] == pytorch[i] for out in outputs.values()):
            return Reference(sentence, target, pytorch[i], pytorch[i], tuple(outputs))
    if not allow_disagreement:
        lines = [f"  {s!r}: PyTorch {pytorch[i]!r}, "
                 + ", ".join(f"int8 {p} {out[i]!r}" for p, out in outputs.items()) for i, s in enumerate(sentences)]
        raise ReferenceMismatch("the int8 pack translates none of the reference sentences as PyTorch does:\n"
                             + "\n".join(lines))
    here = outputs[cpu_path()][0]
    return Reference(sentences[0], target, pytorch[0], here, tuple(p for p, out in outputs.items() if out[0] == here))


def record(pack_dir: Path, pack_version: int, reference: Reference) -> None:
    """Write pack_version and the reference into the manifest (which is not among its own checksummed files)."""
    path = pack_dir / MANIFEST
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["pack_version"] = pack_version
    manifest["reference"] = {**asdict(reference), "int8_weights": list(reference.int8_weights)}
    atomic_write_text(path, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")
