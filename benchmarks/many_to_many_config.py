"""Random-weight mBART-50 and NLLB-200-distilled-600M folders at their real configurations.

    sizes: d_model 1024, 12+12 layers, 16 heads, ffn 4096; mBART-50: GELU, learned positions, vocab
    250054; NLLB-600M: ReLU, sinusoidal positions, vocab 256206 (tests/tiny_models/synthetic.py).

The tokenizers are trained on assets/corpus and grown with filler pieces to the real vocabulary
size, so the embedding and output matrices, the pack and the tokenizer.json have their real sizes.
`--tiny` builds the same families at the test suite's tiny shape: a smoke test of the whole
benchmark in a minute, not a measurement.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))  # the test-model builders
from tiny_models.synthetic import (
    MBART_LARGE_50,
    NLLB_200_600M,
    TinyShape,
    build_many_to_many_folder,
    real_shape,
)


@dataclass(frozen=True)
class ManyToManyModel:
    key: str  # folder and row name
    title: str
    family: str
    config: dict
    source: str  # the model's codes for the benchmark's English → Chinese direction
    target: str


MODELS = {
    m.key: m
    for m in (
        ManyToManyModel(
            "mbart50", "mBART-50 (mbart-large-50-many-to-many-mmt)", "mbart50", MBART_LARGE_50, "en_XX", "zh_CN"
        ),
        ManyToManyModel("nllb-600m", "NLLB-200 distilled 600M", "nllb", NLLB_200_600M, "eng_Latn", "zho_Hans"),
    )
}


def build_folder(out: Path, model: ManyToManyModel, tiny: bool) -> Path:
    if (out / "config.json").exists():
        return out
    if tiny:
        return build_many_to_many_folder(out, model.family, shape=TinyShape())
    return build_many_to_many_folder(
        out, model.family, shape=real_shape(model.config), pieces=model.config["spm_pieces"]
    )
