"""packaging/release/recipes.json: the packs Fanyi offers, each a recipe: where its model is published (a commit of
its Hugging Face repository, its ModelScope copy), how it is converted, its licence; and what a release checks.

`recipe(spec)` is the catalog entry the app ships (`publish.py recipes` writes assets/catalog.json from every
spec); a release (pipeline.py) fills in what it measured: the commit a ref resolved to, the files' sizes
and sha256, the converted files' sha256, the quality.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fanyi.library import catalog
from fanyi.library.catalog import (
    BLOCK_SIZES,
    EMBEDDINGS,
    QUANTIZATIONS,
    Catalog,
    CatalogEntry,
    Conversion,
    DictionaryEntry,
    License,
    Repository,
)

_REVISION = re.compile(r"^(?!.*\.\.)[A-Za-z0-9][A-Za-z0-9._/-]{0,127}$")
_TERRITORY = re.compile(r"^[A-Z]{2}$")


class SpecError(Exception):
    """recipes.json is unusable; the message names the pack and the field."""


@dataclass(frozen=True)
class PackSpec:
    id: str  # the pack's name when installed, and its catalog id
    version: int  # the catalog version: raise it to offer users an update
    display_name: dict[str, str]
    architecture: str  # the family's manifest name (fanyi.engine.families): marian, qwen3, hunyuan, gemma3
    # the Hugging Face repository and its revision: a commit, or (where the commit found has only pickled
    # weights) the ref of a safetensors conversion, which the release resolves to its commit
    huggingface: Repository
    license: License
    convert: Conversion  # until a release validated the faster choices: the converter's options it chose
    download_size: int  # estimates until a release measured them (the catalog says which)
    pack_size: int
    modelscope: Repository | None = None  # the same model's copy on ModelScope (a branch or tag: no commits there)
    # what the exported manifest must say, checked after export: one direction (source_lang,
    # target_lang), or a translation LLM's languages (both ways, the model's own codes)
    source_lang: str | None = None
    target_lang: str | None = None
    languages: tuple[str, ...] = ()
    # the directions scored and gated (source, target); a one-way pack's own by default
    score: tuple[tuple[str, str], ...] = field(default_factory=tuple)
    fp32_pack: bool = True  # export and score an fp32 pack too (an LLM's may not fit the build machine)
    default: bool = False  # the pack the installers carry and the app offers first
    optional: bool = False  # a failure skips the pack with a warning instead of failing the release
    comment: str = ""  # for people: where the commit was found, why a choice was made

    @property
    def model_id(self) -> str:
        return self.huggingface.repo

    @property
    def directions(self) -> tuple[tuple[str, str], ...]:
        if self.score:
            return self.score
        return ((self.source_lang, self.target_lang),) if self.source_lang and self.target_lang else ()


def _field(raw: dict[str, Any], key: str, kind: type, where: str, default: Any = None) -> Any:
    if key not in raw:
        if default is None:
            raise SpecError(f"{where}: {key!r} is missing")
        return default
    value = raw[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise SpecError(f"{where}: {key!r} must be {kind.__name__}")
    return value


def _strings(raw: dict, key: str, where: str) -> tuple[str, ...]:
    values = _field(raw, key, list, where, [])
    if not all(isinstance(v, str) and v for v in values):
        raise SpecError(f"{where}: {key!r} must be a list of non-empty strings")
    return tuple(values)


def _license(lic: dict, where: str) -> License:
    territories = _strings(lic, "excluded_territories", where)
    if bad := [t for t in territories if not _TERRITORY.match(t)]:
        raise SpecError(f"{where}: 'excluded_territories' holds {bad[0]!r}: use ISO 3166-1 codes and EU")
    restrictions = _field(lic, "restrictions", dict, where, {})
    if restrictions and "en" not in restrictions:
        raise SpecError(f"{where}: the license 'restrictions' need an 'en' list")
    users = _field(lic, "max_monthly_active_users", int, where, 0) or None
    return License(
        _field(lic, "name", str, where),
        _field(lic, "url", str, where),
        _field(lic, "commercial_use", bool, where),
        excluded_territories=territories,
        max_monthly_active_users=users,
        restrictions={lang: _strings(restrictions, lang, where) for lang in restrictions},
        notice=_field(lic, "notice", str, where, "") or None,
        ask_before_download=_field(lic, "ask_before_download", bool, where, False),
    )


def _repository(raw: dict, where: str, key: str) -> Repository:
    repo = _field(raw, "repo", str, where)
    revision = _field(raw, "revision", str, where)
    if "/" not in repo or not _REVISION.match(revision):
        raise SpecError(f"{where}: {key} needs 'repo' as owner/name and a 'revision' (commit, branch or tag)")
    return Repository(repo, revision, gated=_field(raw, "gated", bool, where, False))


def _conversion(raw: dict, where: str) -> Conversion:
    conversion = Conversion(
        quantize=_field(raw, "quantize", str, where),
        embeddings=_field(raw, "embeddings", str, where, "int8"),
        block_size=_field(raw, "block_size", int, where, 32),
        output_projection=_field(raw, "output_projection", str, where, "int8"),
    )
    if (
        conversion.quantize not in QUANTIZATIONS
        or conversion.embeddings not in EMBEDDINGS
        or conversion.block_size not in BLOCK_SIZES
        or conversion.output_projection not in catalog.OUTPUT_PROJECTIONS
    ):
        raise SpecError(f"{where}: 'convert' has an unknown quantize, embeddings or block_size")
    return conversion


def _directions(raw: dict, where: str) -> tuple[tuple[str, str], ...]:
    pairs = _field(raw, "score", list, where, [])
    if not all(isinstance(p, list) and len(p) == 2 and all(isinstance(c, str) and c for c in p) for p in pairs):
        raise SpecError(f'{where}: \'score\' is a list of [source, target] pairs, such as ["en", "zh"]')
    return tuple((source, target) for source, target in pairs)


def _spec(raw: object, where: str) -> PackSpec:
    if not isinstance(raw, dict):
        raise SpecError(f"{where}: a pack must be an object")
    pack_id = _field(raw, "id", str, where)
    where = f"{where} ({pack_id})"
    sources = _field(raw, "sources", dict, where)
    huggingface = _repository(_field(sources, "huggingface", dict, where), where, "huggingface")
    modelscope = sources.get("modelscope")
    names = _field(raw, "display_name", dict, where)
    if not isinstance(names.get("en"), str) or not all(isinstance(v, str) and v for v in names.values()):
        raise SpecError(f"{where}: 'display_name' needs a non-empty 'en' name")
    version = _field(raw, "version", int, where)
    if version < 1:
        raise SpecError(f"{where}: 'version' must be at least 1")
    languages = _strings(raw, "languages", where)
    one_way = "source_lang" in raw or "target_lang" in raw
    if one_way == bool(languages):
        raise SpecError(f"{where}: give either 'source_lang' and 'target_lang' or 'languages'")
    source = _field(raw, "source_lang", str, where) if one_way else None
    target = _field(raw, "target_lang", str, where) if one_way else None
    score = _directions(raw, where)
    if languages and not score:
        raise SpecError(f"{where}: a pack of several languages names the directions to 'score'")
    if bad := [f"{s}-{t}" for s, t in score if languages and not {s, t} <= set(languages)]:
        raise SpecError(f"{where}: 'score' direction {bad[0]} is not between its 'languages'")
    return PackSpec(
        id=pack_id,
        version=version,
        display_name=dict(names),
        architecture=_field(raw, "architecture", str, where),
        huggingface=huggingface,
        modelscope=None if modelscope is None else _repository(modelscope, where, "modelscope"),
        license=_license(_field(raw, "license", dict, where), where),
        convert=_conversion(_field(raw, "convert", dict, where), where),
        download_size=_field(raw, "download_size", int, where),
        pack_size=_field(raw, "pack_size", int, where),
        source_lang=source,
        target_lang=target,
        languages=languages,
        score=score,
        fp32_pack=_field(raw, "fp32_pack", bool, where, True),
        default=_field(raw, "default", bool, where, False),
        optional=_field(raw, "optional", bool, where, False),
        comment=_field(raw, "comment", str, where, ""),
    )


def _read(path: Path) -> dict[str, Any]:
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SpecError(f"{path} cannot be read: {exc}") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("packs"), list):
        raise SpecError(f"{path}: expected an object with a list 'packs'")
    return raw


def load_specs(path: Path) -> list[PackSpec]:
    """The packs of recipes.json, in order; SpecError on the first problem."""
    raw = _read(path)
    specs = [_spec(p, f"{path}, pack {i + 1}") for i, p in enumerate(raw["packs"])]
    ids = [s.id for s in specs]
    if len(set(ids)) != len(ids):
        raise SpecError(f"{path}: two packs share an id")
    defaults = [s for s in specs if s.default]
    if len(defaults) != 1:
        raise SpecError(f"{path}: exactly one pack must be the default, found {len(defaults)}")
    if defaults[0].optional:
        raise SpecError(f"{path}: the default pack {defaults[0].id} cannot be optional")
    return specs


def recipe(spec: PackSpec) -> CatalogEntry:
    """The catalog entry of a pack no release has built yet: what recipes.json says, sizes as estimated."""
    one_way = not spec.languages
    return CatalogEntry(
        id=spec.id,
        version=spec.version,
        display_name=spec.display_name,
        architecture=spec.architecture,
        source_langs=(spec.source_lang,) if one_way and spec.source_lang else spec.languages,
        target_langs=(spec.target_lang,) if one_way and spec.target_lang else spec.languages,
        license=spec.license,
        convert=spec.convert,
        download_size=spec.download_size,
        pack_size=spec.pack_size,
        huggingface=spec.huggingface,
        modelscope=spec.modelscope,
        default=spec.default,
        comment=spec.comment,
    )


def dictionary_recipes(path: Path) -> tuple[DictionaryEntry, ...]:
    """The dictionaries of recipes.json ('dictionaries', in the catalog's own form), checked by the app's reader."""
    raw = _read(path)
    doc = {"schema": catalog.SCHEMA, "serial": 1, "packs": [], "dictionaries": raw.get("dictionaries", [])}
    try:
        return catalog.parse(json.dumps(doc), str(path)).dictionaries
    except catalog.CatalogError as exc:
        raise SpecError(str(exc)) from None


def recipes_catalog(path: Path) -> Catalog:
    """The catalog of recipes of recipes.json, as the app ships it: dated by recipes.json's 'recipes_date', which
    also gives its serial (YYYYMMDD0000, below any release's YYYYMMDDHHMM of that day and after)."""
    date = _field(_read(path), "recipes_date", str, str(path))
    if not re.fullmatch(r"\d{4}-\d{2}-\d{2}", date):
        raise SpecError(f"{path}: 'recipes_date' must be YYYY-MM-DD")
    packs = tuple(recipe(s) for s in load_specs(path))
    text = catalog.to_json(
        Catalog(int(date.replace("-", "")) * 10000, date, packs, dictionaries=dictionary_recipes(path))
    )
    return catalog.parse(text.encode("utf-8"), "the recipes")  # the app's own reader must accept them
