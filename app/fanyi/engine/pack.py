"""A model pack on disk: a manifest checked against one schema, and files checked against the manifest.

The manifest carries no checksum of its own, so everything the runtime reads from it is checked
here, once, when a pack is opened: every field's type and bounds (fanyi.limits), ids within the
vocabulary, tensor ranges within shared.bin, file names that stay inside the pack folder, files
that are plain files of the listed size. ``ModelPack.open`` returns a pack whose ``manifest`` can
be read without further checks, or raises PackError naming the file and what is wrong with it.
"""

from __future__ import annotations

import json
import math
import os
import stat
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar, cast

from .. import limits
from ..oneline import error_line
from . import families
from .families import Family, family_of
from .pack_format import (
    FORMAT_VERSION,
    INT8_SCALE_SUFFIX,
    INT8_WEIGHT_SUFFIX,
    MANIFEST,
    READABLE_FORMATS,
    SHARED_DATA,
    TENSOR_ITEM_BYTES,
    PackError,
    file_digest,
)
from .schema import (
    BOOLEAN,
    Invalid,
    either,
    integer,
    list_of,
    map_of,
    number,
    one_of,
    optional,
    pair,
    record,
    show,
    tagged,
    text,
)

__all__ = [
    "FORMAT_VERSION",
    "INT8_SCALE_SUFFIX",
    "INT8_WEIGHT_SUFFIX",
    "MANIFEST",
    "MANIFEST_SCHEMA",
    "READABLE_FORMATS",
    "SHARED_DATA",
    "ModelPack",
    "PackError",
    "Reference",
    "file_digest",
    "validate_manifest",
]

MESSAGE_CHARS = 300  # of a loader's error in a PackError: ONNX Runtime's can run to pages
GRAPHS = tuple(dict.fromkeys(g for f in families.FAMILIES.values() for g in f.graphs))

T = TypeVar("T")


@dataclass(frozen=True)
class Reference:
    """One translation recorded when a release pack was built (packaging/publish.py); the self-test repeats it.

    ``output`` is the pack's own translation of ``sentence`` (from ``source`` to ``target``, DecodeOptions
    keys; a one-way pack names no source), with the pack's generation defaults, produced on the build
    machine with each of the int8 weight paths in ``int8_weights`` ("full", "reduced"; see
    engine/int8_weights.py; empty for other packs). ``pytorch`` is generate() of the original model;
    for a release pack the two are equal.
    """

    sentence: str
    target: str | None
    pytorch: str
    output: str
    int8_weights: tuple[str, ...] = ()
    source: str | None = None


# --- the manifest --------------------------------------------------------------------------------
# Every field the runtime (or a caller showing a pack) reads. Unknown fields are ignored and dropped.
# The architecture record is the family's own (engine/families); ids are checked against the
# vocabulary size, and the tensor index against shared.bin, afterwards.

TOKEN_ID = integer(0, limits.MAX_VOCAB_SIZE - 1)
EOS_IDS = list_of(TOKEN_ID, 1, limits.MAX_EOS_IDS)
LANGUAGE = text(r"[A-Za-z0-9_-]{1,32}")
# no folders, "..", drive letters, backslashes, colons or hidden files: a name that stays in the pack folder
FILE_NAME = text(r"[A-Za-z0-9_-][A-Za-z0-9._-]*", 128, "a plain file name (letters, digits, '.', '_', '-')")
BYTES = integer(0, limits.MAX_PACK_BYTES)
POSITIONS = integer(1, limits.MAX_POSITIONS)
LANGUAGE_NAME = text(r".{1,64}", 64, "a language's name")


def _printable_or_newlines(max_chars: int) -> Any:
    """Text that may hold line breaks and tabs (an instruction) but no other control characters."""

    def check(value: Any, where: str) -> str:
        if not (
            isinstance(value, str)
            and 0 < len(value) <= max_chars
            and value.replace("\n", "").replace("\t", "").isprintable()
        ):
            raise Invalid(where, f"must be text of at most {max_chars} characters, not {show(value)}")
        return value

    return check


INSTRUCTION = record({"text": _printable_or_newlines(limits.MAX_PROMPT_CHARS), "names": one_of("en", "zh")})

MANIFEST_SCHEMA = record(
    {
        "format_version": one_of(*READABLE_FORMATS),
        "name": optional(text(r".*", what="printable text")),
        "source_model": optional(record({"id": optional(text()), "revision": optional(text())})),
        "architecture": tagged("type", {name: record(f.architecture_fields) for name, f in families.FAMILIES.items()}),
        "tokenizer": optional(one_of("marian", "sentencepiece", "tokenizers")),
        "source_lang": LANGUAGE,
        "target_lang": LANGUAGE,
        "special_ids": record(
            {
                "pad": TOKEN_ID,
                "eos": TOKEN_ID,
                "eos_all": optional(EOS_IDS),
                "unk": optional(TOKEN_ID),
                "decoder_start": TOKEN_ID,
                "bos": optional(TOKEN_ID),  # what a BART source starts with
            }
        ),
        "bad_words_ids": optional(
            list_of(list_of(TOKEN_ID, 1, limits.MAX_BAD_WORD_TOKENS), 0, limits.MAX_BAD_WORDS), []
        ),
        "generation": record(
            {  # null: the engine's default (transformers' generate() default)
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
                # BART: the first token of every output (a many-to-many pack's is its target language's)
                "forced_bos_token_id": optional(TOKEN_ID),
            }
        ),
        # many-to-many families: languages in the model's own codes (source_lang/target_lang are then "mul");
        # encoder-decoders name each language's token, LLMs each language's name for their prompts
        "languages": optional(
            record(
                {
                    "source": list_of(LANGUAGE, 1, limits.MAX_TARGET_TOKENS),
                    "target": list_of(LANGUAGE, 1, limits.MAX_TARGET_TOKENS),
                    "tokens": optional(
                        map_of(LANGUAGE, pair(text(r"[^\s]{1,64}"), TOKEN_ID), limits.MAX_TARGET_TOKENS)
                    ),
                    "names": optional(map_of(LANGUAGE, pair(LANGUAGE_NAME, LANGUAGE_NAME), limits.MAX_TARGET_TOKENS)),
                    "source_token_position": optional(one_of("prefix", "suffix"), "prefix"),
                    "tokens_are_special": optional(BOOLEAN, True),
                }
            )
        ),
        # decoder-only packs: how a request becomes a prompt (engine/prompt.py)
        "prompt": optional(
            record(
                {
                    "chat_template": FILE_NAME,
                    "special_tokens": map_of(text(r"[a-z_]{1,32}"), text(r"[^\s]{1,64}"), 16),
                    "template_kwargs": map_of(text(r"[a-z_]{1,32}"), BOOLEAN, 16),
                    "message": one_of("text", "structured"),
                    # packs exported before these were recorded: the generation prompt, and eos_all only
                    "generation_prompt": optional(BOOLEAN, True),
                    "end_of_turn": optional(text(r"[^\s]{1,64}")),
                    "instructions": map_of(
                        one_of("default", "chinese", "terminology", "context", "formatted", "summarize"),
                        INSTRUCTION,
                        6,
                    ),
                    "term_line": optional(_printable_or_newlines(200), "{term} 翻译成 {translation}"),
                    "strip": optional(
                        record(
                            {
                                "think": optional(BOOLEAN, False),
                                "prefixes": optional(list_of(text(max_chars=64), 0, 8), []),
                            }
                        ),
                        {},
                    ),
                }
            )
        ),
        # mBART-50 and NLLB packs tokenized as M2M100 ("tokenizer": "sentencepiece"): the slow tokenizer's added
        # tokens, each kept whole in a text and skipped when decoding; "lstrip"/"rstrip": it takes the whitespace
        # on its left/right with it (engine/tokenizer.py)
        "added_tokens": optional(
            map_of(text(r"[^\s]{1,64}"), record({"lstrip": BOOLEAN, "rstrip": BOOLEAN}), limits.MAX_ADDED_TOKENS)
        ),
        # BART: the text the summarization pipeline puts before a source (the model's config.json "prefix")
        "source_prefix": optional(text(r".{1,32}", 32, "printable text of at most 32 characters")),
        "target_tokens": optional(
            map_of(text(r"[^\s<>]{1,64}"), text(r">>[^\s<>]{1,64}<<"), limits.MAX_TARGET_TOKENS), {}
        ),
        "default_target": optional(text(r"[^\s<>]{1,64}")),
        "quantization": optional(
            record(
                {
                    "mode": optional(one_of("none", "int8", "int4"), "none"),
                    "scheme": optional(text()),
                    "linear": optional(BOOLEAN, False),
                    "output_projection": optional(BOOLEAN, False),
                    "embeddings": optional(one_of("int8", "int4", "fp32"), "fp32"),
                    "block_size": optional(integer(16, 4096)),
                }
            ),
            {},
        ),
        "files": map_of(FILE_NAME, record({"sha256": text(r"[0-9a-f]{64}"), "size": BYTES}), limits.MAX_PACK_FILES),
        # written by the release pipeline (packaging/publish.py); absent in packs exported locally
        "pack_version": optional(integer(0, limits.MAX_PACK_VERSION)),
        "reference": optional(
            record(
                {
                    "sentence": text(max_chars=limits.MAX_REFERENCE_CHARS),
                    "source": optional(LANGUAGE),
                    "target": optional(text(r"[^\s<>]{1,64}")),
                    "pytorch": text(r".*", limits.MAX_REFERENCE_CHARS, "printable text"),
                    "output": text(r".*", limits.MAX_REFERENCE_CHARS, "printable text"),
                    "int8_weights": optional(list_of(one_of("full", "reduced"), 0, 2), []),
                }
            )
        ),
        "external_tensors": optional(
            map_of(
                text(),
                record(
                    {
                        "offset": BYTES,
                        "length": BYTES,
                        "dtype": one_of(*TENSOR_ITEM_BYTES),
                        "shape": list_of(BYTES, 0, limits.MAX_TENSOR_DIMS),
                        "graphs": list_of(one_of(*GRAPHS), 1, len(GRAPHS)),
                    }
                ),
                limits.MAX_EXTERNAL_TENSORS,
            ),
            {},
        ),
    }
)


def _check_consistency(m: dict[str, Any]) -> None:
    """What the schema cannot say field by field: how the fields agree with each other (the family's own
    rules first)."""
    family = family_of(m)
    vocab = m["architecture"]["vocab_size"]
    ids = m["special_ids"]
    forced = m["generation"]["forced_eos_token_id"]
    used = [(f"special_ids.{k}", v) for k, v in ids.items() if isinstance(v, int)]
    used += [(f"special_ids.eos_all[{i}]", v) for i, v in enumerate(ids["eos_all"] or [])]
    used += [(f"bad_words_ids[{i}][{j}]", v) for i, seq in enumerate(m["bad_words_ids"]) for j, v in enumerate(seq)]
    used += [("generation.forced_eos_token_id", v) for v in ([forced] if isinstance(forced, int) else forced or [])]
    families.check_ids_in_vocabulary(used, vocab)
    files = m["files"]
    for required in family.graphs + family.pack_tokenizer_files(m):
        if required not in files:
            raise Invalid("files", f"does not list {required}")
    total = sum(f["size"] for f in files.values())
    if total > limits.MAX_PACK_BYTES:
        raise Invalid("files", f"add up to {total} bytes, more than a pack may hold ({limits.MAX_PACK_BYTES})")
    index = m["external_tensors"]
    if index and SHARED_DATA not in files:
        raise Invalid("external_tensors", f"index {SHARED_DATA}, which files does not list")
    blob = files.get(SHARED_DATA, {"size": 0})["size"]
    for name, entry in index.items():
        where = f"external_tensors.{name}"
        if entry["offset"] + entry["length"] > blob:
            raise Invalid(where, f"reaches byte {entry['offset'] + entry['length']} of {SHARED_DATA}, which has {blob}")
        if math.prod(entry["shape"]) * TENSOR_ITEM_BYTES[entry["dtype"]] != entry["length"]:
            raise Invalid(
                where,
                f"is {entry['length']} bytes, not the size of a {entry['dtype']} tensor of shape {entry['shape']}",
            )
        if name.endswith(INT8_WEIGHT_SUFFIX) and name + INT8_SCALE_SUFFIX not in index:
            raise Invalid(where, f"is an int8 weight without its scales ({name + INT8_SCALE_SUFFIX})")
    family.check_manifest(m)


def validate_manifest(raw: Any, source: Path) -> dict[str, Any]:
    """The manifest as the runtime reads it: declared keys only, defaults filled in, every value checked."""
    try:
        manifest: dict[str, Any] = MANIFEST_SCHEMA(raw, "")
        _check_consistency(manifest)
    except Invalid as exc:
        raise PackError(f"{source}: {exc}") from None
    return manifest


# --- the pack ------------------------------------------------------------------------------------


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
    manifest: dict[str, Any]  # validated: every field of MANIFEST_SCHEMA is present, with its type and bounds

    @classmethod
    def open(cls, path: str | Path, *, verify: bool = True) -> ModelPack:
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
            if version not in READABLE_FORMATS or type(version) is not int:
                readable = " and ".join(map(str, READABLE_FORMATS))
                raise PackError(
                    f"{manifest_path}: pack format version {show(version)} is not supported "
                    f"(this Fanyi reads versions {readable}); export or fetch the model again"
                )
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
    # (the casts name the types MANIFEST_SCHEMA checked)
    @property
    def name(self) -> str:
        return self.manifest["name"] or self.path.name

    @property
    def source_lang(self) -> str:
        return cast(str, self.manifest["source_lang"])

    @property
    def target_lang(self) -> str:
        return cast(str, self.manifest["target_lang"])

    @property
    def quantization(self) -> str:
        return cast(str, self.manifest["quantization"]["mode"])

    @property
    def special_ids(self) -> dict[str, Any]:
        return cast(dict[str, Any], self.manifest["special_ids"])

    @property
    def generation(self) -> dict[str, Any]:
        return cast(dict[str, Any], self.manifest["generation"])

    @property
    def target_tokens(self) -> dict[str, str]:
        return dict(self.manifest["target_tokens"])

    @property
    def default_target(self) -> str | None:
        return cast(str | None, self.manifest["default_target"])

    @property
    def architecture(self) -> dict[str, Any]:
        return cast(dict[str, Any], self.manifest["architecture"])

    # --- many-to-many families (mBART-50, M2M100, NLLB): languages in the model's own codes ---------
    @property
    def family(self) -> Family:
        return family_of(self.manifest)

    @property
    def summarizes(self) -> bool:
        """Whether the pack writes summaries: a BART summarizer, an LLM pack with a summary instruction."""
        return self.family.summarizes(self.manifest)

    @property
    def translates(self) -> bool:
        return self.family.translates

    @property
    def source_languages(self) -> list[str]:
        return list((self.manifest["languages"] or {}).get("source") or [])

    @property
    def target_languages(self) -> list[str]:
        return list((self.manifest["languages"] or {}).get("target") or [])

    @property
    def language_names(self) -> dict[str, tuple[str, str]]:
        """Code → (English name, Chinese name) of a decoder-only pack's languages, as its prompts write them."""
        return dict((self.manifest["languages"] or {}).get("names") or {})

    @property
    def language_tokens(self) -> dict[str, tuple[str, int]]:
        """Code → (vocabulary token, id): "en_XX" → ("en_XX", 250004), "en" → ("__en__", 128022)."""
        return dict((self.manifest["languages"] or {}).get("tokens") or {})

    @property
    def pack_version(self) -> int | None:
        """The catalog version this pack was released as; None for packs exported locally."""
        return cast(int | None, self.manifest["pack_version"])

    @property
    def reference(self) -> Reference | None:
        raw = self.manifest["reference"]
        if raw is None:
            return None
        return Reference(
            raw["sentence"], raw["target"], raw["pytorch"], raw["output"], tuple(raw["int8_weights"]), raw["source"]
        )

    @property
    def size_bytes(self) -> int:
        return sum(f["size"] for f in self.manifest["files"].values())

    def file(self, name: str) -> Path:
        return self.path / name
