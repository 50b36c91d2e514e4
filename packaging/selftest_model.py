#!/usr/bin/env python3
"""Write assets/selftest/tiny-marian: the model `fanyi --self-test` converts, served by a Hub on 127.0.0.1.

  .venv/bin/python packaging/selftest_model.py      # the dev venv: it needs torch and transformers

A MarianMT checkpoint of the real architecture, as a Hugging Face repository holds it (model.safetensors,
config.json, generation_config.json, source.spm, target.spm, vocab.json, tokenizer_config.json), made as small
as a model can be (one layer each side, 16 wide, SentencePiece models of ~100 pieces trained on the first lines
of assets/corpus, their normalization table dropped): ~60 KB, committed. The installed app has no torch to make
one and the build machines of the installers have none either, so the checkpoint is made once, here. Its
weights are random; the self-test checks that the bundle's converter makes a pack of it that translates.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "app"), str(ROOT / "tests")]  # the tests' model builders (tests/tiny_models)
OUT = ROOT / "assets" / "selftest" / "tiny-marian"
LINES = 40  # of each corpus: few distinct characters, so few pieces


def _without_normalization(model: Path) -> None:
    """A SentencePiece model without its NFKC table (~240 KB of the ~250 KB file); it tokenizes as before on
    the text it was trained on."""
    from sentencepiece import sentencepiece_model_pb2

    proto = sentencepiece_model_pb2.ModelProto()
    proto.ParseFromString(model.read_bytes())
    proto.normalizer_spec.name = "identity"
    proto.normalizer_spec.precompiled_charsmap = b""
    model.write_bytes(proto.SerializeToString())


def main() -> int:
    from tiny_models.spm_files import train_marian_tokenizer
    from tiny_models.synthetic import TinyShape, build_random_marian

    corpus = ROOT / "assets" / "corpus"
    OUT.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        sources = {}
        for lang in ("en", "zh"):
            lines = [line for line in (corpus / f"{lang}.txt").read_text(encoding="utf-8").splitlines() if line][:LINES]
            sources[lang] = Path(tmp) / f"{lang}.txt"
            sources[lang].write_text("\n".join(lines) + "\n", encoding="utf-8")
        vocab = train_marian_tokenizer(
            OUT, sources["en"], sources["zh"], source_vocab_size=100, target_vocab_size=100, seed=0
        )
    for name in ("source.spm", "target.spm"):
        _without_normalization(OUT / name)
    shape = TinyShape(d_model=16, encoder_layers=1, decoder_layers=1, heads=2, ffn_dim=32, max_positions=64)
    build_random_marian(OUT, len(vocab), shape, seed=0, pad_id=vocab["<pad>"])
    total = sum(p.stat().st_size for p in OUT.iterdir())
    print(f"{OUT}: {total} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
