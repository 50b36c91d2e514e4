"""A pack made on this computer from the model's own files: download, verify, convert, check, install.

The path of `fanyi models get REPO_ID`, of `fanyi models install ID` for a catalog recipe, of the app's
Download button and of `make run`: choose the source (library.sources.order) → list the repository at the
pinned revision → check the free disk for the download and the conversion → download what the converter
reads, with progress, resumable (library.sources.fetch) → verify every file → convert with
fanyi.export.convert.export_pack (progress by layer, cancellable between layers) → compare the converted
files with the release's hashes where the recipe has them → install all or nothing (library.unpack).

The downloaded files wait in the downloads folder (``downloads/sources/<name>@<revision>/<repository>/``
in the user data folder) until the pack is installed, so a cancel, a failure or a closed app lose nothing
already verified, and the next attempt resumes; they are deleted once the pack is in place. The
conversion writes into a temporary folder beside them, which a cancel or a failure removes.
"""

from __future__ import annotations

import json
import logging
import re
import shutil
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .. import __version__, names, paths
from ..cancel import CancelToken
from ..engine import MANIFEST
from ..export.hf_weights import detect_loader
from ..fsutil import atomic_write_text
from . import unpack
from .catalog import Conversion, Converted, Pin
from .diskspace import full_disk_reported
from .download import Timeouts, TransferCallback, TransferProgress
from .errors import LibraryError
from .installed import PackInfo
from .sources.fetch import fetch_repository
from .sources.order import Origin

log = logging.getLogger(__name__)
SOURCES_FOLDER = "sources"
# bytes of the converted pack per parameter of the model, generously: int8 packs keep scales and may keep an
# fp32 embedding matrix; int4 packs keep scales, an int8 embedding matrix and the norms in fp32
PACK_BYTES_PER_PARAMETER = {"none": 4.1, "int8": 1.5, "int4": 0.8}
DTYPE_BYTES = {"float32": 4, "float16": 2, "bfloat16": 2}


@dataclass(frozen=True)
class Recipe:
    """What to make and from where (a catalog entry's recipe, or `fanyi models get`'s)."""

    name: str  # the installed pack's name
    origins: Sequence[Origin]  # where to get the model's files, in order
    version: int | None = None  # the pack version a catalog entry installs (its manifest's pack_version)
    conversion: Conversion | None = None  # None: int8 for an encoder-decoder, int4 for an LLM
    pins: Mapping[str, Pin] = field(default_factory=dict)
    converted: Converted | None = None


def cache_folder(recipe: Recipe) -> Path:
    """Where the model's files wait until the pack is installed: named after the repository, because the
    MarianMT exporter reads the languages of an opus-mt-xx-yy folder from its name."""
    first = recipe.origins[0]
    revision = re.sub(r"[^A-Za-z0-9._-]", "_", first.revision)[:40]
    name = names.check(recipe.name, "the pack's name")
    repository = names.check(first.repo_id.rsplit("/", 1)[-1], "the repository's name")
    return paths.downloads_dir() / SOURCES_FOLDER / f"{name}@{revision}" / repository


def _model(folder: Path) -> tuple[dict[str, Any], bool]:
    """The folder's config.json and whether it is a decoder-only LLM; ExportError for what no family exports."""
    loader, hf = detect_loader(folder)
    return hf.config, loader.decoder_only


def default_conversion(decoder_only: bool) -> Conversion:
    return Conversion("int4") if decoder_only else Conversion("int8")


def pack_estimate(folder: Path, weights_bytes: int, conversion: Conversion | None) -> int:
    """Bytes of the converted pack, from the weights' bytes, their dtype and the quantization."""
    config, decoder_only = _model(folder)
    dtype = str(config.get("torch_dtype") or config.get("dtype") or "float32")
    parameters = weights_bytes / DTYPE_BYTES.get(dtype, 2)  # an unknown dtype: counted as 16-bit, the larger pack
    quantize = (conversion or default_conversion(decoder_only)).quantize
    return int(parameters * PACK_BYTES_PER_PARAMETER[quantize])


def make_pack(
    recipe: Recipe,
    *,
    progress: TransferCallback | None = None,
    cancel: CancelToken | None = None,
    packs_dir: Path | None = None,
    timeouts: Timeouts = Timeouts(),
    retry_delay: float = 1.0,
) -> PackInfo:
    """Download, convert, check and install `recipe`'s pack; returns the installed pack.

    Raises LibraryError (DownloadError, AccessDenied, NotFound, DiskSpaceError) or ExportError in one line,
    and Cancelled; the verified downloads are kept for the next attempt either way. A name that cannot be a
    folder's (names.BadName) is refused before anything is asked or written.
    """
    cache = cache_folder(recipe)

    def need_after(folder: Path, weights_bytes: int) -> int:
        # the pack is written once by the converter and once more where it is installed
        return 2 * pack_estimate(folder, weights_bytes, recipe.conversion)

    fetched = fetch_repository(
        recipe.origins,
        cache,
        pins=recipe.pins,
        need_after=need_after,
        progress=progress,
        cancel=cancel,
        timeouts=timeouts,
        retry_delay=retry_delay,
    )
    cache.parent.parent.mkdir(parents=True, exist_ok=True)
    weights = sum(fetched.listing.files[n].size for n in fetched.files if n.endswith(".safetensors"))
    with tempfile.TemporaryDirectory(prefix=".convert-", dir=cache.parent.parent) as tmp:
        made = _Made(recipe.name, recipe.conversion, fetched.origin.repo_id, fetched.revision)
        pack_dir = _convert(fetched.folder, weights, made, Path(tmp) / recipe.name, progress, cancel)
        _check_converted(pack_dir, recipe.converted, progress)
        if recipe.version is not None:
            _set_version(pack_dir, recipe.version)
        _report(progress, "installing", 0, 0, recipe.name)
        pack = unpack.install(
            pack_dir,
            expect_name=recipe.name,
            expect_version=recipe.version,
            replace=True,
            cancel=cancel,
            packs_dir=packs_dir,
            progress=lambda done, total: _report(progress, "installing", done, total, recipe.name),
        )
    shutil.rmtree(cache.parent, ignore_errors=True)  # installed: the model's files are no longer needed
    return PackInfo.of(pack, bundled=False)


def _report(progress: TransferCallback | None, phase: str, done: int, total: int, detail: str) -> None:
    if progress is not None:
        progress(TransferProgress(phase, done, total, 0.0, None, detail))


@dataclass(frozen=True)
class _Made:
    """What a conversion makes: the pack's name, its quantization (None: the family's default) and its origin."""

    name: str
    conversion: Conversion | None
    model_id: str | None
    revision: str | None


def _convert(
    folder: Path,
    weights: int,
    made: _Made,
    out: Path,
    progress: TransferCallback | None,
    cancel: CancelToken | None,
) -> Path:
    """The model's folder converted into the pack ``out``; ``weights``: its weights' bytes, for the disk needed."""
    try:
        from ..export.convert import export_pack  # noqa: PLC0415 - onnx: the converter loads when it converts
    except ImportError as exc:
        raise LibraryError(f"this installation cannot convert models: {exc.name} is missing ({exc})") from None
    _config, decoder_only = _model(folder)
    conversion = made.conversion or default_conversion(decoder_only)
    layers = [0, 0]

    def steps(done: int, total: int) -> None:
        layers[:] = [done, total]
        _report(progress, "converting", done, total, "")

    def say(message: str) -> None:
        log.info("%s: %s", made.name, message)
        _report(progress, "converting", layers[0], layers[1], message)

    with full_disk_reported(out.parent, pack_estimate(folder, weights, conversion)):
        try:
            return export_pack(
                folder,
                out,
                quantize=conversion.quantize,
                embeddings=conversion.embeddings,
                block_size=conversion.block_size,
                output_projection=conversion.output_projection,
                name=made.name,
                model_id=made.model_id,
                revision=made.revision,
                progress=say,
                cancel=cancel,
                steps=steps,
            )
        except ImportError as exc:  # the converter of this version still reads the weights through torch
            raise LibraryError(
                f"this installation cannot convert models: {exc.name} is missing; install it, "
                f"or import a pack made elsewhere ({exc})"
            ) from None


def _check_converted(pack_dir: Path, converted: Converted | None, progress: TransferCallback | None) -> None:
    """The converted files must be the ones the release pipeline validated, when the recipe has their hashes
    and this is the Fanyi whose converter made them (another version's converter may write other bytes)."""
    if converted is None:
        return
    if converted.fanyi != __version__:
        log.info(
            "not compared with the release's converted files: Fanyi %s made them, this is %s",
            converted.fanyi,
            __version__,
        )
        return
    manifest = json.loads((pack_dir / MANIFEST).read_text(encoding="utf-8"))
    made = {name: entry["sha256"] for name, entry in manifest["files"].items()}
    differ = sorted(name for name, sha in converted.files.items() if made.get(name) != sha)
    if differ:
        raise LibraryError(
            f"the converted pack is not the one the release validated ({', '.join(differ)} differ); "
            "it was not installed"
        )
    _report(progress, "converting", 1, 1, "the converted files are the release's")


def _set_version(pack_dir: Path, version: int) -> None:
    """The catalog version goes into the manifest (the files' checksums do not cover it)."""
    path = pack_dir / MANIFEST
    manifest = json.loads(path.read_text(encoding="utf-8"))
    manifest["pack_version"] = version
    atomic_write_text(path, json.dumps(manifest, indent=2, ensure_ascii=False) + "\n")


# --- a model's folder on this computer ------------------------------------------------------------------------
class NotAModel(LibraryError):
    """A folder that is neither a pack nor a Hugging Face model folder (the UI says it in its language)."""

    def __init__(self, folder: Path) -> None:
        super().__init__(
            f"{folder} is neither a model pack (it has no {MANIFEST}) nor a Hugging Face model folder (it has no "
            "config.json): choose the folder that holds one of them"
        )
        self.folder = folder


def is_model_folder(path: Path) -> bool:
    """Whether `path` is a Hugging Face model folder (config.json, no pack manifest) rather than a pack."""
    return path.is_dir() and (path / "config.json").is_file() and not (path / MANIFEST).is_file()


def pack_from_folder(
    folder: Path,
    *,
    name: str | None = None,
    conversion: Conversion | None = None,
    progress: TransferCallback | None = None,
    cancel: CancelToken | None = None,
    packs_dir: Path | None = None,
) -> PackInfo:
    """A Hugging Face model folder on this computer (the repository as `hf download` or a git clone leaves it)
    made into a pack as a download is: converted (progress by layer, cancellable), checked and installed all or
    nothing, replacing a pack of the same name. `name`: default the folder's name in lower case."""
    name = names.check(name or folder.name.lower(), "the pack's name")
    weights = sum(p.stat().st_size for p in folder.glob("*.safetensors") if p.is_file())
    packs_dir = packs_dir or paths.user_packs_dir()
    work = paths.downloads_dir() / SOURCES_FOLDER
    work.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix=".convert-", dir=work) as tmp:
        pack_dir = _convert(folder, weights, _Made(name, conversion, None, None), Path(tmp) / name, progress, cancel)
        _report(progress, "installing", 0, 0, name)
        pack = unpack.install(
            pack_dir,
            expect_name=name,
            replace=True,
            cancel=cancel,
            packs_dir=packs_dir,
            progress=lambda done, total: _report(progress, "installing", done, total, name),
        )
    return PackInfo.of(pack, bundled=False)


def import_folder_or_pack(
    src: Path, *, progress: TransferCallback | None = None, cancel: CancelToken | None = None
) -> PackInfo:
    """What `fanyi models import` and the app's Import take: a pack folder or .zip, installed as it is, or a Hugging
    Face model folder, converted (pack_from_folder); NotAModel for a folder that is neither."""
    src = Path(src)
    if is_model_folder(src):
        return pack_from_folder(src, progress=progress, cancel=cancel)
    if src.is_dir() and not (src / MANIFEST).is_file():
        raise NotAModel(src)
    return PackInfo.of(
        unpack.install(
            src, progress=lambda done, total: _report(progress, "installing", done, total, src.name), cancel=cancel
        ),
        bundled=False,
    )
