"""Train small SentencePiece models and write them as Hugging Face tokenizer folders.

Build/test time only. OPUS-MT folders have the files Helsinki-NLP/opus-mt-* ship (source.spm,
target.spm, one shared vocab.json, tokenizer_config.json, special_tokens_map.json) so that both
transformers.MarianTokenizer and fanyi.engine.tokenizer.Tokenizer load them; mBART-50, M2M100 and
NLLB-200 folders have what facebook/mbart-large-50-many-to-many-mmt, facebook/m2m100_418M and
facebook/nllb-200-distilled-600M ship.
"""

from __future__ import annotations

import io
import json
import unicodedata
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

import sentencepiece as spm

if TYPE_CHECKING:
    from transformers import PreTrainedTokenizerFast

EOS, UNK, PAD = "</s>", "<unk>", "<pad>"
# <unk>, <s>, </s> of the SentencePiece model itself, plus the "▁" piece it always needs.
_SPM_RESERVED = 4


def _train_spm(corpus: Path, vocab_size: int, seed: int, model_type: str = "unigram") -> bytes:
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
        model_type=model_type,
        vocab_size=vocab_size,
        hard_vocab_limit=False,  # a small corpus may not yield vocab_size pieces
        character_coverage=1.0,
        num_threads=1,  # multi-threaded EM is not bit-for-bit reproducible
        minloglevel=2,
    )
    return model.getvalue()


def _pieces(model: bytes) -> list[str]:
    sp = spm.SentencePieceProcessor(model_proto=model)
    return [sp.id_to_piece(i) for i in range(sp.get_piece_size()) if not (sp.is_control(i) or sp.is_unknown(i))]


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


def _write_json(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")


# --- many-to-many families: one SentencePiece model for every language --------------------------


def pad_sentencepiece(model: bytes, pieces: int) -> bytes:
    """A unigram model grown to `pieces` pieces with "▁filler<i>" ones no real text segments into:
    the size of a real model's vocabulary (250k for mBART-50), for size and speed numbers."""
    from sentencepiece import sentencepiece_model_pb2

    pb2: Any = sentencepiece_model_pb2  # protobuf makes its classes on import: no static types
    proto = pb2.ModelProto()
    proto.ParseFromString(model)
    for i in range(pieces - len(proto.pieces)):
        proto.pieces.add(piece=f"▁filler{i}", score=-100.0, type=pb2.ModelProto.SentencePiece.NORMAL)
    serialized: bytes = proto.SerializeToString()
    return serialized


def _train_multilingual(
    out_dir: Path, corpora: Sequence[Path], vocab_size: int, seed: int, model_type: str, pieces: int | None = None
) -> Path:
    text = "".join(Path(c).read_text(encoding="utf-8") for c in corpora)
    joined = out_dir / ".corpus.txt"
    joined.write_text(text, encoding="utf-8")
    try:
        model = _train_spm(joined, vocab_size, seed, model_type)
    finally:
        joined.unlink()
    if pieces is not None:
        model = pad_sentencepiece(model, pieces)
    path = out_dir / "sentencepiece.bpe.model"
    path.write_bytes(model)
    return path


def train_fast_tokenizer(
    out_dir: Path,
    family: str,
    corpora: Sequence[Path],
    *,
    vocab_size: int = 1200,
    seed: int = 0,
    pieces: int | None = None,
) -> int:
    """An mBART-50 ("mbart50") or NLLB-200 ("nllb") tokenizer folder as those repositories ship it:
    sentencepiece.bpe.model, tokenizer.json (made by transformers from it), tokenizer_config.json,
    special_tokens_map.json. Ids follow fairseq: <s> 0, <pad> 1, </s> 2, <unk> 3, each SentencePiece
    piece at its id + 1, then <mask> and the language codes. Returns the tokenizer's length.

    `pieces` grows the SentencePiece model to a real model's size (a unigram one for both then)."""
    from transformers import MBart50TokenizerFast, NllbTokenizerFast

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    # mBART's model is a unigram one, NLLB's BPE: between them both kinds are covered
    model_type = "unigram" if pieces else {"mbart50": "unigram", "nllb": "bpe"}[family]
    spm_path = _train_multilingual(out_dir, corpora, vocab_size, seed, model_type, pieces)
    tok: PreTrainedTokenizerFast
    if family == "mbart50":
        # facebook/mbart-large-50-many-to-many-mmt names <s> as its bos token too (the fast class alone does not)
        tok = MBart50TokenizerFast(vocab_file=str(spm_path), src_lang="en_XX", tgt_lang="zh_CN", bos_token="<s>")
    else:
        tok = NllbTokenizerFast(vocab_file=str(spm_path), src_lang="eng_Latn", tgt_lang="zho_Hans")
    tok.save_pretrained(out_dir)
    return len(tok)


def train_m2m100_tokenizer(
    out_dir: Path, corpora: Sequence[Path], *, vocab_size: int = 1200, seed: int = 0, min_count: int = 2
) -> int:
    """An M2M100 tokenizer folder: sentencepiece.bpe.model and a fairseq dictionary as vocab.json
    (<s> 0, <pad> 1, </s> 2, <unk> 3, then pieces by falling frequency in the corpus, as fairseq
    builds it; pieces seen fewer than `min_count` times are left out and so encode as <unk>).
    The 100 language tokens (__en__ …) and 8 "madeupword" ids follow the vocabulary in the model.
    Returns the model's vocabulary size."""
    from transformers import M2M100Tokenizer
    from transformers.models.m2m_100.tokenization_m2m_100 import FAIRSEQ_LANGUAGE_CODES

    FAIRSEQ_M2M100_CODES = FAIRSEQ_LANGUAGE_CODES["m2m100"]

    out_dir = Path(out_dir)
    out_dir.mkdir(parents=True, exist_ok=True)
    spm_path = _train_multilingual(out_dir, corpora, vocab_size, seed, "bpe")
    sp = spm.SentencePieceProcessor(model_file=str(spm_path))
    counts: Counter[str] = Counter()
    for corpus in corpora:
        for line in Path(corpus).read_text(encoding="utf-8").splitlines():
            counts.update(sp.encode(line, out_type=str))
    vocab = {"<s>": 0, "<pad>": 1, "</s>": 2, "<unk>": 3}
    for piece, count in sorted(counts.items(), key=lambda kv: (-kv[1], sp.piece_to_id(kv[0]))):
        if count >= min_count:
            vocab.setdefault(piece, len(vocab))
    _write_json(out_dir / "vocab.json", vocab)
    # facebook/m2m100_418M lists its language tokens as additional special tokens (transformers 4.57
    # would not add them by itself), so "__fr__" in a text is that token, and decoding skips them
    languages = [f"__{code}__" for code in FAIRSEQ_M2M100_CODES]
    tok = M2M100Tokenizer(
        vocab_file=str(out_dir / "vocab.json"),
        spm_file=str(spm_path),
        src_lang="en",
        tgt_lang="zh",
        additional_special_tokens=languages,
    )
    tok.save_pretrained(out_dir)
    return len(vocab) + len(tok.lang_code_to_id) + int(tok.num_madeup_words)
