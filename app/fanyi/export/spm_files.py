"""Train small SentencePiece models and write them as a Hugging Face OPUS-MT tokenizer folder.

Build/test time only. The folder has the files Helsinki-NLP/opus-mt-* ship (source.spm, target.spm,
one shared vocab.json, tokenizer_config.json, special_tokens_map.json) so that both
transformers.MarianTokenizer and fanyi.engine.tokenizer.Tokenizer load it.
"""

from __future__ import annotations

import io
import json
import unicodedata
from collections.abc import Sequence
from pathlib import Path

import sentencepiece as spm

EOS, UNK, PAD = "</s>", "<unk>", "<pad>"
# <unk>, <s>, </s> of the SentencePiece model itself, plus the "▁" piece it always needs.
_SPM_RESERVED = 4


def _train_spm(corpus: Path, vocab_size: int, seed: int) -> bytes:
    text = corpus.read_text(encoding="utf-8")
    # With character_coverage=1.0 every character needs a piece; training refuses a vocab_size below
    # that, so grow it to an upper bound of the distinct characters (NFKC may add a few).
    chars = set(text) | set(unicodedata.normalize("NFKC", text))
    vocab_size = max(vocab_size, len(chars) + _SPM_RESERVED)
    spm.set_random_generator_seed(seed)
    model = io.BytesIO()
    spm.SentencePieceTrainer.train(
        input=str(corpus),
        model_writer=model,
        model_type="unigram",
        vocab_size=vocab_size,
        hard_vocab_limit=False,  # a small corpus may not yield vocab_size pieces
        character_coverage=1.0,
        num_threads=1,  # multi-threaded EM is not bit-for-bit reproducible
        minloglevel=2,
    )
    return model.getvalue()


def _pieces(model: bytes) -> list[str]:
    sp = spm.SentencePieceProcessor(model_proto=model)
    return [sp.id_to_piece(i) for i in range(sp.get_piece_size())
            if not (sp.is_control(i) or sp.is_unknown(i))]


def train_marian_tokenizer(
    out_dir: Path,
    source_corpus: Path,
    target_corpus: Path,
    *,
    source_vocab_size: int = 800,
    target_vocab_size: int = 800,
    target_tokens: Sequence[str] = (),
    source_lang: str = "en",
    target_lang: str = "zh",
    seed: int = 0,
) -> dict[str, int]:
    """Write an OPUS-MT shaped tokenizer folder into out_dir and return its vocab (token -> id).

    Ids: "</s>" 0, "<unk>" 1, the target tokens (e.g. ">>cmn_Hans<<"), source pieces then the
    target-only pieces in SentencePiece order, and "<pad>" last, as in opus-mt-en-zh where
    pad = vocab_size - 1 is also the decoder start. The same inputs always give the same files.
    """
    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    source_model = _train_spm(Path(source_corpus), source_vocab_size, seed)
    target_model = _train_spm(Path(target_corpus), target_vocab_size, seed)
    (out_dir / "source.spm").write_bytes(source_model)
    (out_dir / "target.spm").write_bytes(target_model)

    vocab: dict[str, int] = {}
    for token in [EOS, UNK, *target_tokens, *_pieces(source_model), *_pieces(target_model)]:
        if token != PAD:
            vocab.setdefault(token, len(vocab))
    vocab[PAD] = len(vocab)

    special = {"eos_token": EOS, "unk_token": UNK, "pad_token": PAD}
    config = {
        "tokenizer_class": "MarianTokenizer",
        "source_lang": source_lang,
        "target_lang": target_lang,
        **special,
        "model_max_length": 512,
        "separate_vocabs": False,
        "sp_model_kwargs": {},
    }
    _write_json(out_dir / "vocab.json", vocab)
    _write_json(out_dir / "tokenizer_config.json", config)
    _write_json(out_dir / "special_tokens_map.json", special)
    return vocab


def _write_json(path: Path, data: dict) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
