"""The release pipeline's export: each quantization choice exported and validated against PyTorch, the
fastest kept unless it loses accuracy (packaging/release). Needs the `export` extra (torch, transformers).

A user's computer makes packs with fanyi.library.from_source instead, which downloads and converts without
torch and takes the choice the release recorded in its catalog recipe.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

from .validate import INT8_MIN_TOP1, ValidationReport, validate_pack

# A faster quantization choice (int8 embeddings, int4 blocks of 128) is kept unless it lowers the
# teacher-forced top-1 agreement with PyTorch by more than this, against the careful choice
QUANTIZATION_TOLERANCE = 0.005


def export_validated(
    hf_dir: Path,
    work: Path,
    name: str,
    repo_id: str | None,
    commit: str | None,
    quantize: str,
    say: Callable[[str], None],
    min_int8_top1: float = INT8_MIN_TOP1,
) -> tuple[Path, ValidationReport]:
    """Export into `work` and validate: (pack folder, ValidationReport); the caller decides on a failed report.

    Each of the quantization's choices is exported and validated against the PyTorch model; the first
    (the fastest) whose top-1 agreement is within QUANTIZATION_TOLERANCE of the last (the careful choice) is
    kept: the embedding/output matrix in 8 bits rather than fp32 for int8 packs, blocks of 128 rather
    than 32 for int4 packs.
    """
    from .causal_graphs import DEFAULT_BLOCK_SIZE  # noqa: PLC0415 - onnx: downloading alone does not load it
    from .convert import export_pack  # noqa: PLC0415

    # (embedding/output matrix, int4 block size) fastest first; the last is the careful choice the others
    # are judged against. Blocks of 128 inputs make an int4 decode step about 25 % faster than blocks of 32
    # on HY-MT1.5-1.8B's shape (benchmarks/README.md), at a cost to accuracy that depends on the model.
    choices = {
        "int8": (("int8", DEFAULT_BLOCK_SIZE), ("fp32", DEFAULT_BLOCK_SIZE)),
        "int4": (("int8", 128), ("int8", DEFAULT_BLOCK_SIZE)),
    }.get(quantize, (("fp32", DEFAULT_BLOCK_SIZE),))
    results = []
    for embeddings, block in choices:
        label = f"{embeddings} embeddings" + (f", blocks of {block}" if quantize == "int4" else "")
        pack = export_pack(
            hf_dir,
            work / f"pack-{embeddings}-{block}",
            quantize=quantize,
            embeddings=embeddings,
            name=name,
            model_id=repo_id,
            revision=commit,
            block_size=block,
            progress=say,
        )
        say(f"validating the pack ({label}) against the PyTorch model")
        results.append((pack, label, validate_pack(pack, hf_dir, min_int8_top1=min_int8_top1)))
    careful = results[-1][2].top1_agreement
    pack, label, report = next(r for r in results if r[2].top1_agreement + QUANTIZATION_TOLERANCE >= careful)
    if pack != results[0][0]:
        say(f"{results[0][1]} lose accuracy on this model: keeping {label}")
    for other, _label, _report in results:
        if other != pack:
            shutil.rmtree(other, ignore_errors=True)  # an LLM's is a gigabyte or more
    return pack, report
