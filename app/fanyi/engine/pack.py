"""A model pack on disk: a manifest checked against one schema, and files checked against the manifest.

The manifest carries no checksum of its own, so everything the runtime reads from it is checked
here, once, when a pack is opened: every field's type and bounds (fanyi.limits), ids within the
vocabulary, tensor ranges within shared.bin, file names that stay inside the pack folder, files
that are plain files of the listed size. ``ModelPack.open`` returns a pack whose ``manifest`` can
be read without further checks, or raises PackError naming the file and what is wrong with it.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from .. import limits
from ..oneline import error_line

from .families import FAMILIES, Family, family_of

# 2: the decoder also returns log-probabilities and each row's top ids (see export/transformer_graphs.py)
# 3: the decoder's self-attention cache is a buffer written in place and read through a beam table
#    (cache_indirection); logits padded to whole top-id blocks; log-probabilities only when asked for
FORMAT_VERSION = 3
MANIFEST = "manifest.json"
SHARED_DATA = "shared.bin"
GRAPHS = ("encoder.onnx", "decoder.onnx")
REQUIRED_FILES = GRAPHS  # and the family's tokenizer files (engine/families.py)
INT8_WEIGHT_SUFFIX = ".weight_int8"  # an int8 weight in shared.bin; its scales follow as <name>_scale
INT8_SCALE_SUFFIX = "_scale"
POSITION_TABLES = ("shared.encoder_positions", "shared.decoder_positions")  # [max_positions, d_model]
TENSOR_ITEM_BYTES = {"float32": 4, "float16": 2, "float64": 8, "int8": 1, "uint8": 1, "int32": 4, "int64": 8,
                     "bool": 1}
MESSAGE_CHARS = 300  # of a loader's error in a PackError: ONNX Runtime's can run to pages

T = TypeVar("T")


class PackError(Exception):
    """A pack that cannot be used; the message names the folder or file and says what is wrong."""


@dataclass(frozen=True)
class Reference:
    """One translation recorded when a release pack was built (packaging/packs.py); the self-test repeats it.

    ``output`` is the pack's own translation of ``sentence`` (to ``target``, a DecodeOptions.target key,
    with the pack's generation defaults), produced on the build machine with each of the int8 weight
    paths in ``int8_weights`` ("full", "reduced"; see engine/int8_weights.py; empty for fp32 packs).
    ``pytorch`` is generate() of the original model; for a release pack the two are equal.
    """

    sentence: str
    target: str | None
    pytorch: str
    output: str
    int8_weights: tuple[str, ...] = ()


# --- a small declarative schema ------------------------------------------------------------------
# A check takes a JSON value and where it is ("generation.num_beams") and returns the value to keep
# (records keep only their declared keys, with defaults filled in) or raises _Invalid.

Check = Callable[[Any, str], Any]


class _Invalid(Exception):
    def __init__(self, where: str, problem: str) -> None:
        super().__init__(f"{where} {problem}" if where else problem)


def _show(value: Any) -> str:
    if isinstance(value, dict):
        return "an object"
    if isinstance(value, list):
        return "a list"
    shown = repr(value)
    return shown if len(shown) <= 40 else shown[:37] + "..."


def integer(low: int, high: int) -> Check:
    def check(value: Any, where: str) -> int:
        if type(value) is not int or not low <= value <= high:
            raise _Invalid(where, f"must be a whole number from {low} to {high}, not {_show(value)}")
        return value
    return check


def number(low: float, high: float) -> Check:
    def check(value: Any, where: str) -> float:
        if type(value) not in (int, float) or not math.isfinite(value) or not low <= value <= high:
            raise _Invalid(where, f"must be a number from {low} to {high}, not {_show(value)}")
        return float(value)
    return check


def text(pattern: str = r".+", max_chars: int = limits.MAX_MANIFEST_TEXT, what: str = "") -> Check:
    """A string of printable characters (no control, format or lone surrogate characters) matching pattern."""
    compiled = re.compile(pattern, re.DOTALL)
    what = what or f"printable text of at most {max_chars} characters of the form {pattern}"

    def check(value: Any, where: str) -> str:
        if not (isinstance(value, str) and len(value) <= max_chars and value.isprintable()
                and compiled.fullmatch(value)):
            raise _Invalid(where, f"must be {what}, not {_show(value)}")
        return value
    return check


def one_of(*choices: Any) -> Check:
    def check(value: Any, where: str) -> Any:
        # by type too: JSON's true is not 1
        if not any(type(value) is type(c) and value == c for c in choices):
            raise _Invalid(where, f"must be one of {', '.join(map(json.dumps, choices))}, not {_show(value)}")
        return value
    return check


def either(what: str, *checks: Check) -> Check:
    def check(value: Any, where: str) -> Any:
        for candidate in checks:
            try:
                return candidate(value, where)
            except _Invalid:
                pass
        raise _Invalid(where, f"must be {what}, not {_show(value)}")
    return check


def list_of(item: Check, min_items: int, max_items: int) -> Check:
    def check(value: Any, where: str) -> list:
        if not isinstance(value, list) or not min_items <= len(value) <= max_items:
            raise _Invalid(where, f"must be a list of {min_items} to {max_items} items, not {_show(value)}")
        return [item(v, f"{where}[{i}]") for i, v in enumerate(value)]
    return check


def map_of(key: Check, value: Check, max_items: int) -> Check:
    def check(raw: Any, where: str) -> dict:
        if not isinstance(raw, dict) or len(raw) > max_items:
            raise _Invalid(where, f"must be an object of at most {max_items} entries, not {_show(raw)}")
        return {key(k, f"a name in {where}"): value(v, f"{where}.{k}") for k, v in raw.items()}
    return check


def pair(first: Check, second: Check) -> Check:
    """A two-item list, e.g. a language's [token, id]; kept as a tuple."""
    def check(value: Any, where: str) -> tuple:
        if not isinstance(value, list) or len(value) != 2:
            raise _Invalid(where, f"must be a list of two items, not {_show(value)}")
        return first(value[0], f"{where}[0]"), second(value[1], f"{where}[1]")
    return check


@dataclass(frozen=True)
class _Optional:
    check: Check
    default: Any


def optional(check: Check, default: Any = None) -> _Optional:
    """A record field that may be missing or null; then `default`, itself passed through the check."""
    return _Optional(check, default)


def record(fields: dict[str, Check | _Optional]) -> Check:
    def check(raw: Any, where: str) -> dict:
        if not isinstance(raw, dict):
            raise _Invalid(where, f"must be an object, not {_show(raw)}")
        out = {}
        for name, spec in fields.items():
            inner = f"{where}.{name}" if where else name
            value = raw.get(name)
            if isinstance(spec, _Optional):
                if value is None:
                    value = spec.default
                out[name] = None if value is None else spec.check(value, inner)
            elif name not in raw:
                raise _Invalid(inner, "is missing")
            else:
                out[name] = spec(value, inner)
        return out
    return check


# --- the manifest --------------------------------------------------------------------------------
# Every field the runtime (or a caller showing a pack) reads. Unknown fields are ignored and dropped.
# Ids are checked against the vocabulary size, and the tensor index against shared.bin, afterwards.

TOKEN_ID = integer(0, limits.MAX_VOCAB_SIZE - 1)
EOS_IDS = list_of(TOKEN_ID, 1, limits.MAX_EOS_IDS)
LANGUAGE = text(r"[A-Za-z0-9_-]{1,32}")
# no folders, "..", drive letters, backslashes, colons or hidden files: a name that stays in the pack folder
FILE_NAME = text(r"[A-Za-z0-9_-][A-Za-z0-9._-]*", 128, "a plain file name (letters, digits, '.', '_', '-')")
BOOLEAN = one_of(True, False)
BYTES = integer(0, limits.MAX_PACK_BYTES)
POSITIONS = integer(1, limits.MAX_POSITIONS)

MANIFEST_SCHEMA = record({
    "format_version": one_of(FORMAT_VERSION),
    "name": optional(text(r".*", what="printable text")),
    "source_model": optional(record({"id": optional(text()), "revision": optional(text())})),
    "architecture": record({
        "type": one_of(*FAMILIES),  # the family (engine/families.py); what follows it is informative
        "d_model": integer(1, limits.MAX_MODEL_WIDTH),
        "encoder_layers": integer(1, limits.MAX_LAYERS),
        "decoder_layers": integer(1, limits.MAX_LAYERS),
        "heads": integer(1, limits.MAX_HEADS),
        "head_dim": integer(1, limits.MAX_MODEL_WIDTH),
        "ffn_dim": integer(1, limits.MAX_MODEL_WIDTH),
        "vocab_size": integer(1, limits.MAX_VOCAB_SIZE),
        "max_positions": POSITIONS,
        "activation": text(r"[a-z0-9_]{1,32}"),
        "pre_norm": optional(BOOLEAN),
        "layernorm_embedding": optional(BOOLEAN),
        "positions": optional(one_of("sinusoidal", "learned", "fairseq")),
        "embed_scale": optional(BOOLEAN),
    }),
    "tokenizer": optional(one_of("marian", "sentencepiece", "tokenizers")),
    "source_lang": LANGUAGE,
    "target_lang": LANGUAGE,
    "special_ids": record({
        "pad": TOKEN_ID,
        "eos": TOKEN_ID,
        "eos_all": optional(EOS_IDS),
        "unk": optional(TOKEN_ID),
        "decoder_start": TOKEN_ID,
    }),
    "bad_words_ids": optional(list_of(list_of(TOKEN_ID, 1, limits.MAX_BAD_WORD_TOKENS), 0, limits.MAX_BAD_WORDS),
                              []),
    "generation": record({  # null: the engine's default (transformers' generate() default)
        "num_beams": optional(integer(1, limits.MAX_BEAMS)),
        "max_length": optional(POSITIONS),
        "max_new_tokens": optional(POSITIONS),
        "min_length": optional(integer(0, limits.MAX_POSITIONS)),
        "length_penalty": optional(number(*limits.LENGTH_PENALTY_RANGE)),
        "early_stopping": optional(one_of(True, False, "never")),
        "no_repeat_ngram_size": optional(integer(0, limits.MAX_NO_REPEAT_NGRAM)),
        "repetition_penalty": optional(number(*limits.REPETITION_PENALTY_RANGE)),
        "forced_eos_token_id": optional(either("a token id or a list of them", TOKEN_ID, EOS_IDS)),
        "renormalize_logits": optional(BOOLEAN),
    }),
    # many-to-many families: languages in the model's own codes (source_lang/target_lang are then "mul")
    "languages": optional(record({
        "source": list_of(LANGUAGE, 1, limits.MAX_TARGET_TOKENS),
        "target": list_of(LANGUAGE, 1, limits.MAX_TARGET_TOKENS),
        "tokens": map_of(LANGUAGE, pair(text(r"[^\s]{1,64}"), TOKEN_ID), limits.MAX_TARGET_TOKENS),
        "source_token_position": optional(one_of("prefix", "suffix"), "prefix"),
        "tokens_are_special": optional(BOOLEAN, True),
    })),
    "target_tokens": optional(map_of(text(r"[^\s<>]{1,64}"), text(r">>[^\s<>]{1,64}<<"), limits.MAX_TARGET_TOKENS),
                              {}),
    "default_target": optional(text(r"[^\s<>]{1,64}")),
    "quantization": optional(record({
        "mode": optional(one_of("none", "int8"), "none"),
        "scheme": optional(text()),
        "linear": optional(BOOLEAN, False),
        "output_projection": optional(BOOLEAN, False),
        "embeddings": optional(one_of("int8", "fp32"), "fp32"),
    }), {}),
    "files": map_of(FILE_NAME, record({"sha256": text(r"[0-9a-f]{64}"), "size": BYTES}), limits.MAX_PACK_FILES),
    # written by the release pipeline (packaging/packs.py); absent in packs exported locally
    "pack_version": optional(integer(0, limits.MAX_PACK_VERSION)),
    "reference": optional(record({
        "sentence": text(max_chars=limits.MAX_REFERENCE_CHARS),
        "target": optional(text(r"[^\s<>]{1,64}")),
        "pytorch": text(r".*", limits.MAX_REFERENCE_CHARS, "printable text"),
        "output": text(r".*", limits.MAX_REFERENCE_CHARS, "printable text"),
        "int8_weights": optional(list_of(one_of("full", "reduced"), 0, 2), []),
    })),
    "external_tensors": optional(map_of(text(), record({
        "offset": BYTES,
        "length": BYTES,
        "dtype": one_of(*TENSOR_ITEM_BYTES),
        "shape": list_of(BYTES, 0, limits.MAX_TENSOR_DIMS),
        "graphs": list_of(one_of(*GRAPHS), 1, len(GRAPHS)),
    }), limits.MAX_EXTERNAL_TENSORS), {}),
})


def _check_consistency(m: dict) -> None:
    """What the schema cannot say field by field: how the fields agree with each other."""
    arch = m["architecture"]
    if arch["heads"] * arch["head_dim"] != arch["d_model"]:
        raise _Invalid("architecture", f"says {arch['heads']} heads of {arch['head_dim']} values, "
                                       f"which is not d_model {arch['d_model']}")
    vocab = arch["vocab_size"]
    ids = m["special_ids"]
    forced = m["generation"]["forced_eos_token_id"]
    used = [(f"special_ids.{k}", v) for k, v in ids.items() if isinstance(v, int)]
    used += [(f"special_ids.eos_all[{i}]", v) for i, v in enumerate(ids["eos_all"] or [])]
    used += [(f"bad_words_ids[{i}][{j}]", v) for i, seq in enumerate(m["bad_words_ids"]) for j, v in enumerate(seq)]
    used += [("generation.forced_eos_token_id", v) for v in ([forced] if isinstance(forced, int) else forced or [])]
    for where, token in used:
        if token >= vocab:
            raise _Invalid(where, f"is token {token}, outside the vocabulary of {vocab} tokens")
    for key, token in m["target_tokens"].items():
        if token != f">>{key}<<":
            raise _Invalid(f"target_tokens.{key}", f"must be '>>{key}<<', not {_show(token)}")
    family = FAMILIES[arch["type"]]
    languages = m["languages"]
    if family.target_language == "forced_bos":
        if languages is None:
            raise _Invalid("languages", f"is missing: a {family.title} pack names its languages")
        for code, (_token, token_id) in languages["tokens"].items():
            if token_id >= vocab:
                raise _Invalid(f"languages.tokens.{code}", f"is token {token_id}, outside the vocabulary of {vocab}")
        for side in ("source", "target"):
            if unknown := [c for c in languages[side] if c not in languages["tokens"]]:
                raise _Invalid(f"languages.{side}", f"lists {_show(unknown[0])}, which languages.tokens lacks")
        choices, named = languages["target"], "languages.target"
    else:
        choices, named = m["target_tokens"], "target_tokens"
    if m["default_target"] is not None and m["default_target"] not in choices:
        raise _Invalid("default_target", f"{_show(m['default_target'])} is not one of {named}")
    files = m["files"]
    for required in REQUIRED_FILES + family.tokenizer_files:
        if required not in files:
            raise _Invalid("files", f"does not list {required}")
    total = sum(f["size"] for f in files.values())
    if total > limits.MAX_PACK_BYTES:
        raise _Invalid("files", f"add up to {total} bytes, more than a pack may hold ({limits.MAX_PACK_BYTES})")
    index = m["external_tensors"]
    if index and SHARED_DATA not in files:
        raise _Invalid("external_tensors", f"index {SHARED_DATA}, which files does not list")
    blob = files.get(SHARED_DATA, {"size": 0})["size"]
    for name, entry in index.items():
        where = f"external_tensors.{name}"
        if entry["offset"] + entry["length"] > blob:
            raise _Invalid(where, f"reaches byte {entry['offset'] + entry['length']} of {SHARED_DATA}, "
                                  f"which has {blob}")
        if math.prod(entry["shape"]) * TENSOR_ITEM_BYTES[entry["dtype"]] != entry["length"]:
            raise _Invalid(where, f"is {entry['length']} bytes, not the size of a {entry['dtype']} "
                                  f"tensor of shape {entry['shape']}")
        if name.endswith(INT8_WEIGHT_SUFFIX) and name + INT8_SCALE_SUFFIX not in index:
            raise _Invalid(where, f"is an int8 weight without its scales ({name + INT8_SCALE_SUFFIX})")
        # the tables bound the source and target lengths the runtime allows (architecture.max_positions)
        rows = arch["max_positions"] + family.extra_position_rows
        if name in POSITION_TABLES and entry["shape"] != [rows, arch["d_model"]]:
            raise _Invalid(where, f"has the shape {entry['shape']}, the architecture says [{rows}, {arch['d_model']}]")


def validate_manifest(raw: Any, source: Path) -> dict:
    """The manifest as the runtime reads it: declared keys only, defaults filled in, every value checked."""
    try:
        manifest = MANIFEST_SCHEMA(raw, "")
        _check_consistency(manifest)
    except _Invalid as exc:
        raise PackError(f"{source}: {exc}") from None
    return manifest


# --- the pack ------------------------------------------------------------------------------------
def file_digest(path: Path) -> dict:
    h = hashlib.sha256()
    with open(path, "rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            h.update(block)
    return {"sha256": h.hexdigest(), "size": path.stat().st_size}


def _reject_json_constant(name: str) -> None:
    raise ValueError(f"{name} is not a JSON number")


def _plain_file(path: Path) -> os.stat_result:
    """lstat() of a regular file; a symbolic link, which could point anywhere, is refused."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        raise PackError(f"{path} is missing from the pack") from None
    if stat.S_ISLNK(info.st_mode):
        raise PackError(f"{path} is a symbolic link; the files of a pack must be plain files in its folder")
    if not stat.S_ISREG(info.st_mode):
        raise PackError(f"{path} is not a plain file")
    return info


def _read_manifest(path: Path) -> Any:
    if (size := _plain_file(path).st_size) > limits.MAX_MANIFEST_BYTES:
        raise PackError(f"{path} is {size} bytes, more than a manifest may be ({limits.MAX_MANIFEST_BYTES})")
    try:
        return json.loads(path.read_text(encoding="utf-8"), parse_constant=_reject_json_constant)
    # ValueError: also numbers of more digits than Python converts; RecursionError: absurd nesting
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        raise PackError(f"{path} is damaged: {error_line(exc, MESSAGE_CHARS)}") from None


@dataclass(frozen=True)
class ModelPack:
    path: Path
    manifest: dict  # validated: every field of MANIFEST_SCHEMA is present, with its type and bounds

    @classmethod
    def open(cls, path: str | Path, *, verify: bool = True) -> "ModelPack":
        """Check the manifest and that every listed file is there with its size; `verify` also hashes them."""
        path = Path(path)
        manifest_path = path / MANIFEST
        try:
            if not path.is_dir():
                raise PackError(f"{path} is not a model pack folder")
            if not os.path.lexists(manifest_path):
                raise PackError(f"{manifest_path} is missing: {path} is not a model pack")
            raw = _read_manifest(manifest_path)
            version = raw.get("format_version") if isinstance(raw, dict) else None
            if version != FORMAT_VERSION or type(version) is not int:
                raise PackError(f"{manifest_path}: pack format version {_show(version)} is not supported "
                                f"(this Fanyi reads version {FORMAT_VERSION}); export or fetch the model again")
            manifest = validate_manifest(raw, manifest_path)
            for name, expected in manifest["files"].items():
                if (size := _plain_file(path / name).st_size) != expected["size"]:
                    raise PackError(f"{path / name} is damaged: {size} bytes, the manifest says {expected['size']}")
        except OSError as exc:  # an unreadable folder or file
            raise PackError(f"{exc.filename or path} cannot be read: {exc.strerror or exc}") from None
        pack = cls(path, manifest)
        if verify:
            pack.verify()
        return pack

    def verify(self) -> None:
        """Check every file's sha256 against the manifest; PackError names the first bad one."""
        for name, expected in self.manifest["files"].items():
            path = self.path / name
            try:
                digest = file_digest(path)
            except OSError as exc:
                raise PackError(f"{path} cannot be read: {exc.strerror or exc}") from None
            if digest["size"] != expected["size"]:
                raise PackError(f"{path} is damaged: {digest['size']} bytes, the manifest says {expected['size']}")
            if digest["sha256"] != expected["sha256"]:
                raise PackError(f"{path} is damaged: its sha256 checksum does not match the manifest")

    def load(self, name: str, loader: Callable[[Path], T]) -> T:
        """`loader(path of the file name)`; whatever goes wrong becomes a PackError naming the file."""
        path = self.file(name)
        try:
            return loader(path)
        except PackError:
            raise
        except Exception as exc:  # a file the checksum cannot judge: any library's error, one line
            raise PackError(f"{path} cannot be loaded: {error_line(exc, MESSAGE_CHARS)}") from exc

    # --- what the runtime reads -----------------------------------------------------------------
    @property
    def name(self) -> str:
        return self.manifest["name"] or self.path.name

    @property
    def source_lang(self) -> str:
        return self.manifest["source_lang"]

    @property
    def target_lang(self) -> str:
        return self.manifest["target_lang"]

    @property
    def quantization(self) -> str:
        return self.manifest["quantization"]["mode"]

    @property
    def special_ids(self) -> dict:
        return self.manifest["special_ids"]

    @property
    def generation(self) -> dict:
        return self.manifest["generation"]

    @property
    def target_tokens(self) -> dict[str, str]:
        return dict(self.manifest["target_tokens"])

    @property
    def default_target(self) -> str | None:
        return self.manifest["default_target"]

    @property
    def architecture(self) -> dict:
        return self.manifest["architecture"]

    # --- many-to-many families (mBART-50, M2M100, NLLB): languages in the model's own codes ---------
    @property
    def family(self) -> Family:
        return family_of(self.manifest)

    @property
    def source_languages(self) -> list[str]:
        return list((self.manifest["languages"] or {}).get("source") or [])

    @property
    def target_languages(self) -> list[str]:
        return list((self.manifest["languages"] or {}).get("target") or [])

    @property
    def language_tokens(self) -> dict[str, tuple[str, int]]:
        """Code → (vocabulary token, id): "en_XX" → ("en_XX", 250004), "en" → ("__en__", 128022)."""
        return dict((self.manifest["languages"] or {}).get("tokens") or {})

    @property
    def pack_version(self) -> int | None:
        """The catalog version this pack was released as; None for packs exported locally."""
        return self.manifest["pack_version"]

    @property
    def reference(self) -> Reference | None:
        raw = self.manifest["reference"]
        if raw is None:
            return None
        return Reference(raw["sentence"], raw["target"], raw["pytorch"], raw["output"], tuple(raw["int8_weights"]))

    @property
    def size_bytes(self) -> int:
        return sum(f["size"] for f in self.manifest["files"].values())

    def file(self, name: str) -> Path:
        return self.path / name
