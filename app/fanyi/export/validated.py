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
# a summarizer's (BART's): unless it raises the mean KL(PyTorch || pack) by more than this against the careful
# choice, a tenth of the gate's bound (validate.SUMMARY_MAX_KL)
SUMMARY_KL_TOLERANCE = 0.005


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
    (the fastest) within QUANTIZATION_TOLERANCE of the last (the careful choice) is kept: the embedding/output
    matrix in 8 bits rather than fp32 for int8 packs, blocks of 128 rather than 32 for int4 packs. A summarizer's
    int8 pack is also tried with its output projection in fp32 (the careful choice then), and judged by the
    mean KL divergence of its distribution, within SUMMARY_KL_TOLERANCE.
    """
    from .convert import export_pack  # noqa: PLC0415 - onnx: downloading alone does not load it
    from .hf_weights import detect_loader  # noqa: PLC0415

    summarizer = not detect_loader(hf_dir)[0].family.translates
    results = []
    for embeddings, block, head in _choices(quantize, summarizer):
        label = f"{embeddings} embeddings" + (f", blocks of {block}" if quantize == "int4" else "")
        label += ", output projection in fp32" if head == "fp32" else ""
        pack = export_pack(
            hf_dir,
            work / f"pack-{embeddings}-{block}-{head}",
            quantize=quantize,
            embeddings=embeddings,
            name=name,
            model_id=repo_id,
            revision=commit,
            block_size=block,
            output_projection=head,
            progress=say,
        )
        say(f"validating the pack ({label}) against the PyTorch model")
        results.append((pack, label, validate_pack(pack, hf_dir, min_int8_top1=min_int8_top1)))
        if summarizer:
            say(f"{label}: mean KL(PyTorch || pack) {results[-1][2].mean_kl:.5f}")
    careful = results[-1][2]

    def close_enough(report: ValidationReport) -> bool:
        if summarizer:
            return report.mean_kl <= careful.mean_kl + SUMMARY_KL_TOLERANCE
        return report.top1_agreement + QUANTIZATION_TOLERANCE >= careful.top1_agreement

    pack, label, report = next(r for r in results if close_enough(r[2]))
    if pack != results[0][0]:
        say(f"{results[0][1]} lose accuracy on this model: keeping {label}")
    for other, _label, _report in results:
        if other != pack:
            shutil.rmtree(other, ignore_errors=True)  # an LLM's is a gigabyte or more
    return pack, report


def _choices(quantize: str, summarizer: bool) -> tuple[tuple[str, int, str], ...]:
    """(embedding/output matrix, int4 block size, output projection), fastest first; the last is the careful
    choice the others are judged against. Blocks of 128 inputs make an int4 decode step about 25 % faster than
    blocks of 32 on HY-MT1.5-1.8B's shape (benchmarks/README.md), at a cost to accuracy that depends on the model."""
    from .causal_graphs import DEFAULT_BLOCK_SIZE  # noqa: PLC0415

    if quantize == "int4":
        return (("int8", 128, "int8"), ("int8", DEFAULT_BLOCK_SIZE, "int8"))
    if quantize != "int8":
        return (("fp32", DEFAULT_BLOCK_SIZE, "int8"),)
    int8 = (("int8", DEFAULT_BLOCK_SIZE, "int8"), ("fp32", DEFAULT_BLOCK_SIZE, "int8"))
    return (*int8, ("fp32", DEFAULT_BLOCK_SIZE, "fp32")) if summarizer else int8
