"""A random-weight model folder with exactly opus-mt-en-zh's configuration, for speed and size numbers.

The tokenizers are trained on assets/corpus (a few hundred pieces); vocab.json is filled up to
opus-mt-en-zh's 65001 entries so the embedding and output matrices have their real size.
"""

from __future__ import annotations

import json
from pathlib import Path

from fanyi.export.spm_files import train_marian_tokenizer
from fanyi.export.synthetic import EN_ZH_TARGETS, OPUS_MT_EN_ZH, build_random_marian, opus_mt_en_zh_shape
from fanyi.paths import assets_dir


def build_opus_mt_sized_folder(out: Path, seed: int = 0) -> Path:
    if (out / "config.json").exists():
        return out
    corpus = assets_dir() / "corpus"
    vocab = train_marian_tokenizer(out, corpus / "en.txt", corpus / "zh.txt", target_tokens=EN_ZH_TARGETS)
    vocab_size = OPUS_MT_EN_ZH["vocab_size"]
    entries = [tok for tok, _ in sorted(vocab.items(), key=lambda kv: kv[1]) if tok != "<pad>"]
    entries += [f"▁filler{i}" for i in range(vocab_size - 1 - len(entries))]
    full = {tok: i for i, tok in enumerate(entries)}
    full["<pad>"] = vocab_size - 1
    (out / "vocab.json").write_text(json.dumps(full, ensure_ascii=False), encoding="utf-8")
    build_random_marian(out, vocab_size, opus_mt_en_zh_shape(), seed=seed, pad_id=vocab_size - 1)
    return out
