"""BART's byte-level BPE (RoBERTa's, GPT-2's bytes) read from tokenizer.json with `tokenizers`, no transformers.

Equal to transformers' BartTokenizerFast, which runs the same file through the same library: a source
is ``<s>`` + the text's pieces + ``</s>`` (its RobertaProcessing post-processor adds exactly those), the
pack's ``source_prefix`` put before the text first as the summarization pipeline puts the model's
``prefix`` (" " for bart-large-cnn). Decoding is ``decode(ids, skip_special_tokens=True)`` and the
optional English clean-up. A piece is bytes, not characters, so a stream is decoded by
chat_tokenizer.IncrementalDecoder: what the ids so far decode to, up to an unfinished character.

An id the tokenizer has and the model has no row for (bart-large-cnn's <mask>: the tokenizer has
50265 ids, the model 50264 rows) is read as <unk>, where transformers would fail on the lookup.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from tokenizers import Tokenizer as HFTokenizer

from .chat_tokenizer import IncrementalDecoder, check_chat_tokenizer
from .prompt import StripRule
from .tokenizer import clean_up_tokenization


class ByteLevelTokenizer:
    strips = True  # a summary has no surrounding whitespace
    strip = StripRule()  # nothing written around it to remove

    def __init__(
        self,
        path: Path,
        *,
        bos_id: int,
        eos_id: int,
        unk_id: int,
        model_vocab: int,
        prefix: str = "",
        clean_up_tokenization_spaces: bool = False,
    ) -> None:
        self._tok: HFTokenizer = check_chat_tokenizer(path)  # its decoder streams exactly
        self._tok.no_truncation()
        self._tok.no_padding()
        self.bos_id, self.eos_id, self.unk_id = bos_id, eos_id, unk_id
        self.model_vocab = model_vocab
        self.prefix = prefix
        self.vocab_size = self._tok.get_vocab_size(with_added_tokens=True)
        self.clean_up_tokenization_spaces = clean_up_tokenization_spaces

    def encode_text(self, text: str) -> list[int]:
        """The text's own pieces, no special tokens, the prefix not added (to count a text's length)."""
        ids: list[int] = self._tok.encode(text, add_special_tokens=False).ids
        return ids

    def encode(self, text: str, language_token: str | None = None) -> list[int]:
        ids = [self.bos_id, *self.encode_text(self.prefix + text), self.eos_id]
        return [i if i < self.model_vocab else self.unk_id for i in ids]

    def raw_decode(self, ids: Sequence[int]) -> str:
        # ids beyond the vocabulary are skipped by the library; negative ones it cannot take at all
        text = self._tok.decode([int(i) for i in ids if i >= 0], skip_special_tokens=True)
        return clean_up_tokenization(text) if self.clean_up_tokenization_spaces else text

    def decode(self, ids: Sequence[int]) -> str:
        return self.raw_decode(ids).strip()

    def id_to_piece(self, i: int) -> str | None:
        piece: str | None = self._tok.id_to_token(i)
        return piece

    def stream_decoder(self) -> IncrementalDecoder:
        return IncrementalDecoder(self)
