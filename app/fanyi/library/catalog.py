"""The pack catalog: a recipe for every pack Fanyi offers, and how to check what it makes.

A catalog is a JSON document (``"schema": 2``). Each entry is a *recipe*: where the model is published
(its Hugging Face repository and revision, its ModelScope copy), the files the conversion reads with their
sizes and sha256 where known, the conversion's options, the licence, and — once the release pipeline has
converted and validated it — the sha256 of the converted files, so that a pack made on a user's computer
is checked against the one that was scored. A prebuilt archive of the pack is optional: used when it
answers, else the pack is made from the model's own files (library.from_source). No file hosted by this
project is needed.

packaging/publish.py writes the catalog from packaging/release/recipes.json: ``publish.py recipes`` the one the app
ships (``assets/catalog.json``, committed), ``publish.py build`` the one a release publishes with the
revisions resolved to commits, the files' hashes and the converted files' hashes filled in. The app reads
the newest of two copies: the one shipped inside it and the one saved the last time the user refreshed
the list (``catalog.json`` in the user data folder).

Trust: a file's sha256 comes from the recipe where it pins one (the same bytes from any source), else from
the source itself (the Hub's LFS sha256 at a pinned commit, ModelScope's Sha256); an archive's sha256 and
size come from the catalog, never from the server that hands it out.

A catalog also lists dictionaries (``"dictionaries"``, optional): ECDICT's data, each entry naming the file
ECDICT publishes on GitHub (a file of its repository at a commit, or an asset of a release), its git blob id
or sha256 where known, and its licence; fanyi.library.dictionaries downloads and converts it.

No Qt and no network here: parsing, validation, choosing the newest copy, saving.
"""

from __future__ import annotations

import json
import logging
import os
import re
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Protocol, TypeVar

from .. import limits, paths
from ..engine import FAMILIES
from ..fsutil import atomic_write_text
from ..names import problem as name_problem

log = logging.getLogger(__name__)

SCHEMA = 2
CATALOG_FILE = "catalog.json"
CATALOG_FILE_ENV = "FANYI_CATALOG_FILE"
QUANTIZATIONS = ("none", "int8", "int4")
EMBEDDINGS = ("int8", "int4", "fp32")
OUTPUT_PROJECTIONS = ("int8", "fp32")
BLOCK_SIZES = (16, 32, 64, 128, 256)
_ID = re.compile(r"^[a-z0-9][a-z0-9._-]{0,63}$")
_SHA256 = re.compile(r"^[0-9a-f]{64}$")
COMMIT = re.compile(r"^[0-9a-f]{40}$")
# "owner/name" on the Hub and on ModelScope
_REPO = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,95}/[A-Za-z0-9][A-Za-z0-9._-]{0,95}$")
# a commit, a branch or tag, or a pull request's ref ("refs/pr/26"): no "..", nothing a URL reinterprets
_REVISION = re.compile(r"^(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9._/-]{0,127}$")
# a repository's top-level file the conversion reads
_REPO_FILE = re.compile(r"^[A-Za-z0-9_][A-Za-z0-9._-]{0,127}$")
# a model's own language codes: en, ast, cmn_Hans (OPUS-MT), en_XX (mBART-50), eng_Latn (NLLB), mul,
# zh-Hant (the LLMs' prompts)
_LANG = re.compile(r"^[a-z]{2,3}([_-][A-Z][a-z]{3}|_[A-Z]{2})?$")
# ISO 3166-1 alpha-2 country codes, and EU for the European Union, as licences name territories
_TERRITORY = re.compile(r"^[A-Z]{2}$")
# archive file names go into mirror URLs and the download folder: a plain name, no path
_FILE = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._-]{0,127}\.zip$")


def is_repository_id(text: str) -> bool:
    """Whether `text` is a repository id as the Hub and ModelScope spell one (owner/name)."""
    return bool(_REPO.match(text))


class CatalogError(Exception):
    """A catalog that cannot be used; the message says which copy and what is wrong."""


@dataclass(frozen=True)
class Scores:
    """One metric for the PyTorch model and for the pack in fp32, int8 and int4; None where not measured."""

    pytorch: float | None = None
    fp32: float | None = None
    int8: float | None = None
    int4: float | None = None

    def of(self, quantization: str) -> float | None:
        """The score of the pack in this quantization ("none" is fp32)."""
        return self.fp32 if quantization == "none" else getattr(self, quantization, None)


@dataclass(frozen=True)
class Quality:
    test_set: str  # e.g. "FLORES-200 devtest, 1012 sentences"
    bleu: Scores = field(default_factory=Scores)
    chrf: Scores = field(default_factory=Scores)
    top1_agreement: float | None = None  # of the published pack, teacher-forced, against PyTorch fp32
    source: str | None = None  # the direction scored, in the pack's codes; None: the pack's only one
    target: str | None = None


@dataclass(frozen=True)
class License:
    name: str  # SPDX-like: "Apache-2.0", "CC-BY-4.0", "CC-BY-NC-4.0", "Tencent-HY-Community"
    url: str
    commercial_use: bool
    # where the licence grants nothing: ISO 3166-1 codes, "EU" for the European Union
    excluded_territories: tuple[str, ...] = ()
    max_monthly_active_users: int | None = None  # above this a separate licence is needed
    # what a user must know before downloading, one sentence each, by UI language ("en" always)
    restrictions: dict[str, tuple[str, ...]] = field(default_factory=dict)
    notice: str | None = None  # the notice the licence requires with every copy
    ask_before_download: bool = False  # show the terms and ask; always so without commercial use

    @property
    def must_ask(self) -> bool:
        return self.ask_before_download or not self.commercial_use or bool(self.excluded_territories)

    def summary(self, ui_language: str = "en") -> tuple[str, ...]:
        return self.restrictions.get(ui_language) or self.restrictions.get("en", ())


@dataclass(frozen=True)
class Archive:
    file: str  # the .zip's file name, also its name on every mirror
    size: int  # bytes of the .zip
    sha256: str  # of the .zip
    unpacked_size: int  # bytes of the installed pack: what the disk must hold besides the .zip


@dataclass(frozen=True)
class Repository:
    """Where a model is published at one download source: its id there and the revision to take."""

    repo: str  # "owner/name"
    revision: str  # a commit (the Hub), else a branch, tag or ref, which the release pipeline pins where it can
    gated: bool = False  # the source asks for a token and an accepted licence (HTTP 401 without them)

    @property
    def pinned(self) -> bool:
        return bool(COMMIT.match(self.revision))


@dataclass(frozen=True)
class Pin:
    """A file of the model's repository as the recipe knows it: its size, and its sha256 where known."""

    size: int
    sha256: str | None = None


@dataclass(frozen=True)
class Conversion:
    """fanyi.export.convert.export_pack's options for this pack."""

    quantize: str  # "int8" (MarianMT), "int4" (LLMs), "none"
    embeddings: str = "int8"  # the embedding/output matrix: "int8", "int4" (LLMs) or "fp32"
    block_size: int = 32  # inputs per int4 block (LLMs)
    output_projection: str = "int8"  # an int8 pack's output projection: "int8" or "fp32" (as validation chose)


@dataclass(frozen=True)
class Converted:
    """The converted files of the pack the release pipeline validated and scored: a pack made on a user's
    computer by the same converter must have exactly these (fanyi.export makes the same bytes everywhere)."""

    fanyi: str  # the Fanyi version whose converter made them
    files: dict[str, str]  # pack file name -> sha256 (the manifest, which records where it was made, aside)


@dataclass(frozen=True)
class CatalogEntry:
    id: str  # the installed pack's name (its manifest's "name")
    version: int  # a higher version of the same id is an update
    display_name: dict[str, str]  # by UI language: "en" always, "zh_CN" usually
    architecture: str
    source_langs: tuple[str, ...]
    target_langs: tuple[str, ...]
    license: License
    convert: Conversion
    download_size: int  # bytes of the files the conversion reads (an estimate until the release fills `files`)
    pack_size: int  # bytes of the converted pack (an estimate until the release pipeline measured it)
    huggingface: Repository | None = None
    modelscope: Repository | None = None
    files: dict[str, Pin] = field(default_factory=dict)  # the repository's files the conversion reads, where known
    converted: Converted | None = None
    target_tokens: tuple[str, ...] = ()  # e.g. ("cmn_Hans", "cmn_Hant", "yue"); empty for one target
    qualities: tuple[Quality, ...] = ()  # one per direction scored
    default: bool = False  # the pack offered first (the no-model page's button)
    # keys and values of a full context, for the memory estimate (fanyi.library.memory); None when not known
    kv_cache_bytes: int | None = None
    # a prebuilt archive of the pack, tried first when present; format_version is the pack format it holds
    archive: Archive | None = None
    urls: tuple[str, ...] = ()  # the archive's, in the order to try them
    format_version: int | None = None
    comment: str = ""  # for people: where the facts of this entry come from

    def title(self, ui_language: str = "en") -> str:
        return self.display_name.get(ui_language) or self.display_name["en"]

    @property
    def model_id(self) -> str:
        """The model's repository, as its authors name it (the Hub's id where it is there)."""
        repository = self.huggingface or self.modelscope
        assert repository is not None  # parse() refuses an entry without one
        return repository.repo

    @property
    def revision(self) -> str:
        repository = self.huggingface or self.modelscope
        assert repository is not None
        return repository.revision

    @property
    def quantization(self) -> str:
        return self.convert.quantize

    @property
    def gated(self) -> bool:
        """The Hub asks for a token and an accepted licence before it gives the files."""
        return self.huggingface is not None and self.huggingface.gated

    @property
    def quality(self) -> Quality | None:
        """The first direction's scores (a one-way pack has only one)."""
        return self.qualities[0] if self.qualities else None

    @property
    def family_title(self) -> str:
        """The model family for people: "MarianMT", "HY-MT (HunYuan)", "Qwen3"."""
        return FAMILIES[self.architecture].title

    @property
    def translates(self) -> bool:
        """False: a summarizer (BART), whose languages are what it summarizes, not a direction."""
        return FAMILIES[self.architecture].translates


DICTIONARY_FORMATS = ("ecdict",)  # what fanyi.dictionary converts: ECDICT's CSV, its stardict.db, a .zip of one


@dataclass(frozen=True)
class GitHubFile:
    """A file ECDICT publishes on GitHub: of the repository at a commit (``revision``), or a release's asset
    (``release``: the tag). ``git_blob``: the repository file's git object id at that commit, where known."""

    repo: str  # "owner/name"
    file: str  # the path in the repository, or the asset's name
    revision: str = ""  # a repository file: the commit (or branch) to take it from
    release: str = ""  # a release asset: the release's tag
    git_blob: str | None = None

    @property
    def name(self) -> str:
        return self.file.rsplit("/", 1)[-1]


@dataclass(frozen=True)
class DictionaryEntry:
    """A dictionary to install: where its data is published and how it is checked (fanyi.library.dictionaries)."""

    id: str
    version: int
    display_name: dict[str, str]
    github: GitHubFile
    license: License
    download_size: int  # bytes of the file downloaded: `size` where pinned, else an estimate
    dictionary_size: int  # bytes of the converted dictionary on disk (an estimate until measured)
    entries: int  # entries ECDICT says the data has (for people, and a floor the conversion must reach)
    format: str = "ecdict"
    size: int | None = None  # the exact size of the file, where pinned
    sha256: str | None = None  # of the file, where pinned
    default: bool = False  # the dictionary offered first
    comment: str = ""

    def title(self, ui_language: str = "en") -> str:
        return self.display_name.get(ui_language) or self.display_name["en"]


@dataclass(frozen=True)
class Catalog:
    serial: int  # grows with every published catalog: the higher of two copies wins
    generated: str  # ISO 8601 time of publication, for people
    packs: tuple[CatalogEntry, ...]
    catalog_urls: tuple[str, ...] = ()  # where newer versions of this catalog are published
    origin: str = ""  # where this copy was read from, for messages (not serialised)
    # packs this Fanyi cannot run (a family or quantization of a newer one): "id: why" (not serialised)
    skipped: tuple[str, ...] = ()
    dictionaries: tuple[DictionaryEntry, ...] = ()

    def find(self, pack_id: str) -> CatalogEntry | None:
        return next((p for p in self.packs if p.id == pack_id), None)

    def find_dictionary(self, dictionary_id: str) -> DictionaryEntry | None:
        return next((d for d in self.dictionaries if d.id == dictionary_id), None)

    def default_entry(self) -> CatalogEntry | None:
        return next((p for p in self.packs if p.default), self.packs[0] if self.packs else None)


# --- reading ---------------------------------------------------------------------------------------
def _check(condition: bool, where: str, what: str) -> None:
    if not condition:
        raise CatalogError(f"{where}: {what}")


def _get(obj: dict[str, Any], key: str, kind: type | tuple[type, ...], where: str, optional: bool = False) -> Any:
    if key not in obj or obj[key] is None:
        _check(optional, where, f"{key!r} is missing")
        return None
    value = obj[key]
    # bool is an int in Python; a JSON true where a number belongs is still wrong
    ok = isinstance(value, kind) and not (isinstance(value, bool) and bool not in _as_tuple(kind))
    _check(ok, where, f"{key!r} has the wrong type ({type(value).__name__})")
    return value


def _as_tuple(kind: type | tuple[type, ...]) -> tuple[type, ...]:
    return kind if isinstance(kind, tuple) else (kind,)


def _strings(
    obj: dict[str, Any], key: str, where: str, pattern: re.Pattern[str] | None = None, optional: bool = False
) -> tuple[str, ...]:
    values = _get(obj, key, list, where, optional) or []
    _check(all(isinstance(v, str) for v in values), where, f"{key!r} must be a list of strings")
    if pattern is not None:
        bad = [v for v in values if not pattern.match(v)]
        _check(not bad, where, f"{key!r} holds invalid values {bad[:3]}")
    return tuple(values)


def _url_ok(url: str) -> bool:
    return url.startswith(("https://", "http://")) and len(url) <= 2048 and not any(c.isspace() for c in url)


def _scores(obj: dict[str, Any] | None, where: str) -> Scores:
    if obj is None:
        return Scores()
    _check(isinstance(obj, dict), where, "scores must be an object")
    values = {k: _get(obj, k, (int, float), where, optional=True) for k in ("pytorch", "fp32", "int8", "int4")}
    return Scores(**{k: None if v is None else float(v) for k, v in values.items()})


def _quality(q: object, where: str) -> Quality:
    _check(isinstance(q, dict), where, "quality must be an object or a list of them")
    assert isinstance(q, dict)
    # catalogs before int4 packs named it after the only quantization they published
    agreement = _get(q, "top1_agreement", (int, float), where, optional=True)
    if agreement is None:
        agreement = _get(q, "int8_top1_agreement", (int, float), where, optional=True)
    source, target = (_get(q, key, str, where, optional=True) for key in ("source", "target"))
    _check(
        all(lang is None or _LANG.match(lang) for lang in (source, target)),
        where,
        "quality source and target must be language codes",
    )
    return Quality(
        test_set=_get(q, "test_set", str, where),
        bleu=_scores(q.get("bleu"), where),
        chrf=_scores(q.get("chrf"), where),
        top1_agreement=None if agreement is None else float(agreement),
        source=source,
        target=target,
    )


def _text(value: object, where: str, what: str) -> str:
    _check(
        isinstance(value, str) and 0 < len(value) <= limits.MAX_LICENSE_TEXT,
        where,
        f"{what} must be text of 1 to {limits.MAX_LICENSE_TEXT} characters",
    )
    assert isinstance(value, str)
    return value


def _license(lic: dict[str, Any], where: str) -> License:
    territories = _strings(lic, "excluded_territories", where, _TERRITORY, optional=True)
    users = _get(lic, "max_monthly_active_users", int, where, optional=True)
    _check(users is None or users > 0, where, "max_monthly_active_users must be positive")
    restrictions = _get(lic, "restrictions", dict, where, optional=True) or {}
    _check(not restrictions or "en" in restrictions, where, "license restrictions need an 'en' list")
    lines = {}
    for lang, values in restrictions.items():
        _check(
            isinstance(values, list) and len(values) <= limits.MAX_LICENSE_LINES,
            where,
            f"license restrictions must be lists of at most {limits.MAX_LICENSE_LINES} sentences",
        )
        lines[lang] = tuple(_text(v, where, "a license restriction") for v in values)
    notice = _get(lic, "notice", str, where, optional=True)
    return License(
        _get(lic, "name", str, where),
        _get(lic, "url", str, where),
        _get(lic, "commercial_use", bool, where),
        excluded_territories=territories,
        max_monthly_active_users=users,
        restrictions=lines,
        notice=None if notice is None else _text(notice, where, "the license notice"),
        ask_before_download=bool(_get(lic, "ask_before_download", bool, where, optional=True)),
    )


class _Unsupported(Exception):
    """A well-formed entry for a family or quantization this Fanyi does not run (a newer one's)."""


def _repository(raw: dict[str, Any], key: str, where: str) -> Repository | None:
    r = _get(raw, key, dict, where, optional=True)
    if r is None:
        return None
    repo, revision = _get(r, "repo", str, where), _get(r, "revision", str, where)
    _check(bool(_REPO.match(repo)), where, f"{key} repo {repo!r} is not owner/name")
    _check(bool(_REVISION.match(revision)), where, f"{key} revision {revision!r} is not a commit, branch or tag")
    return Repository(repo, revision, gated=bool(_get(r, "gated", bool, where, optional=True)))


def _size(value: int, where: str, what: str) -> int:
    _check(0 < value <= limits.MAX_MODEL_FILES_BYTES, where, f"{what} {value} is out of range")
    return value


def _pins(raw: dict[str, Any], where: str) -> dict[str, Pin]:
    files = _get(raw, "files", dict, where, optional=True) or {}
    _check(len(files) <= limits.MAX_PACK_FILES * 4, where, "too many files")
    pins = {}
    for name, pin in files.items():
        _check(bool(_REPO_FILE.match(name)) and isinstance(pin, dict), where, f"invalid file entry {name!r}")
        sha = _get(pin, "sha256", str, where, optional=True)
        _check(sha is None or bool(_SHA256.match(sha)), where, f"{name}: sha256 must be 64 hex digits")
        pins[name] = Pin(_size(_get(pin, "size", int, where), where, f"{name} size"), sha)
    return pins


def _conversion(raw: dict[str, Any], where: str) -> Conversion:
    c = _get(raw, "convert", dict, where)
    conversion = Conversion(
        quantize=_get(c, "quantize", str, where),
        embeddings=_get(c, "embeddings", str, where, optional=True) or "int8",
        block_size=_get(c, "block_size", int, where, optional=True) or 32,
        output_projection=_get(c, "output_projection", str, where, optional=True) or "int8",
    )
    _check(
        conversion.output_projection in OUTPUT_PROJECTIONS,
        where,
        f"invalid output_projection {conversion.output_projection!r}",
    )
    _check(conversion.embeddings in EMBEDDINGS, where, f"invalid embeddings {conversion.embeddings!r}")
    _check(conversion.block_size in BLOCK_SIZES, where, f"invalid block_size {conversion.block_size}")
    _check(
        bool(re.fullmatch(r"[a-z0-9_]{1,16}", conversion.quantize)), where, f"invalid quantize {conversion.quantize!r}"
    )
    return conversion


def _converted(raw: dict[str, Any], where: str) -> Converted | None:
    c = _get(raw, "converted", dict, where, optional=True)
    if c is None:
        return None
    files = _get(c, "files", dict, where)
    _check(
        0 < len(files) <= limits.MAX_PACK_FILES
        and all(_REPO_FILE.match(n) and isinstance(h, str) and _SHA256.match(h) for n, h in files.items()),
        where,
        "converted files must map file names to sha256",
    )
    return Converted(_get(c, "fanyi", str, where), dict(files))


def _archive(raw: dict[str, Any], where: str) -> tuple[Archive | None, tuple[str, ...], int | None]:
    a = _get(raw, "archive", dict, where, optional=True)
    if a is None:
        return None, (), None
    archive = Archive(
        file=_get(a, "file", str, where),
        size=_get(a, "size", int, where),
        sha256=_get(a, "sha256", str, where).lower(),
        unpacked_size=_get(a, "unpacked_size", int, where),
    )
    _check(bool(_FILE.match(archive.file)), where, f"invalid archive file name {archive.file!r}")
    _check(bool(_SHA256.match(archive.sha256)), where, "archive sha256 must be 64 hex digits")
    for size in (archive.size, archive.unpacked_size):
        _check(0 < size <= limits.MAX_PACK_BYTES, where, f"archive size {size} is out of range")
    urls = _strings(raw, "urls", where)
    _check(bool(urls) and all(_url_ok(u) for u in urls), where, "urls must be a non-empty list of http(s) URLs")
    return archive, urls, _get(raw, "format_version", int, where)


def _named(raw: object, kind: str, where: str) -> tuple[dict[str, Any], str, str, int, dict[str, Any]]:
    """What every catalog entry starts with: the object, its id, where it is (named by the id), its version and
    its display names."""
    _check(isinstance(raw, dict), where, f"a {kind} entry must be an object")
    assert isinstance(raw, dict)
    entry_id = _get(raw, "id", str, where)
    _check(bool(_ID.match(entry_id)), where, f"invalid id {entry_id!r}")
    why = name_problem(entry_id)  # a pack's folder and a dictionary's file are named after it
    _check(why is None, where, f"the id {entry_id!r} cannot be a file or folder name: {why}")
    where = f"{where} ({entry_id})"
    version = _get(raw, "version", int, where)
    _check(version >= 1, where, "version must be at least 1")
    names = _get(raw, "display_name", dict, where)
    _check(
        "en" in names and all(isinstance(v, str) and v for v in names.values()),
        where,
        "display_name needs a non-empty 'en' name",
    )
    return raw, entry_id, where, version, names


def _entry(raw: object, where: str) -> CatalogEntry:
    raw, pack_id, where, version, names = _named(raw, "pack", where)
    architecture = _get(raw, "architecture", str, where)
    _check(bool(re.fullmatch(r"[a-z0-9_]{1,32}", architecture)), where, f"invalid architecture {architecture!r}")
    sources = _get(raw, "sources", dict, where)
    huggingface, modelscope = (_repository(sources, key, where) for key in ("huggingface", "modelscope"))
    _check(huggingface is not None or modelscope is not None, where, "sources names no repository")
    archive, urls, format_version = _archive(raw, where)
    quality = raw.get("quality")
    qualities = (
        ()
        if quality is None
        else tuple(_quality(q, where) for q in (quality if isinstance(quality, list) else [quality]))
    )
    kv_cache = _get(raw, "kv_cache_bytes", int, where, optional=True)
    _check(kv_cache is None or 0 <= kv_cache <= limits.MAX_PACK_BYTES, where, "kv_cache_bytes is out of range")
    entry = CatalogEntry(
        id=pack_id,
        version=version,
        display_name=dict(names),
        architecture=architecture,
        source_langs=_strings(raw, "source_langs", where, _LANG),
        target_langs=_strings(raw, "target_langs", where, _LANG),
        license=_license(_get(raw, "license", dict, where), where),
        convert=_conversion(raw, where),
        download_size=_size(_get(raw, "download_size", int, where), where, "download_size"),
        pack_size=_size(_get(raw, "pack_size", int, where), where, "pack_size"),
        huggingface=huggingface,
        modelscope=modelscope,
        files=_pins(raw, where),
        converted=_converted(raw, where),
        target_tokens=_strings(raw, "target_tokens", where, optional=True),
        qualities=qualities,
        default=bool(_get(raw, "default", bool, where, optional=True)),
        kv_cache_bytes=kv_cache,
        archive=archive,
        urls=urls,
        format_version=format_version,
        comment=_get(raw, "comment", str, where, optional=True) or "",
    )
    # checked last: an entry this Fanyi cannot run is still checked as a whole, then left out
    if architecture not in FAMILIES:
        raise _Unsupported(f"{pack_id}: architecture {architecture!r} needs a newer Fanyi")
    if entry.quantization not in QUANTIZATIONS:
        raise _Unsupported(f"{pack_id}: quantization {entry.quantization!r} needs a newer Fanyi")
    return entry


_PATH = re.compile(r"^(?!.*\.\.)[A-Za-z0-9_][A-Za-z0-9._/-]{0,199}$")  # a repository file: no "..", no leading "/"
_GIT_OBJECT = re.compile(r"^[0-9a-f]{40}$")


def _github_file(raw: dict[str, Any], where: str) -> GitHubFile:
    source = _get(raw, "source", dict, where)
    g = _get(source, "github", dict, where)
    repo, file = _get(g, "repo", str, where), _get(g, "file", str, where)
    revision = _get(g, "revision", str, where, optional=True) or ""
    release = _get(g, "release", str, where, optional=True) or ""
    blob = _get(g, "git_blob", str, where, optional=True)
    _check(bool(_REPO.match(repo)), where, f"github repo {repo!r} is not owner/name")
    _check(
        bool(revision) != bool(release), where, "github names either a 'revision' (a file) or a 'release' (an asset)"
    )
    _check(
        bool(_REVISION.match(revision or release)), where, "github revision or release is not a commit, branch or tag"
    )
    _check(bool(_PATH.match(file)) and (not release or "/" not in file), where, f"invalid github file {file!r}")
    _check(
        blob is None or (bool(_GIT_OBJECT.match(blob)) and not release), where, "git_blob is a repository file's sha1"
    )
    return GitHubFile(repo, file, revision, release, blob)


def _dictionary(raw: object, where: str) -> DictionaryEntry:
    raw, dictionary_id, where, version, names = _named(raw, "dictionary", where)
    size = _get(raw, "size", int, where, optional=True)
    sha = _get(raw, "sha256", str, where, optional=True)
    _check(sha is None or bool(_SHA256.match(sha)), where, "sha256 must be 64 hex digits")
    sizes = [_get(raw, k, int, where) for k in ("download_size", "dictionary_size", "entries")]
    _check(
        all(0 < v <= limits.MAX_DICTIONARY_SOURCE_BYTES for v in (*sizes[:2], *([size] if size else []))),
        where,
        "sizes must be positive and within the bound",
    )
    _check(0 < sizes[2] <= limits.MAX_DICTIONARY_ENTRIES, where, "entries is out of range")
    entry = DictionaryEntry(
        id=dictionary_id,
        version=version,
        display_name=dict(names),
        github=_github_file(raw, where),
        license=_license(_get(raw, "license", dict, where), where),
        download_size=sizes[0],
        dictionary_size=sizes[1],
        entries=sizes[2],
        format=_get(raw, "format", str, where, optional=True) or "ecdict",
        size=size,
        sha256=sha,
        default=bool(_get(raw, "default", bool, where, optional=True)),
        comment=_get(raw, "comment", str, where, optional=True) or "",
    )
    if entry.format not in DICTIONARY_FORMATS:
        raise _Unsupported(f"{dictionary_id}: dictionary format {entry.format!r} needs a newer Fanyi")
    return entry


class _Identified(Protocol):
    @property
    def id(self) -> str: ...


_E = TypeVar("_E", bound=_Identified)


def _entries(
    items: list[Any], read: Callable[[Any, str], _E], origin: str, what: tuple[str, str]
) -> tuple[list[_E], list[str]]:
    """Each item read (one of a kind this Fanyi does not know is left out, said why), their ids unique.
    ``what``: the item's name, singular and plural ("pack", "packs")."""
    one, many = what
    _check(len(items) <= limits.MAX_CATALOG_PACKS, origin, f"too many {many}")
    found, skipped = [], []
    for i, item in enumerate(items):
        try:
            found.append(read(item, f"{origin}, {one} {i + 1}"))
        except _Unsupported as exc:
            skipped.append(str(exc))
    ids = [entry.id for entry in found]
    _check(len(ids) == len(set(ids)), origin, f"two {many} share an id")
    return found, skipped


def parse(data: bytes | str, origin: str) -> Catalog:
    """A validated Catalog from JSON text; CatalogError names `origin` and the first problem.

    An entry of a family or quantization this Fanyi does not know is left out (Catalog.skipped says
    which), so that a catalog listing a newer Fanyi's packs still offers the others.
    """
    if isinstance(data, bytes) and len(data) > limits.MAX_CATALOG_BYTES:
        raise CatalogError(f"{origin}: the catalog is larger than {limits.MAX_CATALOG_BYTES} bytes")
    try:
        raw = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise CatalogError(f"{origin} is not a readable catalog ({exc})") from None
    _check(isinstance(raw, dict), origin, "a catalog must be a JSON object")
    schema = raw.get("schema")
    _check(schema == SCHEMA, origin, f"catalog schema {schema!r} is not supported (this Fanyi reads {SCHEMA})")
    serial = _get(raw, "serial", int, origin)
    packs, skipped = _entries(_get(raw, "packs", list, origin), _entry, origin, ("pack", "packs"))
    urls = _strings(raw, "catalog_urls", origin, optional=True)
    _check(all(_url_ok(u) for u in urls), origin, "catalog_urls must be http(s) URLs")
    items = _get(raw, "dictionaries", list, origin, optional=True) or []
    dictionaries, unread = _entries(items, _dictionary, origin, ("dictionary", "dictionaries"))
    skipped += unread
    if skipped:
        log.info("%s: left out %s", origin, "; ".join(skipped))
    return Catalog(
        serial=serial,
        generated=_get(raw, "generated", str, origin, optional=True) or "",
        packs=tuple(packs),
        catalog_urls=urls,
        origin=origin,
        skipped=tuple(skipped),
        dictionaries=tuple(dictionaries),
    )


def read(path: Path) -> Catalog:
    try:
        data = path.read_bytes()
    except OSError as exc:
        raise CatalogError(f"{path} cannot be read ({exc.strerror or exc})") from None
    return parse(data, str(path))


# --- writing ---------------------------------------------------------------------------------------
def entry_json(p: CatalogEntry) -> dict[str, Any]:
    """One entry as the catalog writes it (parse() reads it back to an equal entry)."""
    out: dict[str, Any] = {
        "id": p.id,
        "version": p.version,
        "default": p.default,
        "display_name": p.display_name,
        "architecture": p.architecture,
        "source_langs": list(p.source_langs),
        "target_langs": list(p.target_langs),
        "target_tokens": list(p.target_tokens),
        "sources": {
            key: {"repo": r.repo, "revision": r.revision, **({"gated": True} if r.gated else {})}
            for key, r in (("huggingface", p.huggingface), ("modelscope", p.modelscope))
            if r is not None
        },
        "files": {
            name: {"size": pin.size, **({"sha256": pin.sha256} if pin.sha256 else {})} for name, pin in p.files.items()
        },
        "convert": asdict(p.convert),
        "download_size": p.download_size,
        "pack_size": p.pack_size,
        "kv_cache_bytes": p.kv_cache_bytes,
        "license": asdict(p.license),
    }
    if p.converted is not None:
        out["converted"] = asdict(p.converted)
    if p.archive is not None:
        out.update(archive=asdict(p.archive), urls=list(p.urls), format_version=p.format_version)
    qualities = [asdict(q) for q in p.qualities]
    if qualities:  # one direction: an object, as catalogs had it before packs of many directions
        out["quality"] = qualities[0] if len(qualities) == 1 else qualities
    if p.comment:
        out["comment"] = p.comment
    return out


def dictionary_json(d: DictionaryEntry) -> dict[str, Any]:
    """One dictionary as the catalog writes it (parse() reads it back to an equal entry)."""
    github = {k: v for k, v in asdict(d.github).items() if v}
    out: dict[str, Any] = {
        "id": d.id,
        "version": d.version,
        "default": d.default,
        "display_name": d.display_name,
        "format": d.format,
        "source": {"github": github},
        "size": d.size,
        "sha256": d.sha256,
        "download_size": d.download_size,
        "dictionary_size": d.dictionary_size,
        "entries": d.entries,
        "license": asdict(d.license),
    }
    if d.comment:
        out["comment"] = d.comment
    return out


def to_json(catalog: Catalog) -> str:
    doc: dict[str, Any] = {
        "schema": SCHEMA,
        "serial": catalog.serial,
        "generated": catalog.generated,
        "catalog_urls": list(catalog.catalog_urls),
        "packs": [entry_json(p) for p in catalog.packs],
    }
    if catalog.dictionaries:
        doc["dictionaries"] = [dictionary_json(d) for d in catalog.dictionaries]
    return json.dumps(doc, ensure_ascii=False, indent=2) + "\n"


def save(catalog: Catalog, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, to_json(catalog))


# --- the copies on this machine --------------------------------------------------------------------
def bundled_path() -> Path:
    """The catalog the app ships (assets/catalog.json), or the file FANYI_CATALOG_FILE names instead."""
    given = os.environ.get(CATALOG_FILE_ENV)
    return Path(given) if given else paths.assets_dir() / CATALOG_FILE


def cached_path() -> Path:
    return paths.user_data_dir() / CATALOG_FILE


def load() -> Catalog | None:
    """The newest readable copy (by serial): the cached one wins a tie; None when there is none.

    A damaged cached copy is ignored (and logged): the shipped one still works.
    """
    found = []
    for path in (cached_path(), bundled_path()):
        if not path.is_file():
            continue
        try:
            found.append(read(path))
        except CatalogError as exc:
            log.warning("ignoring a catalog copy: %s", exc)
    return max(found, key=lambda c: c.serial, default=None)
