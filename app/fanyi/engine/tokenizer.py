"""SentencePiece + vocab.json tokenization without transformers: the same ids and text as
transformers' MarianTokenizer (OPUS-MT) and M2M100Tokenizer.

Mirrors transformers 4.57.6 `MarianTokenizer` with a shared vocab.json (`separate_vocabs: false`):

* Encoding: the text is first split on the special tokens ("</s>", "<unk>", "<pad>" appearing
  literally are kept as themselves, like the added-token trie, without stripping spaces around
  them); each other chunk loses a leading ">>xx<<" language code (whatever lies between ">>" and
  the first "<<"), is cut into pieces by the source SentencePiece model, and pieces missing from
  vocab.json become <unk>. "</s>" is appended.
* MarianTokenizer's Moses punctuation normalizer (sacremoses) is never applied when encoding in
  4.57.6, installed or not: `normalize()` exists but nothing calls it. So we do not normalize.
* Decoding (skip_special_tokens=True): </s>, <unk>, <pad> and ids outside the vocab are dropped,
  the remaining tokens go through the *target* SentencePiece model's decode_pieces (tokens it does
  not know come back verbatim, its own <unk> piece as " ⁇ "), "▁" becomes " ", the result is
  stripped. `clean_up_tokenization_spaces` defaults to False in 4.57.6 (the tokenizer_config.json
  of the folder may turn it on); when on, the same English clean-up replacements are applied.

M2M100 (`M2M100Tokenizer`) works the same way with one SentencePiece model for both sides, the
fairseq specials <s> <pad> </s> <unk>, no ">>xx<<" rule, and its language tokens ("__en__") as ids
after vocab.json's: a source is [language] pieces… </s>, and decoding skips the language tokens
with the other specials (when the folder lists them as special tokens, as facebook/m2m100_418M does).

mBART-50 and NLLB-200 packs exported from a folder without tokenizer.json run as M2M100 with the
vocabulary transformers' slow MBart50Tokenizer / NllbTokenizer gives (fanyi.export.slow_vocabulary)
and its added tokens as the specials: each is kept whole in a text, and one that strips (NLLB's and
mBART-50's <mask> strips on its left) takes the whitespace on that side with it, as the slow
tokenizer's tokenize() does.
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Mapping, Sequence
from functools import cached_property
from pathlib import Path
from typing import Any

import sentencepiece as spm

SPIECE_UNDERLINE = "▁"
EOS, UNK, PAD = "</s>", "<unk>", "<pad>"


def clean_up_tokenization(text: str) -> str:
    """transformers' PreTrainedTokenizerBase.clean_up_tokenization, replacement for replacement."""
    return (
        text.replace(" .", ".")
        .replace(" ?", "?")
        .replace(" !", "!")
        .replace(" ,", ",")
        .replace(" ' ", "'")
        .replace(" n't", "n't")
        .replace(" 'm", "'m")
        .replace(" 's", "'s")
        .replace(" 've", "'ve")
        .replace(" 're", "'re")
    )


def load_spm(path: Path) -> spm.SentencePieceProcessor:
    sp = spm.SentencePieceProcessor()
    sp.Load(str(path))
    return sp


def read_vocab(path: Path, size: int | None = None, specials: Sequence[str] = (EOS, UNK, PAD)) -> dict[str, int]:
    """vocab.json: token → id, with the special tokens; with `size`, every id is below it (the model's rows)."""
    vocab = json.loads(Path(path).read_text(encoding="utf-8"))
    bound = size if size is not None else float("inf")
    if not isinstance(vocab, dict) or not all(type(i) is int and 0 <= i < bound for i in vocab.values()):
        raise ValueError("not a vocabulary: an object of tokens and ids" + (f" below {size}" if size else ""))
    if missing := [token for token in specials if token not in vocab]:
        raise ValueError(f"the vocabulary lacks {', '.join(missing)}")
    return vocab


class Tokenizer:
    strips = True  # decode() strips the text at both ends (see detok.StreamDecoder)

    def __init__(
        self,
        source: spm.SentencePieceProcessor,
        target: spm.SentencePieceProcessor,
        vocab: dict[str, int],
        *,
        eos_token: str = EOS,
        unk_token: str = UNK,
        pad_token: str = PAD,
        clean_up_tokenization_spaces: bool = False,
        specials: Sequence[str] = (),
        lstrip: Collection[str] = (),
        rstrip: Collection[str] = (),
    ) -> None:
        """`specials`: further special tokens (kept whole in a text, skipped by decode), all in `vocab`;
        `lstrip` / `rstrip`: those of them that take the whitespace on their left / right with them."""
        for token in (eos_token, unk_token, pad_token, *specials):
            if token not in vocab:
                raise KeyError(f"{token!r} must be in the vocab")
        self._source = source
        self._target = target
        self._vocab = vocab
        self._specials = {eos_token, unk_token, pad_token, *specials}
        self._lstrip, self._rstrip = frozenset(lstrip), frozenset(rstrip)
        self.eos_id = vocab[eos_token]
        self.unk_id = vocab[unk_token]
        self.pad_id = vocab[pad_token]
        self.vocab_size = len(vocab)
        self.unk_token = unk_token
        self.clean_up_tokenization_spaces = clean_up_tokenization_spaces
        # Built like MarianTokenizer.decoder, so a duplicated id resolves to the same token.
        self._decoder = {i: t for t, i in vocab.items()}
        special_ids = {vocab[t] for t in self._specials}
        self._text_tokens = {i: t for i, t in self._decoder.items() if i not in special_ids}
        # Longest first: the leftmost-longest match the added-token trie finds.
        alternatives = sorted(self._specials, key=len, reverse=True)
        self._special_split = re.compile("(" + "|".join(map(re.escape, alternatives)) + ")")

    @classmethod
    def from_files(
        cls,
        source_spm: Path,
        target_spm: Path,
        vocab_json: Path,
        *,
        eos_token: str = EOS,
        unk_token: str = UNK,
        pad_token: str = PAD,
        clean_up_tokenization_spaces: bool = False,
    ) -> Tokenizer:
        return cls(
            load_spm(Path(source_spm)),
            load_spm(Path(target_spm)),
            read_vocab(Path(vocab_json), specials=(eos_token, unk_token, pad_token)),
            eos_token=eos_token,
            unk_token=unk_token,
            pad_token=pad_token,
            clean_up_tokenization_spaces=clean_up_tokenization_spaces,
        )

    # --- encoding -------------------------------------------------------------------------------
    def encode(self, text: str, target_token: str | None = None) -> list[int]:
        """Source ids as MarianTokenizer(text)["input_ids"], ending with </s>.

        target_token ("cmn_Hans" or ">>cmn_Hans<<") is prefixed as if the text started with it.
        """
        if target_token:
            if not (target_token.startswith(">>") and target_token.endswith("<<")):
                target_token = f">>{target_token}<<"
            text = target_token + text
        return self._encode(text, self._source)

    def encode_target(self, text: str) -> list[int]:
        """Target-side ids as MarianTokenizer(text_target=text)["input_ids"]."""
        return self._encode(text, self._target)

    # MarianTokenizer strips a leading ">>xx<<" language code from every chunk into its own token
    marian_codes = True

    def _encode(self, text: str, sp: spm.SentencePieceProcessor) -> list[int]:
        vocab, unk = self._vocab, self.unk_id
        chunks = self._special_split.split(text)  # text, special, text, …, text
        for i in range(1, len(chunks), 2):
            if chunks[i] in self._lstrip:
                chunks[i - 1] = chunks[i - 1].rstrip()
            if chunks[i] in self._rstrip:
                chunks[i + 1] = chunks[i + 1].lstrip()
        ids: list[int] = []
        for i, chunk in enumerate(chunks):
            if i % 2:
                ids.append(vocab[chunk])
                continue
            if self.marian_codes and chunk.startswith(">>") and (end := chunk.find("<<")) != -1:
                ids.append(vocab.get(chunk[: end + 2], unk))
                chunk = chunk[end + 2 :]
            if chunk:
                ids.extend(vocab.get(piece, unk) for piece in sp.encode(chunk, out_type=str))
        ids.append(self.eos_id)
        return ids

    # --- decoding -------------------------------------------------------------------------------
    def decode(self, ids: Sequence[int]) -> str:
        """Text as MarianTokenizer.decode(ids, skip_special_tokens=True)."""
        tokens = self._text_tokens
        pieces = [tokens[i] for i in map(int, ids) if i in tokens]
        text = self._target.decode_pieces(pieces).replace(SPIECE_UNDERLINE, " ").strip()
        return clean_up_tokenization(text) if self.clean_up_tokenization_spaces else text

    def piece_text(self, i: int) -> str:
        """What id i contributes to decode() away from the start, before strip and clean-up.

        decode(ids) == strip("".join(piece_text(i) for i in ids)), then clean-up if enabled:
        SentencePiece decodes piece by piece, and its one context rule (dropping the first
        piece's leading "▁") only removes leading whitespace, which strip() removes anyway.
        """
        table = self._piece_texts
        return table[i] if 0 <= i < len(table) else ""

    @cached_property
    def _piece_texts(self) -> list[str]:
        sp = self._target
        unk_piece = sp.id_to_piece(sp.unk_id())
        unk_surface = sp.decode_pieces([unk_piece])
        table = [""] * (max(self._decoder, default=-1) + 1)
        for i, token in self._text_tokens.items():
            j = sp.piece_to_id(token)
            if sp.is_byte(j):
                # Byte pieces decode jointly (UTF-8 sequences), which per-piece text cannot express.
                raise ValueError("target SentencePiece models with byte fallback are not supported")
            if sp.is_control(j):
                text = ""
            elif sp.is_unknown(j):
                text = unk_surface if token == unk_piece else token
            else:
                text = token
            table[i] = text.replace(SPIECE_UNDERLINE, " ")
        return table

    # --- vocabulary -----------------------------------------------------------------------------
    def id_to_piece(self, i: int) -> str:
        return self._decoder.get(i, self.unk_token)

    def piece_to_id(self, piece: str) -> int:
        return self._vocab.get(piece, self.unk_id)


class M2M100Tokenizer(Tokenizer):
    """transformers' M2M100Tokenizer: one SentencePiece model, a fairseq vocab.json, language tokens after it."""

    marian_codes = False

    def __init__(
        self,
        sp: spm.SentencePieceProcessor,
        vocab: dict[str, int],
        languages: dict[str, int],
        *,
        languages_are_special: bool = True,
        clean_up_tokenization_spaces: bool = False,
        source_token_position: str = "prefix",
        added: Mapping[str, Mapping[str, bool]] | None = None,
    ) -> None:
        """`added`: the slow tokenizer's added tokens of an mBART-50 or NLLB vocabulary, token → its
        "lstrip" and "rstrip"; they are then the special tokens (the languages among them)."""
        # M2M100Tokenizer looks language tokens up before vocab.json, so they win over a piece of that name
        full = {**vocab, **languages}
        specials = ("<s>", *(languages if languages_are_special else ())) if added is None else tuple(added)
        super().__init__(
            sp,
            sp,
            full,
            specials=specials,
            clean_up_tokenization_spaces=clean_up_tokenization_spaces,
            lstrip=[t for t, how in (added or {}).items() if how["lstrip"]],
            rstrip=[t for t, how in (added or {}).items() if how["rstrip"]],
        )
        self._languages = languages
        self._suffix = source_token_position == "suffix"

    @classmethod
    def from_files(  # type: ignore[override]
        cls, spm_model: Path, vocab_json: Path, languages: dict[str, int], **kwargs: Any
    ) -> M2M100Tokenizer:
        vocab = json.loads(Path(vocab_json).read_text(encoding="utf-8"))
        return cls(load_spm(Path(spm_model)), vocab, languages, **kwargs)

    def encode(self, text: str, language_token: str | None = None) -> list[int]:
        """[language_token] pieces… </s>, as M2M100Tokenizer(text) with src_lang set."""
        ids = self._encode(text, self._source)
        if language_token is None:
            return ids
        lang = self._languages[language_token]
        return ids + [lang] if self._suffix else [lang, *ids]
