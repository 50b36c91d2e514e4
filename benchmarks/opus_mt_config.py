"""A random-weight model folder with exactly opus-mt-en-zh's configuration, for speed and size numbers.

The tokenizers are trained on assets/corpus (a few hundred pieces); vocab.json is filled up to
opus-mt-en-zh's 65001 entries so the embedding and output matrices have their real size.

The <pad> row of the shared embedding is zeroed, as in the real checkpoint (the Marian→HF
conversion appends pad as a zero row). It matters: <pad> is the decoder start token, and
CTranslate2's converter drops that row and starts the decoder from a zero embedding, so with a
random pad row CTranslate2 would compute a different model than PyTorch and ours.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the test-model builders
from tiny_models.synthetic import OPUS_MT_EN_ZH, build_filled_marian_folder, opus_mt_en_zh_shape

PAD_ZEROED = "pad-row-zeroed"  # marker file: the folder has the real checkpoint's zero pad embedding


def zero_pad_embedding(folder: Path, pad_id: int) -> None:
    import torch
    from transformers import MarianMTModel

    model = MarianMTModel.from_pretrained(str(folder))
    with torch.no_grad():
        model.model.shared.weight[pad_id].zero_()  # tied: encoder, decoder and output projection
    model.save_pretrained(str(folder))
    (folder / PAD_ZEROED).write_text("1\n")


def build_opus_mt_sized_folder(out: Path, seed: int = 0) -> Path:
    vocab_size = OPUS_MT_EN_ZH["vocab_size"]
    if (out / "config.json").exists():
        if not (out / PAD_ZEROED).exists():  # built by an older version of this file
            zero_pad_embedding(out, vocab_size - 1)
        return out
    build_filled_marian_folder(out, vocab_size, opus_mt_en_zh_shape(), seed=seed)
    zero_pad_embedding(out, vocab_size - 1)
    return out
