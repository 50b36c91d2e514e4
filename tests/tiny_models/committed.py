"""The tiny checkpoint committed as tests/data/tiny-qwen3: a bfloat16 Qwen3 model as a Hub repository holds it.

  .venv/bin/python tests/tiny_models/committed.py     # the dev venv: it needs torch and transformers

Its packs' sha256 are pinned by tests/test_export_torchfree.py, which checks on every machine CI runs on (CPUs
with and without AVX-512, Linux, Windows, macOS) that a conversion gives the same bytes everywhere. The
checkpoint is committed rather than built by the test because the builders' random draws and tokenizer
training are torch's and tokenizers', not the converter's, and need not be the same bits on every platform.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
OUT = TESTS / "data" / "tiny-qwen3"


def main() -> int:
    sys.path[:0] = [str(TESTS), str(TESTS.parent / "app")]
    from tiny_models.synthetic_llm import TinyLlm, build_tiny_llm

    shutil.rmtree(OUT, ignore_errors=True)
    build_tiny_llm(OUT, "qwen3", TinyLlm(layers=1, hidden=32, heads=2, kv_heads=1, head_dim=16, ffn=64, vocab=300))
    print(f"{OUT}: {sum(p.stat().st_size for p in OUT.iterdir())} bytes", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
