"""What the exporter reads of a model's tokenizer, derived from its files as transformers' AutoTokenizer would give it.

The families ask a tokenizer for its special tokens, its unknown token's id, its chat template, its
language tokens and their ids (fanyi.engine.families: manifest_languages, manifest_prompt). transformers
answers from tokenizer_config.json, special_tokens_map.json, chat_template.jinja, tokenizer.json or
vocab.json and the defaults of its tokenizer class; HfTokenizer answers the same questions from the same
files with the same rules and no transformers (tests/test_export_readers.py compares the two):

- a special token is the class's default, replaced by tokenizer_config.json's value (null included); a
  configuration without "added_tokens_decoder" (the older format) is then overridden by special_tokens_map.json;
- the chat template is chat_template.jinja where there is one, else tokenizer_config.json's "chat_template"
  (its "default" where it holds several);
- mBART-50's and NLLB's language codes default to fairseq's lists, which mBART-50 also appends to any it is
  given; M2M100's language tokens are "__xx__", numbered after vocab.json;
- an mBART-50 or NLLB folder without tokenizer.json is read as its slow tokenizer (MBart50Tokenizer,
  NllbTokenizer) reads sentencepiece.bpe.model: fanyi.export.slow_vocabulary.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from tokenizers import Tokenizer

from . import fairseq_languages
from .errors import ExportError
from .slow_vocabulary import CLASS_ADDED, SPECIAL_KEYS, SPM_FILE, read_slow_vocabulary

CHAT_TEMPLATE_FILE = "chat_template.jinja"
# the special tokens each tokenizer class assumes when its configuration names none (its __init__'s defaults)
CLASS_DEFAULTS: dict[str, dict[str, str]] = {
    "MarianTokenizer": {"eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"},
    "M2M100Tokenizer": {
        "bos_token": "<s>",
        "eos_token": "</s>",
        "sep_token": "</s>",
        "pad_token": "<pad>",
        "unk_token": "<unk>",
    },
    "MBart50Tokenizer": {
        "eos_token": "</s>",
        "sep_token": "</s>",
        "cls_token": "<s>",
        "unk_token": "<unk>",
        "pad_token": "<pad>",
        "mask_token": "<mask>",
    },
    "NllbTokenizer": {
        "bos_token": "<s>",
        "eos_token": "</s>",
        "sep_token": "</s>",
        "cls_token": "<s>",
        "unk_token": "<unk>",
        "pad_token": "<pad>",
        "mask_token": "<mask>",
    },
    "BartTokenizer": {
        "bos_token": "<s>",
        "eos_token": "</s>",
        "sep_token": "</s>",
        "cls_token": "<s>",
        "unk_token": "<unk>",
        "pad_token": "<pad>",
        "mask_token": "<mask>",
    },
    "Qwen2Tokenizer": {"unk_token": "<|endoftext|>", "eos_token": "<|endoftext|>", "pad_token": "<|endoftext|>"},
    "GemmaTokenizer": {"unk_token": "<unk>", "bos_token": "<bos>", "eos_token": "<eos>", "pad_token": "<pad>"},
}


def _read_json(path: Path) -> dict[str, Any]:
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ExportError(f"{path} cannot be read: {exc}") from None
    return data if isinstance(data, dict) else {}


def _content(token: Any) -> str | None:
    """A token as a configuration writes it: a string, or an AddedToken's {"content": …}."""
    if isinstance(token, dict):
        token = token.get("content")
    return token if isinstance(token, str) else None


def _contents(tokens: Any) -> list[str]:
    return [t for t in (_content(x) for x in tokens or []) if t is not None]


class HfTokenizer:
    """A model folder's tokenizer as the exporter needs it, with the attribute names transformers uses."""

    def __init__(self, folder: Path, default_class: str):
        self.folder = folder
        config = _read_json(folder / "tokenizer_config.json")
        self.config = config
        self.tokenizer_class = str(config.get("tokenizer_class") or default_class).removesuffix("Fast")
        defaults = CLASS_DEFAULTS.get(self.tokenizer_class, {})
        # the special tokens as from_pretrained hands them to the class, as written (text or AddedToken)
        given = {key: config[key] for key in SPECIAL_KEYS if key in config}
        given_additional = list(config.get("additional_special_tokens") or [])
        if "added_tokens_decoder" not in config:  # the older format: special_tokens_map.json has the last word
            legacy = _read_json(folder / "special_tokens_map.json")
            given.update({key: legacy[key] for key in SPECIAL_KEYS if key in legacy})
            known = _contents(given_additional)
            given_additional += [t for t in legacy.get("additional_special_tokens") or [] if _content(t) not in known]
        self._values: dict[str, str | None] = {**defaults, **{key: _content(v) for key, v in given.items()}}
        self.additional_special_tokens = self._class_languages(
            _contents(given_additional), "additional_special_tokens" in config
        )
        # NLLB's classes read it; the others ignore it
        self.legacy_behaviour = self.tokenizer_class == "NllbTokenizer" and bool(config.get("legacy_behaviour", False))
        fast = folder / "tokenizer.json"
        self._json = Tokenizer.from_file(str(fast)) if fast.is_file() else None
        # mBART-50's and NLLB's slow tokenizer where the folder has no tokenizer.json
        self.slow = (
            read_slow_vocabulary(
                folder, self.tokenizer_class, config, given, defaults, given_additional, self.additional_special_tokens
            )
            if self._json is None and self.tokenizer_class in CLASS_ADDED and (folder / SPM_FILE).is_file()
            else None
        )
        self._vocab: dict[str, int] = _read_json(folder / "vocab.json") if self._json is None else {}
        self._added = self._added_tokens(config)
        self.lang_code_to_token: dict[str, str] = {}
        self.lang_code_to_id: dict[str, int] = {}
        if self.tokenizer_class == "M2M100Tokenizer":
            codes = fairseq_languages.M2M100.get(str(config.get("language_codes", "m2m100")), ())
            self.lang_code_to_token = {code: f"__{code}__" for code in codes}
            self.lang_code_to_id = {code: len(self._vocab) + i for i, code in enumerate(codes)}

    def _class_languages(self, given: list[str], configured: bool) -> list[str]:
        """The additional special tokens after the class's own rule for language codes."""
        if self.tokenizer_class == "MBart50Tokenizer":
            return given + [c for c in fairseq_languages.MBART50 if c not in given]
        if self.tokenizer_class == "NllbTokenizer" and not configured and not given:
            return list(fairseq_languages.NLLB)
        return given

    def _added_tokens(self, config: dict[str, Any]) -> dict[str, int]:
        """Tokens added over a slow tokenizer's vocabulary: tokenizer_config.json's added_tokens_decoder, else
        added_tokens.json."""
        decoder = config.get("added_tokens_decoder")
        if isinstance(decoder, dict):
            return {c: int(i) for i, token in decoder.items() if (c := _content(token)) is not None}
        return {str(k): int(v) for k, v in _read_json(self.folder / "added_tokens.json").items()}

    # --- what the families ask -------------------------------------------------------------------------
    @property
    def chat_template(self) -> str | None:
        path = self.folder / CHAT_TEMPLATE_FILE
        if path.is_file():
            try:
                return path.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as exc:
                raise ExportError(f"{path} cannot be read: {exc}") from None
        template = self.config.get("chat_template")
        if isinstance(template, list):  # several named templates
            named = {t.get("name"): t.get("template") for t in template if isinstance(t, dict)}
            template = named.get("default")
        return template if isinstance(template, str) else None

    @property
    def special_tokens_map(self) -> dict[str, Any]:
        found: dict[str, Any] = {key: value for key, value in self._values.items() if value is not None}
        if self.additional_special_tokens:
            found["additional_special_tokens"] = list(self.additional_special_tokens)
        return {key: found[key] for key in (*SPECIAL_KEYS, "additional_special_tokens") if key in found}

    @property
    def all_special_tokens(self) -> list[str]:
        named = [v for key in SPECIAL_KEYS if (v := self._values.get(key)) is not None]
        return list(dict.fromkeys(named + self.additional_special_tokens))

    @property
    def unk_token(self) -> str | None:
        return self._values.get("unk_token")

    @property
    def unk_token_id(self) -> int | None:
        return None if self.unk_token is None else self.convert_tokens_to_ids(self.unk_token)

    def convert_tokens_to_ids(self, token: str) -> int | None:
        if self.slow is not None:
            return self.slow.convert_tokens_to_ids(token)
        if self._json is not None:
            found: int | None = self._json.token_to_id(token)
            if found is None and token != self.unk_token:
                return self.unk_token_id
            return found
        if token in self._added:
            return self._added[token]
        if token in self.lang_code_to_token.values():
            code = token[2:-2]
            return self.lang_code_to_id[code]
        if token in self._vocab:
            return self._vocab[token]
        return None if self.unk_token is None else self._vocab.get(self.unk_token)
