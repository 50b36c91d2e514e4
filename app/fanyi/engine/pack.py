"""A model pack on disk: manifest, checksums, generation defaults. Opening one verifies every file."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from .families import Family, family_of

# 2: the decoder also returns log-probabilities and each row's top ids (see export/transformer_graphs.py)
FORMAT_VERSION = 2
MANIFEST = "manifest.json"
REQUIRED_FILES = ("encoder.onnx", "decoder.onnx")  # and the family's tokenizer files


class PackError(Exception):
    """A pack that cannot be used; the message names the folder or file and says what is wrong."""


def file_digest(path: Path) -> dict:
    h = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            h.update(block)
    return {"sha256": h.hexdigest(), "size": path.stat().st_size}


@dataclass(frozen=True)
class ModelPack:
    path: Path
    manifest: dict

    @classmethod
    def open(cls, path: str | Path, *, verify: bool = True) -> "ModelPack":
        path = Path(path)
        manifest_path = path / MANIFEST
        if not path.is_dir():
            raise PackError(f"{path} is not a model pack folder")
        if not manifest_path.is_file():
            raise PackError(f"{manifest_path} is missing: {path} is not a model pack")
        try:
            manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError) as exc:
            raise PackError(f"{manifest_path} is damaged: {exc}") from None
        version = manifest.get("format_version") if isinstance(manifest, dict) else None
        if version != FORMAT_VERSION:
            raise PackError(f"{manifest_path}: pack format version {version!r} is not supported "
                            f"(this Fanyi reads version {FORMAT_VERSION}); export or fetch the model again")
        files = manifest.get("files") or {}
        try:
            family = family_of(manifest)
        except ValueError as exc:
            raise PackError(f"{manifest_path}: {exc}") from None
        for required in REQUIRED_FILES + family.tokenizer_files:
            if required not in files:
                raise PackError(f"{manifest_path} does not list {required}")
        pack = cls(path, manifest)
        if verify:
            pack.verify()
        return pack

    def verify(self) -> None:
        """Check every file's size and sha256 against the manifest; PackError names the first bad one."""
        for name, expected in self.manifest["files"].items():
            _verify_file(self.path / name, expected)

    # --- what the runtime reads -----------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.manifest.get("name") or self.path.name

    @property
    def source_lang(self) -> str:
        return self.manifest["source_lang"]

    @property
    def target_lang(self) -> str:
        return self.manifest["target_lang"]

    @property
    def quantization(self) -> str:
        return self.manifest.get("quantization", {}).get("mode", "none")

    @property
    def special_ids(self) -> dict:
        return self.manifest["special_ids"]

    @property
    def generation(self) -> dict:
        return self.manifest["generation"]

    @property
    def target_tokens(self) -> dict[str, str]:
        return dict(self.manifest.get("target_tokens") or {})

    @property
    def default_target(self) -> str | None:
        return self.manifest.get("default_target")

    @property
    def architecture(self) -> dict:
        return self.manifest["architecture"]

    # --- many-to-many families (mBART-50, M2M100, NLLB): languages in the model's own codes ---------
    @property
    def family(self) -> Family:
        return family_of(self.manifest)

    @property
    def source_languages(self) -> list[str]:
        return list((self.manifest.get("languages") or {}).get("source") or [])

    @property
    def target_languages(self) -> list[str]:
        return list((self.manifest.get("languages") or {}).get("target") or [])

    @property
    def language_tokens(self) -> dict[str, tuple[str, int]]:
        """Code → (vocabulary token, id): "en_XX" → ("en_XX", 250004), "en" → ("__en__", 128022)."""
        tokens = (self.manifest.get("languages") or {}).get("tokens") or {}
        return {code: (str(token), int(i)) for code, (token, i) in tokens.items()}

    @property
    def size_bytes(self) -> int:
        return sum(int(f["size"]) for f in self.manifest["files"].values())

    def file(self, name: str) -> Path:
        return self.path / name


def _verify_file(path: Path, expected: dict) -> None:
    if not path.is_file():
        raise PackError(f"{path} is missing from the pack")
    size = path.stat().st_size
    if size != expected.get("size"):
        raise PackError(f"{path} is damaged: {size} bytes, the manifest says {expected.get('size')}")
    if file_digest(path)["sha256"] != expected.get("sha256"):
        raise PackError(f"{path} is damaged: its sha256 checksum does not match the manifest")
