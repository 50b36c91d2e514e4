"""`fanyi models fetch`: download an OPUS-MT repository, export it to an int8 pack, validate, install.

Runs on a user's machine that is online and has the `export` extra. Downloads go to the Hugging
Face cache, which resumes interrupted files; the pack appears in the packs folder only once it has
been exported and validated.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from ..cancel import CancelToken
from ..engine.pack import ModelPack
from .checkpoint_files import needed_files
from .errors import ExportError, FetchError
from .validate import INT8_MIN_TOP1, ValidationReport, validate_pack

# name → (Hugging Face repository, revision). "main" is resolved at download time and the commit
# actually used is written to the pack's manifest, so a pack always says what it was built from.
KNOWN_MODELS = {
    "opus-mt-en-zh": ("Helsinki-NLP/opus-mt-en-zh", "main"),
    "opus-mt-zh-en": ("Helsinki-NLP/opus-mt-zh-en", "main"),
}
# A faster quantization choice (int8 embeddings, int4 blocks of 128) is kept unless it lowers the
# teacher-forced top-1 agreement with PyTorch by more than this, against the careful choice
QUANTIZATION_TOLERANCE = 0.005


def download(
    repo_id: str,
    revision: str,
    into: Path,
    say: Callable[[str], None],
    cancel: CancelToken | None,
    cache_dir: Path | None = None,
) -> str:
    """Download the files a pack needs into `into`; returns the commit hash downloaded.

    `cache_dir`: a download cache of the caller's (the release pipeline's, gone with its pack) instead of
    the user's Hugging Face cache.
    """
    try:
        from huggingface_hub import HfApi, hf_hub_download
        from huggingface_hub.errors import EntryNotFoundError
    except ImportError:
        raise FetchError("downloading needs huggingface_hub: pip install 'fanyi[export]'") from None
    try:
        info = HfApi().model_info(repo_id, revision=revision)
    except Exception as exc:  # noqa: BLE001 - the hub client raises many kinds; all mean the same to a user here
        raise FetchError(
            f"cannot reach the Hugging Face hub to download {repo_id} "
            f"({type(exc).__name__}); connect to the internet or import a pack instead"
        ) from None
    commit = info.sha or revision
    present = {s.rfilename for s in (info.siblings or [])}

    def read(filename: str) -> bytes:
        return Path(hf_hub_download(repo_id, filename, revision=commit, cache_dir=cache_dir)).read_bytes()

    try:
        wanted = needed_files(present, read)
    except ExportError as exc:
        raise FetchError(f"{repo_id}: {exc}") from None
    for i, filename in enumerate(wanted, 1):
        if cancel is not None:
            cancel.raise_if_cancelled()
        say(f"downloading {filename} ({i}/{len(wanted)})")
        try:
            local = hf_hub_download(repo_id, filename, revision=commit, cache_dir=cache_dir)
        except EntryNotFoundError:
            continue
        except Exception as exc:  # noqa: BLE001 - the hub client raises many kinds
            raise FetchError(f"download of {repo_id}/{filename} failed ({type(exc).__name__}: {exc})") from None
        _place(Path(local), into / filename)
    return commit


def _place(cached: Path, dest: Path) -> None:
    """The cached file in `dest`: a hard link where the file system allows (a 4 GB model is not stored
    twice), else a copy."""
    try:
        os.link(cached.resolve(), dest)
    except OSError:
        shutil.copy2(cached, dest)


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


def fetch_and_install(
    name: str,
    packs_dir: Path,
    *,
    source: Path | None = None,
    progress: Callable[[str], None] | None = None,
    cancel: CancelToken | None = None,
    quantize: str = "int8",
) -> ModelPack:
    """Build pack `name` from the hub (or from a local Hugging Face folder `source`) into packs_dir."""
    say = progress or (lambda _msg: None)
    if name not in KNOWN_MODELS and source is None:
        raise FetchError(f"unknown model {name!r}; known: {', '.join(KNOWN_MODELS)}")
    repo_id, revision = KNOWN_MODELS.get(name, (None, None))
    target = packs_dir / name
    if target.exists():
        raise FetchError(f"{target} already exists; remove that pack first")
    packs_dir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=f".fetch-{name}-", dir=packs_dir) as tmp:
        work = Path(tmp)
        if source is not None:
            hf_dir, commit = Path(source), None
        else:
            hf_dir = work / "hf"
            hf_dir.mkdir()
            known_id, known_revision = KNOWN_MODELS[name]
            commit = download(known_id, known_revision, hf_dir, say, cancel)
        if cancel is not None:
            cancel.raise_if_cancelled()
        staged, report = export_validated(hf_dir, work, name, repo_id, commit, quantize, say)
        if not report.passed:
            raise FetchError(f"the exported pack does not agree with the PyTorch model:\n{report.text()}")
        staged.rename(target)
    say(f"installed {name} in {target}")
    return ModelPack.open(target)
