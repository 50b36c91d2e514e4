"""mBART-50's and NLLB-200's slow tokenizers (transformers' MBart50Tokenizer, NllbTokenizer) read from a folder's
sentencepiece.bpe.model and configuration without transformers: every token's id and the added tokens, as
transformers 4.57.6 makes them (PreTrainedTokenizerBase._from_pretrained, the classes' __init__,
PreTrainedTokenizer.__init__ and _add_tokens).

A folder without tokenizer.json is exported with this: the pack holds the SentencePiece model, the vocabulary as
vocab.json (token → id, M2M100's format) and the added tokens in its manifest, and the runtime tokenizes it as
M2M100's (fanyi.engine.tokenizer.M2M100Tokenizer). transformers' rules, in its order:

1. ids are fairseq's: <s> 0, <pad> 1, </s> 2, <unk> 3, SentencePiece's piece i at i + 1, and a text
   SentencePiece gives its unknown id to at <unk>'s (the classes' _convert_token_to_id); MBart50Tokenizer puts
   its 52 language codes and then "<mask>" after the pieces (fairseq_tokens_to_ids);
2. the added tokens are tokenizer_config.json's "added_tokens_decoder" where it has one, else added_tokens.json's
   (which strip no whitespace); NllbTokenizer puts its <s> <pad> </s> <unk> at 0–3 before them;
3. a special token the configuration names takes the added token of its text (with "added_tokens_decoder" only:
   for the older files from_pretrained matches none); a special token given as text is the class's: <mask> takes
   the whitespace on its left with it;
4. then the special tokens, in the order bos, eos, unk, sep, pad, cls, mask, the additional ones, each text
   once, are added — one given as text only when no added token has that text — at the id the vocabulary has
   for the text, else at the next new id, each replacing the added token at its id. So an NLLB folder that
   numbers no languages has <mask> right after the pieces and the languages after it.

The runtime reproduces the slow tokenizer where every added token is a special token (kept whole in a text
and skipped when decoding) that is not single_word, and each token has one id; a folder where that is not so
is refused in one line.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import sentencepiece as spm

from . import fairseq_languages
from .errors import ExportError

SPM_FILE = "sentencepiece.bpe.model"
SPECIAL_KEYS = ("bos_token", "eos_token", "unk_token", "sep_token", "pad_token", "cls_token", "mask_token")
FAIRSEQ_SPECIALS = ("<s>", "<pad>", "</s>", "<unk>")  # ids 0–3
RUNTIME_SPECIALS = {"eos_token": "</s>", "unk_token": "<unk>", "pad_token": "<pad>"}  # what M2M100Tokenizer uses
# the special tokens each class's __init__ makes an AddedToken of when given as text: key → whether it strips
# the whitespace on its left
CLASS_ADDED: dict[str, dict[str, bool]] = {
    "MBart50Tokenizer": {"mask_token": True},
    "NllbTokenizer": {
        "bos_token": False,
        "pad_token": False,
        "eos_token": False,
        "unk_token": False,
        "mask_token": True,
    },
}
NLLB_FIRST = ("bos_token", "pad_token", "eos_token", "unk_token")  # NllbTokenizer's ids 0–3


@dataclass(frozen=True)
class AddedToken:
    """transformers' AddedToken as a slow tokenizer uses it: its text and the whitespace it takes with it."""

    content: str
    lstrip: bool = False
    rstrip: bool = False
    single_word: bool = False

    @classmethod
    def of(cls, value: dict[str, Any]) -> AddedToken:
        """An AddedToken as a configuration writes it ({"content": …, "lstrip": …})."""
        return cls(
            str(value.get("content")),
            bool(value.get("lstrip", False)),
            bool(value.get("rstrip", False)),
            bool(value.get("single_word", False)),
        )


Token = str | AddedToken


def _text(token: Token) -> str:
    return token if isinstance(token, str) else token.content


def _token(value: Any) -> Token | None:
    return AddedToken.of(value) if isinstance(value, dict) else value if isinstance(value, str) else None


@dataclass(frozen=True)
class SlowVocabulary:
    """The slow tokenizer's vocabulary: each token's id and the added tokens, checked to be what the runtime runs."""

    ids: dict[str, int]  # token → id: vocab.json
    added: dict[int, AddedToken]  # the added tokens by id

    def convert_tokens_to_ids(self, token: str) -> int:
        return self.ids.get(token, self.ids["<unk>"])

    @property
    def size(self) -> int:
        """The rows of the embedding the ids need."""
        return max(self.ids.values()) + 1

    def vocab_json(self) -> bytes:
        return (json.dumps(self.ids, ensure_ascii=False, indent=0) + "\n").encode("utf-8")

    def manifest_added_tokens(self) -> dict[str, dict[str, bool]]:
        """The manifest's "added_tokens": each added token and the whitespace it takes with it."""
        return {t.content: {"lstrip": t.lstrip, "rstrip": t.rstrip} for _, t in sorted(self.added.items())}


def _load_spm(path: Path) -> spm.SentencePieceProcessor:
    sp = spm.SentencePieceProcessor()
    try:
        sp.Load(str(path))
    except (OSError, RuntimeError) as exc:
        raise ExportError(f"{path} is not a SentencePiece model: {str(exc).splitlines()[0]}") from None
    return sp


def _read_added_tokens_json(path: Path) -> dict[int, AddedToken]:
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ExportError(f"{path} cannot be read: {exc}") from None
    if not isinstance(data, dict) or not all(isinstance(i, int) for i in data.values()):
        raise ExportError(f"{path} is not an object of tokens and ids")
    return {i: AddedToken(str(text)) for text, i in data.items()}


def read_slow_vocabulary(
    folder: Path,
    tokenizer_class: str,
    config: dict[str, Any],
    given: dict[str, Any],
    defaults: dict[str, str],
    given_additional: Sequence[Any],
    additional: Sequence[str],
) -> SlowVocabulary:
    """The vocabulary of `tokenizer_class` ("MBart50Tokenizer" or "NllbTokenizer") from a folder: `config` is
    tokenizer_config.json; `given` and `given_additional` the special tokens from_pretrained hands the class
    (tokenizer_config.json's, and special_tokens_map.json's in the older format) as written; `defaults` the
    class's; `additional` the texts of its additional special tokens after its own rule for languages.
    ExportError, one line, for a folder the runtime cannot reproduce."""
    sp = _load_spm(folder / SPM_FILE)
    pieces = [sp.id_to_piece(i) for i in range(sp.get_piece_size())]
    mbart = tokenizer_class == "MBart50Tokenizer"
    fairseq: dict[str, int] = {}  # MBart50Tokenizer's fairseq_tokens_to_ids
    if mbart:
        codes = fairseq_languages.MBART50
        fairseq = {t: i for i, t in enumerate(FAIRSEQ_SPECIALS)}
        fairseq |= {code: len(pieces) + 1 + i for i, code in enumerate(codes)}
        fairseq["<mask>"] = len(pieces) + 1 + len(codes)
    fairseq_ids = {i: t for t, i in fairseq.items()}
    base_size = len(pieces) + 1 + (len(fairseq_languages.MBART50) + 1 if mbart else 0)  # the class's vocab_size

    # 2. the added tokens from_pretrained reads
    by_text: dict[str, AddedToken] = {}
    if "added_tokens_decoder" in config:
        decoder_config = config["added_tokens_decoder"]
        if not isinstance(decoder_config, dict) or not all(
            str(i).isdigit() and isinstance(t, dict) for i, t in decoder_config.items()
        ):
            raise ExportError(
                f"{folder / 'tokenizer_config.json'}: added_tokens_decoder is not an object of ids and tokens"
            )
        loaded = {int(i): AddedToken.of(t) for i, t in decoder_config.items()}
        by_text = {t.content: t for t in loaded.values()}
    else:
        loaded = _read_added_tokens_json(folder / "added_tokens.json")

    # 3. the special tokens the class is made with
    named: dict[str, Token | None] = {}
    for key in SPECIAL_KEYS:
        token = _token(given[key]) if key in given else defaults.get(key)
        if key in given and token is not None:
            token = by_text.get(_text(token), token)
        if isinstance(token, str) and key in CLASS_ADDED[tokenizer_class]:
            token = AddedToken(token, lstrip=CLASS_ADDED[tokenizer_class][key])
        named[key] = token
    for key, text in RUNTIME_SPECIALS.items():
        token = named[key]
        if token is None or _text(token) != text:
            raise ExportError(f"{folder}: the {tokenizer_class}'s {key} is not {text}; Fanyi runs fairseq's")
    written = {_text(t): t for t in map(_token, given_additional) if isinstance(t, AddedToken)}
    extra: list[Token] = [written.get(t, t) for t in additional]

    # 4. PreTrainedTokenizer.__init__: the added tokens, then each special token not yet added
    decoder: dict[int, AddedToken] = {}
    for i, key in enumerate(NLLB_FIRST if not mbart else ()):
        token = named[key]
        if not isinstance(token, AddedToken):
            raise ExportError(f"{folder}: the {tokenizer_class} has no {key}")
        decoder[i] = token
    decoder.update(loaded)
    encoder = {t.content: i for i, t in decoder.items()}

    def id_to_token(i: int) -> str | None:
        if i in decoder:
            return decoder[i].content
        if i in fairseq_ids:
            return fairseq_ids[i]
        return pieces[i - 1] if 0 < i <= len(pieces) else None

    def vocabulary() -> dict[str, int]:  # get_vocab()
        found = {t: i for i in range(base_size) if (t := id_to_token(i)) is not None}
        return found | {t.content: i for i, t in sorted(decoder.items())}

    extended: list[Token] = []  # all_special_tokens_extended
    seen: set[str] = set()
    for value in [*named.values(), extra]:
        if not value:
            continue
        fresh = [t for t in (value if isinstance(value, list) else [value]) if _text(t) not in seen]
        seen.update(map(_text, fresh))
        extended += fresh
    current = vocabulary()
    new = len(current)
    for token in extended:
        if isinstance(token, str):
            if token in encoder:
                continue
            token = AddedToken(token)
        if token.content not in current:
            current[token.content], new = new, new + 1
        decoder[current[token.content]] = token
        encoder[token.content] = current[token.content]

    # what the runtime runs: each added token is a special token, kept whole and skipped when decoding
    specials = {_text(t) for t in extended}
    for token in decoder.values():
        if token.content not in specials or token.single_word:
            raise ExportError(
                f"{folder}: the {tokenizer_class}'s added token {token.content!r} is "
                + ("single_word" if token.single_word else "not a special token")
                + ", which Fanyi does not run; export a folder with its tokenizer.json"
            )
    unk_id = encoder["<unk>"]

    def convert(text: str) -> int:  # convert_tokens_to_ids
        if text in encoder:
            return encoder[text]
        if text in fairseq:
            return fairseq[text]
        piece: int = sp.piece_to_id(text)
        return piece + 1 if piece else unk_id

    # texts that are unknown to SentencePiece encode as <unk> without being listed
    texts = dict.fromkeys([*pieces, *fairseq, *encoder])
    ids = {t: i for t in texts if (i := convert(t)) != unk_id or t == "<unk>"}
    by_id = {i: t for t, i in ids.items()}
    for i in sorted(set(range(base_size)) | set(decoder)):
        token = id_to_token(i)
        if token is not None and by_id.get(i) != token:
            raise ExportError(
                f"{folder}: the {tokenizer_class} reads id {i} as {token!r}, which it encodes as "
                f"{ids.get(token, unk_id)}; Fanyi runs a vocabulary where each token has one id"
            )
    return SlowVocabulary(dict(sorted(ids.items(), key=lambda kv: kv[1])), decoder)
