"""`publish.py build`: every pack of recipes.json → exported, validated, scored, gated, zipped; then the catalog.

Per pack: the Hugging Face files at the pinned revision (downloaded as the app downloads them,
fanyi.library.sources, or a local folder) → the published pack (int8 for OPUS-MT, int4 for translation LLMs)
and, unless recipes.json says no, an fp32 pack, each validated against PyTorch → BLEU/chrF of PyTorch, fp32
and the published pack in each direction scored, on the same test sentences → the gate (the published
pack may lose at most so much against PyTorch) → the reference translation in its manifest, the model's
licence and notice beside it → a deterministic .zip → a catalog entry: the recipe of recipes.json with what
the release measured — the commit the revision resolved to, every file's size and sha256, the conversion
options validation chose and the sha256 of the converted files (which a pack converted on a user's
computer must have), the archive. A failing pack fails the release, unless it is optional: then it is
left out with a warning. catalog.json and quality.md are written only when every required pack passed.
"""

from __future__ import annotations

import dataclasses
import json
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from pathlib import Path

from fanyi import __version__
from fanyi.engine.options import DecodeOptions
from fanyi.engine.pack import MANIFEST, ModelPack, PackError, file_digest
from fanyi.export.errors import ExportError
from fanyi.export.hf_weights import detect_loader
from fanyi.export.validate import INT8_MIN_TOP1, ValidationReport
from fanyi.fsutil import atomic_write_text
from fanyi.library import catalog, memory
from fanyi.library.catalog import (
    Catalog,
    CatalogEntry,
    Conversion,
    Converted,
    DictionaryEntry,
    Pin,
    Quality,
    Repository,
)
from fanyi.library.errors import LibraryError

from . import archive, notices, reference, report, scoring, summary_gate, traditional
from .spec import PackSpec, recipe
from .testsets import HANT, TestSet, TestSetError, flores

Say = Callable[[str], None]
QUALITY_FILE = "quality.md"
# a sanity bound for int4 packs, whose quality the BLEU/chrF gate judges: a broken export agrees on few steps
INT4_MIN_TOP1 = 0.8


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
    llm_limit: int | None = None  # translation LLMs: on the first N (PyTorch on a CPU is slow)
    # by the published pack's quantization: most it may lose against PyTorch, per metric
    max_loss: dict[str, dict[str, float]] = field(
        default_factory=lambda: {"int8": {"BLEU": 1.0, "chrF": 1.0}, "int4": {"BLEU": 1.5, "chrF": 1.5}}
    )
    # by quantization: validation's bound on teacher-forced top-1 agreement
    min_top1: dict[str, float] = field(default_factory=lambda: {"int8": INT8_MIN_TOP1, "int4": INT4_MIN_TOP1})
    allow_reference_disagreement: bool = False
    # summarization packs (BART): the held articles (default: the corpus's, fitted to the model) and, by the
    # published pack's quantization, the least mean ROUGE-L F1 of its summaries against PyTorch's
    summary_texts: tuple[str, ...] = ()
    summary_min_rouge_l: dict[str, float] = field(default_factory=lambda: {"int8": 0.8})

    def _find(self, source_lang: str, target_lang: str, decoder_only: bool) -> TestSet | None:
        found = self.test_sets.get((source_lang, target_lang))
        if found is None and self.flores_dir is not None:
            found = flores(self.flores_dir, source_lang, target_lang, self.limit)
        return found.first(self.llm_limit) if found is not None and decoder_only else found

    def test_set(self, source_lang: str, target_lang: str, decoder_only: bool) -> TestSet:
        found = self._find(source_lang, target_lang, decoder_only)
        if found is None:
            raise PackFailed(
                f"no test set for {source_lang}→{target_lang}: "
                f"give --test-set {source_lang}-{target_lang} NAME SRC REF or --flores DIR"
            )
        return found

    def traditional_set(self, decoder_only: bool) -> TestSet | None:
        """English → Traditional Chinese (--test-set en-zh-Hant, or FLORES-200's zho_Hant), if given."""
        return self._find("en", HANT, decoder_only)


@dataclass(frozen=True)
class BuiltPack:
    entry: CatalogEntry
    scored: list[scoring.Scored]
    # 繁體 two ways (the pack's own Traditional, its Simplified through OpenCC) where it writes Chinese
    traditional: report.TraditionalRows | None = None
    summary: summary_gate.SummaryScore | None = None  # a summarization pack's gate instead of BLEU/chrF


@dataclass(frozen=True)
class Model:
    """The model's files as the release converts them: the folder, the commit, every file's size and sha256."""

    folder: Path
    commit: str
    files: dict[str, Pin]


def _pins(folder: Path, names: list[str]) -> dict[str, Pin]:
    digests = {name: file_digest(folder / name) for name in names}
    return {name: Pin(d["size"], d["sha256"]) for name, d in digests.items()}


def _model(spec: PackSpec, opts: BuildOptions, work: Path, say: Say) -> Model:
    revision = spec.huggingface.revision
    if spec.id in opts.hf_dirs:
        folder = opts.hf_dirs[spec.id]
        say(f"using the local folder {folder} as {spec.model_id}@{revision[:12]}")
        names = sorted(p.name for p in folder.iterdir() if p.is_file())
        return Model(folder, revision, _pins(folder, names))
    from fanyi.library.sources.fetch import fetch_repository
    from fanyi.library.sources.hub import HubSource, hub_endpoint, implicit_token
    from fanyi.library.sources.order import Origin

    folder = work / spec.model_id.rsplit("/", 1)[-1]  # the exporter may read the languages from the name
    say(f"downloading {spec.model_id}@{revision} from {hub_endpoint()}")
    # through the app's own download path, into the pack's work folder: an LLM's 4 GB leave with it
    hub = HubSource(hub_endpoint(), "hf", token=implicit_token())
    fetched = fetch_repository([Origin(hub, spec.model_id, revision)], folder)
    commit = fetched.revision
    if spec.huggingface.pinned and commit != revision:
        raise PackFailed(f"the hub served {spec.model_id} at {commit}, not the pinned {revision}")
    if not spec.huggingface.pinned:
        say(f"{revision} is commit {commit}: the catalog pins that")
    return Model(folder, commit, _pins(folder, list(fetched.files)))


def _export(
    spec: PackSpec, model: Model, work: Path, quantize: str, opts: BuildOptions, say: Say
) -> tuple[Path, ValidationReport]:
    from fanyi.export.validated import export_validated

    pack_dir, validation = export_validated(
        model.folder,
        work / quantize,
        spec.id,
        spec.model_id,
        model.commit,
        quantize,
        say,
        opts.min_top1.get(quantize, INT8_MIN_TOP1),
    )
    if not validation.passed:
        raise PackFailed(f"the {quantize} pack does not agree with PyTorch:\n{validation.text()}")
    return pack_dir, validation


def _check_languages(spec: PackSpec, pack: ModelPack) -> None:
    if spec.languages:
        found = set(pack.source_languages) | set(pack.target_languages)
        if found != set(spec.languages) or set(pack.source_languages) != set(pack.target_languages):
            raise PackFailed(
                f"the exported pack translates from {', '.join(pack.source_languages)} into "
                f"{', '.join(pack.target_languages)}; recipes.json says {', '.join(spec.languages)}"
            )
    elif (pack.source_lang, pack.target_lang) != (spec.source_lang, spec.target_lang):
        raise PackFailed(
            f"the exported pack translates {pack.source_lang}→{pack.target_lang}, "
            f"recipes.json says {spec.source_lang}→{spec.target_lang}"
        )


def _translate(
    hf_dir: Path, packs: dict[str, Path], test_set: TestSet, source: str, target: str, decoder_only: bool, say: Say
) -> dict[str, list[str]]:
    """Every system's translations of a test set: PyTorch's and each pack's."""
    sources = list(test_set.sources)
    published = list(packs.values())[-1]
    # an LLM is asked for the direction; a one-way pack translates its own
    options = DecodeOptions(source=source, target=target) if decoder_only else None
    say(f"translating {test_set.label} ({source}→{target}) with PyTorch and the {', '.join(packs)} pack(s)")
    outputs = {"pytorch": scoring.reference_translations(hf_dir, published, sources, options, say=say)}
    outputs.update({system: scoring.pack_translations(path, sources, options, say) for system, path in packs.items()})
    return outputs


def _converted(pack_dir: Path) -> tuple[Conversion, Converted, int]:
    """The conversion validation chose, the converted files' sha256 and their bytes, as exported (before the
    reference, the pack version and the licence files go in: a pack converted on a user's computer has none)."""
    manifest = json.loads((pack_dir / MANIFEST).read_text(encoding="utf-8"))
    q = manifest["quantization"]
    head = "fp32" if q["mode"] == "int8" and not q.get("output_projection", True) else "int8"
    conversion = Conversion(q["mode"], q.get("embeddings") or "int8", q.get("block_size") or 32, head)
    files = manifest["files"]
    return (
        conversion,
        Converted(__version__, {n: f["sha256"] for n, f in files.items()}),
        sum(f["size"] for f in files.values()),
    )


def build_pack(spec: PackSpec, opts: BuildOptions, work: Path, say: Say) -> BuiltPack:
    model = _model(spec, opts, work, say)
    hf_dir = model.folder
    loader, _folder = detect_loader(hf_dir)
    quantize = "int4" if loader.decoder_only else "int8"
    packs: dict[str, Path] = {}  # system → pack folder; the published one last
    if spec.fp32_pack:
        packs["fp32"], _ = _export(spec, model, work, "none", opts, say)
    packs[quantize], validation = _export(spec, model, work, quantize, opts, say)
    pack_dir = packs[quantize]
    pack = ModelPack.open(pack_dir)
    _check_languages(spec, pack)
    conversion, converted, pack_size = _converted(pack_dir)

    summary = None
    if not pack.translates:  # a summarizer: ROUGE-L against PyTorch's summaries, no BLEU, no reference
        summary = summary_gate.score(spec.id, hf_dir, packs, quantize, validation.mean_kl, opts.summary_texts, say)
        say(summary.text())
        if problem := summary_gate.failure(summary, opts.summary_min_rouge_l[quantize]):
            raise PackFailed(f"{quantize} summaries lose too much against PyTorch: {problem}")
    scored = []
    for source, target in spec.directions if summary is None else ():
        test_set = opts.test_set(source, target, loader.decoder_only)
        outputs = _translate(hf_dir, packs, test_set, source, target, loader.decoder_only, say)
        bleu, chrf = scoring.metrics(outputs, list(test_set.references), target, quantize)
        say(f"{test_set.label} ({source}→{target}): {bleu.text()}; {chrf.text()}")
        if failures := scoring.gate_failures((bleu, chrf), opts.max_loss[quantize]):
            raise PackFailed(
                f"{quantize} loses too much against PyTorch on {test_set.label} ({source}→{target}): "
                + "; ".join(failures)
            )
        scored.append(
            scoring.Scored(spec.id, quantize, source, target, test_set, outputs, validation.top1_agreement, bleu, chrf)
        )
    hant = None
    if ("en", "zh") in spec.directions and (hant_set := opts.traditional_set(loader.decoder_only)) is not None:
        hant = report.TraditionalRows(spec.id, hant_set.label, traditional.compare_pack(pack_dir, hant_set, say))
    if "fp32" in packs:
        shutil.rmtree(packs.pop("fp32"))  # several gigabytes for an LLM: gone before the archive is written

    if summary is None:
        say("choosing the reference translation")
        ref = reference.choose(hf_dir, pack_dir, opts.allow_reference_disagreement)
        reference.record(pack_dir, spec.version, ref)
        say(f"reference: {ref.sentence!r} → {ref.output!r}")
    else:
        reference.record(pack_dir, spec.version, None)  # the self-test repeats translations only
    added = notices.add_licence_files(pack_dir, hf_dir, spec.license, spec.model_id, model.commit)
    if added:
        say(f"licence files in the pack: {', '.join(added)}")
    built = archive.write_zip(pack_dir, opts.out / f"{spec.id}-{quantize}-v{spec.version}.zip")
    say(f"{built.file}: {built.size} bytes, sha256 {built.sha256}")
    one_way = not spec.languages
    entry = dataclasses.replace(
        recipe(spec),
        huggingface=Repository(spec.model_id, model.commit, gated=spec.huggingface.gated),
        files=model.files,
        convert=conversion,
        converted=converted,
        download_size=sum(pin.size for pin in model.files.values()),
        pack_size=pack_size,
        architecture=pack.architecture["type"],
        source_langs=(pack.source_lang,) if one_way else tuple(pack.source_languages),
        target_langs=(pack.target_lang,) if one_way else tuple(pack.target_languages),
        target_tokens=tuple(pack.target_tokens),
        archive=built,
        urls=tuple(f"{base.rstrip('/')}/{built.file}" for base in opts.base_urls),
        format_version=pack.manifest["format_version"],
        qualities=tuple(_quality(s) for s in scored),
        kv_cache_bytes=memory.kv_cache_bytes(pack.manifest),
    )
    return BuiltPack(entry, scored, hant, summary)


def _quality(scored: scoring.Scored) -> Quality:
    return Quality(
        test_set=scored.test_set.label,
        bleu=_rounded(scored.bleu.scores),
        chrf=_rounded(scored.chrf.scores),
        top1_agreement=round(scored.top1_agreement, 4),
        source=scored.source,
        target=scored.target,
    )


def _rounded(scores: catalog.Scores) -> catalog.Scores:
    return catalog.Scores(**{k: None if v is None else round(v, 2) for k, v in vars(scores).items()})


# errors that say what is wrong with a pack in one line; anything else is a bug and keeps its traceback
PACK_ERRORS = (PackFailed, ExportError, LibraryError, PackError, TestSetError, reference.ReferenceMismatch)


def default_serial(now: datetime) -> int:
    return int(now.strftime("%Y%m%d%H%M"))


def build_release(
    specs: list[PackSpec],
    opts: BuildOptions,
    *,
    serial: int | None,
    catalog_urls: tuple[str, ...],
    say: Callable[[str, str], None],
    dictionaries: tuple[DictionaryEntry, ...] = (),
) -> Catalog:
    """Build every pack and write catalog.json and quality.md into opts.out; PackFailed when a required pack fails.
    `dictionaries` (recipes.json's) go into the catalog as they are: the app downloads and checks them itself."""
    opts.out.mkdir(parents=True, exist_ok=True)
    for stale in (catalog.CATALOG_FILE, QUALITY_FILE):  # a failed run must not leave an older catalog looking new
        (opts.out / stale).unlink(missing_ok=True)
    built_packs: list[BuiltPack] = []
    skipped: list[tuple[str, str]] = []
    for spec in specs:
        with tempfile.TemporaryDirectory(prefix=f".work-{spec.id}-", dir=opts.out) as work:
            try:
                built_packs.append(build_pack(spec, opts, Path(work), lambda msg, i=spec.id: say(i, msg)))
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
    built = Catalog(
        serial=serial if serial is not None else default_serial(now),
        generated=now.strftime("%Y-%m-%dT%H:%M:%SZ"),
        packs=tuple(b.entry for b in built_packs),
        catalog_urls=catalog_urls,
        dictionaries=dictionaries,
    )
    text = catalog.to_json(built)
    checked = catalog.parse(text.encode("utf-8"), "the new catalog")  # the app's own reader must accept it
    scored = [s for b in built_packs for s in b.scored]
    hant = [b.traditional for b in built_packs if b.traditional is not None]
    summaries = [b.summary for b in built_packs if b.summary is not None]
    atomic_write_text(opts.out / QUALITY_FILE, report.quality_markdown(checked, scored, skipped, hant, summaries))
    atomic_write_text(opts.out / catalog.CATALOG_FILE, text)
    return checked
