"""What differs between the model families Fanyi runs, one description each.

The exporter (fanyi.export) reads the graph half to build one encoder and one decoder graph for
every family; the engine reads the tokenizer and language half. Everything else — the decoder's
cache, the search, streaming, batching — is the same code for all of them.

A pack's manifest names its family in ``architecture.type``.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Family:
    name: str  # the manifest's architecture.type
    title: str  # for messages
    model_type: str  # config.json "model_type" of the Hugging Face folder
    model_class: str  # the transformers class the exporter loads
    # --- the graphs ---
    pre_norm: bool  # LayerNorm before each sublayer plus one after each stack (else after each sublayer)
    layernorm_embedding: bool  # a LayerNorm right after embeddings + positions
    positions: str  # "sinusoidal": row i for position i; "learned": row i + 2; "fairseq": see below
    # fairseq positions (M2M100/NLLB): row pad + 1 + i for the i-th non-pad token, row pad for a pad token
    # --- tokens and languages ---
    tokenizer: str  # "marian" | "sentencepiece" (one .spm + vocab.json) | "tokenizers" (tokenizer.json)
    tokenizer_files: tuple[str, ...]  # required in the pack (OPTIONAL_TOKENIZER_FILES are copied when present)
    target_language: str  # "source_token": Marian's >>id<< source prefix; "forced_bos": the first target token

    @property
    def extra_position_rows(self) -> int:
        """Rows of the position table beyond max_positions: mBART's two unused ones, and the two that
        Hugging Face's fairseq-style table adds for the padding scheme (M2M100, NLLB)."""
        return 0 if self.positions == "sinusoidal" else LEARNED_POSITION_OFFSET


MARIAN = Family("marian", "MarianMT", "marian", "MarianMTModel", pre_norm=False, layernorm_embedding=False,
                positions="sinusoidal", tokenizer="marian",
                tokenizer_files=("source.spm", "target.spm", "vocab.json"),
                target_language="source_token")
MBART50 = Family("mbart50", "mBART-50", "mbart", "MBartForConditionalGeneration", pre_norm=True,
                 layernorm_embedding=True, positions="learned", tokenizer="tokenizers",
                 tokenizer_files=("tokenizer.json",), target_language="forced_bos")
M2M100 = Family("m2m100", "M2M100", "m2m_100", "M2M100ForConditionalGeneration", pre_norm=True,
                layernorm_embedding=False, positions="fairseq", tokenizer="sentencepiece",
                tokenizer_files=("sentencepiece.bpe.model", "vocab.json"),
                target_language="forced_bos")
NLLB = Family("nllb", "NLLB-200", "m2m_100", "M2M100ForConditionalGeneration", pre_norm=True,
              layernorm_embedding=False, positions="fairseq", tokenizer="tokenizers",
              tokenizer_files=("tokenizer.json",), target_language="forced_bos")
FAMILIES = {f.name: f for f in (MARIAN, MBART50, M2M100, NLLB)}
OPTIONAL_TOKENIZER_FILES = ("tokenizer_config.json",)  # decode settings (clean-up of spaces)
LEARNED_POSITION_OFFSET = 2  # mBART's learned table starts with two unused rows (a fairseq legacy)


def family_of(manifest: dict) -> Family:
    """The family a manifest names; packs written before families existed are Marian."""
    name = (manifest.get("architecture") or {}).get("type", "marian")
    try:
        return FAMILIES[name]
    except KeyError:
        raise ValueError(f"architecture {name!r} is not supported "
                         f"(this Fanyi runs {', '.join(sorted(FAMILIES))})") from None
