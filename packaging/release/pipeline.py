"""`packs.py build`: every pack of packs.json → exported, validated, scored, gated, zipped; then the catalog.

Per pack: the Hugging Face files at the pinned commit (or a local folder) → fp32 and int8 packs, each
validated against PyTorch → BLEU/chrF of PyTorch, fp32 and int8 on the direction's test set → the
gate (int8 may lose at most so much against PyTorch) → the reference translation in the int8 pack's
manifest → a deterministic .zip → a catalog entry. A failing pack fails the release, unless it is
optional: then it is left out with a warning. catalog.json and quality.md are written only when
every required pack passed.
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from fanyi.engine.pack import ModelPack, PackError
from fanyi.export.errors import ExportError, FetchError
from fanyi.export.validate import INT8_MIN_TOP1
from fanyi.fsutil import atomic_write_text
from fanyi.packs import catalog
from fanyi.packs.catalog import Catalog, CatalogEntry, Quality

from . import archive, reference, report, scoring
from .spec import PackSpec
from .testsets import TestSet, TestSetError, flores

Say = Callable[[str], None]
QUALITY_FILE = "quality.md"


class PackFailed(Exception):
    """A pack that must not be published; the message names it and says why."""


@dataclass(frozen=True)
class BuildOptions:
    out: Path
    base_urls: tuple[str, ...]
    hf_dirs: dict[str, Path] = field(default_factory=dict)  # pack id → local Hugging Face folder
    test_sets: dict[tuple[str, str], TestSet] = field(default_factory=dict)  # (source, target) → set
    flores_dir: Path | None = None
    limit: int | None = None  # score on the first N sentences only
    max_loss: dict[str, float] = field(default_factory=lambda: {"BLEU": 1.0, "chrF": 1.0})
    min_int8_top1: float = INT8_MIN_TOP1  # validation's bound on teacher-forced top-1 agreement
    allow_reference_disagreement: bool = False

    def test_set(self, source_lang: str, target_lang: str) -> TestSet:
        found = self.test_sets.get((source_lang, target_lang))
        if found is None and self.flores_dir is not None:
            found = flores(self.flores_dir, source_lang, target_lang, self.limit)
        if found is None:
            raise PackFailed(f"no test set for {source_lang}→{target_lang}: "
                             f"give --test-set {source_lang}-{target_lang} NAME SRC REF or --flores DIR")
        return found


def _hf_folder(spec: PackSpec, opts: BuildOptions, work: Path, say: Say) -> Path:
    if spec.id in opts.hf_dirs:
        say(f"using the local folder {opts.hf_dirs[spec.id]} as {spec.model_id}@{spec.commit[:12]}")
        return opts.hf_dirs[spec.id]
    from fanyi.export.fetch import download

    folder = work / spec.model_id.rsplit("/", 1)[-1]  # the exporter may read the languages from the name
    folder.mkdir(parents=True)
    commit = download(spec.model_id, spec.commit, folder, say, None)
    if commit != spec.commit:
        raise PackFailed(f"the hub served {spec.model_id} at {commit}, not the pinned {spec.commit}")
    return folder


def _export(spec: PackSpec, hf_dir: Path, work: Path, quantize: str, opts: BuildOptions, say: Say):
    from fanyi.export.fetch import export_validated

    pack_dir, validation = export_validated(hf_dir, work / quantize, spec.id, spec.model_id, spec.commit,
                                            quantize, say, opts.min_int8_top1)
    if not validation.passed:
        raise PackFailed(f"the {quantize} pack does not agree with PyTorch:\n{validation.text()}")
    return pack_dir, validation


def build_pack(spec: PackSpec, opts: BuildOptions, work: Path, say: Say) -> CatalogEntry:
    hf_dir = _hf_folder(spec, opts, work, say)
    fp32_dir, _ = _export(spec, hf_dir, work, "none", opts, say)
    int8_dir, validation = _export(spec, hf_dir, work, "int8", opts, say)
    pack = ModelPack.open(int8_dir)
    languages = (pack.source_lang, pack.target_lang)
    if languages != (spec.source_lang, spec.target_lang):
        raise PackFailed(f"the exported pack translates {'→'.join(languages)}, "
                         f"packs.json says {spec.source_lang}→{spec.target_lang}")

    test_set = opts.test_set(*languages)
    sources, token = list(test_set.sources), pack.target_tokens.get(pack.default_target or "")
    say(f"translating {test_set.label} with PyTorch, the fp32 pack and the int8 pack")
    outputs = {"pytorch": scoring.pytorch_translations(hf_dir, sources, token, say=say),
               "fp32": scoring.pack_translations(fp32_dir, sources, say),
               "int8": scoring.pack_translations(int8_dir, sources, say)}
    bleu, chrf = scoring.metrics(outputs, list(test_set.references), pack.target_lang)
    say(f"{test_set.label}: {bleu.text()}; {chrf.text()}")
    if failures := scoring.gate_failures((bleu, chrf), opts.max_loss):
        raise PackFailed(f"int8 loses too much against PyTorch on {test_set.label}: " + "; ".join(failures))

    say("choosing the reference translation")
    ref = reference.choose(hf_dir, int8_dir, opts.allow_reference_disagreement)
    reference.record(int8_dir, spec.version, ref)
    say(f"reference: {ref.sentence!r} → {ref.output!r}")
    built = archive.write_zip(int8_dir, opts.out / f"{spec.id}-int8-v{spec.version}.zip")
    say(f"{built.file}: {built.size} bytes, sha256 {built.sha256}")
    return CatalogEntry(
        id=spec.id, version=spec.version, display_name=spec.display_name, model_id=spec.model_id,
        revision=spec.commit, architecture=pack.architecture["type"], source_langs=(pack.source_lang,),
        target_langs=(pack.target_lang,), target_tokens=tuple(pack.target_tokens), quantization=pack.quantization,
        format_version=pack.manifest["format_version"], archive=built,
        urls=tuple(f"{base.rstrip('/')}/{built.file}" for base in opts.base_urls), license=spec.license,
        quality=Quality(test_set=test_set.label, bleu=_rounded(bleu.scores), chrf=_rounded(chrf.scores),
                        int8_top1_agreement=round(validation.top1_agreement, 4)),
        default=spec.default)


def _rounded(scores: catalog.Scores) -> catalog.Scores:
    return catalog.Scores(*(round(v, 2) for v in (scores.pytorch, scores.fp32, scores.int8)))


# errors that say what is wrong with a pack in one line; anything else is a bug and keeps its traceback
PACK_ERRORS = (PackFailed, ExportError, FetchError, PackError, TestSetError, reference.ReferenceMismatch)


def default_serial(now: datetime) -> int:
    return int(now.strftime("%Y%m%d%H%M"))


def build_release(specs: list[PackSpec], opts: BuildOptions, *, serial: int | None, catalog_urls: tuple[str, ...],
                  say: Callable[[str, str], None]) -> Catalog:
    """Build every pack and write catalog.json and quality.md into opts.out; PackFailed when a required pack fails."""
    opts.out.mkdir(parents=True, exist_ok=True)
    for stale in (catalog.CATALOG_FILE, QUALITY_FILE):  # a failed run must not leave an older catalog looking new
        (opts.out / stale).unlink(missing_ok=True)
    entries, skipped = [], []
    for spec in specs:
        with tempfile.TemporaryDirectory(prefix=f".work-{spec.id}-", dir=opts.out) as work:
            try:
                entries.append(build_pack(spec, opts, Path(work), lambda msg, i=spec.id: say(i, msg)))
            except Exception as exc:
                known = isinstance(exc, PACK_ERRORS)
                if not spec.optional:
                    if known:
                        raise PackFailed(f"{spec.id}: {exc}") from None
                    raise
                why = str(exc) if known else f"{type(exc).__name__}: {exc}"
                say(spec.id, f"WARNING: optional pack skipped: {why}")
                skipped.append((spec.id, why.splitlines()[0]))
    now = datetime.now(timezone.utc)
    built = Catalog(serial=serial if serial is not None else default_serial(now),
                    generated=now.strftime("%Y-%m-%dT%H:%M:%SZ"), packs=tuple(entries), catalog_urls=catalog_urls)
    text = catalog.to_json(built)
    checked = catalog.parse(text.encode("utf-8"), "the new catalog")  # the app's own reader must accept it
    atomic_write_text(opts.out / QUALITY_FILE, report.quality_markdown(checked, skipped))
    atomic_write_text(opts.out / catalog.CATALOG_FILE, text)
    return checked
