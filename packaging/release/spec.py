"""packaging/packs.json: which packs a release publishes, each pinned to one commit of its model."""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

from fanyi.packs.catalog import License

_COMMIT = re.compile(r"^[0-9a-f]{40}$")


class SpecError(Exception):
    """packs.json is unusable; the message names the pack and the field."""


@dataclass(frozen=True)
class PackSpec:
    id: str  # the pack's name when installed, and its catalog id
    version: int  # the catalog version: raise it to offer users an update
    display_name: dict[str, str]
    model_id: str  # the Hugging Face repository
    commit: str  # the pinned commit of that repository (40 hex digits), never a branch
    source_lang: str  # what the exported manifest must say, checked after export
    target_lang: str
    license: License
    default: bool = False  # the pack the installers carry and the app offers first
    optional: bool = False  # a failure skips the pack with a warning instead of failing the release


def _field(raw: dict, key: str, kind: type, where: str, default=None):
    if key not in raw:
        if default is None:
            raise SpecError(f"{where}: {key!r} is missing")
        return default
    value = raw[key]
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise SpecError(f"{where}: {key!r} must be {kind.__name__}")
    return value


def _spec(raw: object, where: str) -> PackSpec:
    if not isinstance(raw, dict):
        raise SpecError(f"{where}: a pack must be an object")
    pack_id = _field(raw, "id", str, where)
    where = f"{where} ({pack_id})"
    commit = _field(raw, "commit", str, where)
    if not _COMMIT.match(commit):
        raise SpecError(f"{where}: 'commit' must be a full 40-digit commit hash, not {commit!r}")
    names = _field(raw, "display_name", dict, where)
    if not isinstance(names.get("en"), str) or not all(isinstance(v, str) and v for v in names.values()):
        raise SpecError(f"{where}: 'display_name' needs a non-empty 'en' name")
    lic = _field(raw, "license", dict, where)
    license_ = License(_field(lic, "name", str, where), _field(lic, "url", str, where),
                       _field(lic, "commercial_use", bool, where))
    version = _field(raw, "version", int, where)
    if version < 1:
        raise SpecError(f"{where}: 'version' must be at least 1")
    return PackSpec(id=pack_id, version=version, display_name=dict(names), model_id=_field(raw, "model_id", str, where),
                    commit=commit, source_lang=_field(raw, "source_lang", str, where),
                    target_lang=_field(raw, "target_lang", str, where), license=license_,
                    default=_field(raw, "default", bool, where, False),
                    optional=_field(raw, "optional", bool, where, False))


def load_specs(path: Path) -> list[PackSpec]:
    """The packs of packs.json, in order; SpecError on the first problem."""
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise SpecError(f"{path} cannot be read: {exc}") from None
    if not isinstance(raw, dict) or not isinstance(raw.get("packs"), list):
        raise SpecError(f"{path}: expected an object with a list 'packs'")
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
