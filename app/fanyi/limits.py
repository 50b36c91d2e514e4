"""Every bound on what an input may cost, in one place so a reviewer can see them all.

An input — a manifest, a setting, a command-line option, a document, an archive, a request to the
local API — is refused with a message (or clamped, where the section says so) when it goes past one
of these. Each constant says what it bounds; the code that enforces it imports it from here.
"""

from __future__ import annotations

KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30

# --- decoding (DecodeOptions, session options, settings files) -----------------------------------
MAX_BEAMS = 16  # beyond this beam search costs memory and time for no measurable gain on these models
MAX_THREADS = 64  # intra-op threads; also capped by the CPU count where the session is built

# --- model packs (manifests, imports, downloads) --------------------------------------------------
MAX_PACK_BYTES = 8 * GiB  # the sum of a pack's files: NLLB-3.3B in int8 fits, a padding attack does not
MAX_MANIFEST_BYTES = 4 * MiB
MAX_ARCHIVE_RATIO = 20  # uncompressed / compressed, per member of a pack .zip; model weights compress ~1.1×

# manifest values (engine/pack.py): a manifest has no checksum, so every value the runtime reads from
# it is bounded; a pack past one of these is refused (listed as broken), never clamped.
# Generation defaults share the decoding bounds above (num_beams ≤ MAX_BEAMS).
MAX_PACK_FILES = 64  # a pack has 8
MAX_MANIFEST_TEXT = 256  # characters of a name, language code, description or tensor name
MAX_VOCAB_SIZE = 1 << 20  # opus-mt: 65,001 tokens; NLLB and mBART-50: ~256k
MAX_POSITIONS = 16_384  # the model's position table, and so max_length / min_length; opus-mt: 512
MAX_LAYERS = 128  # encoder or decoder layers; NLLB-3.3B: 24
MAX_HEADS = 256
MAX_MODEL_WIDTH = 65_536  # d_model, head_dim, ffn_dim; NLLB-3.3B's ffn_dim: 8192
MAX_EOS_IDS = 16  # end-of-sentence ids (eos_all, forced_eos_token_id)
MAX_BAD_WORDS = 4096  # banned sequences, each checked at every decoder step
MAX_BAD_WORD_TOKENS = 32  # tokens in one banned sequence
MAX_NO_REPEAT_NGRAM = 64
LENGTH_PENALTY_RANGE = (-16.0, 16.0)  # an exponent of the length: Hugging Face configs use 0.6–2.0
REPETITION_PENALTY_RANGE = (0.01, 100.0)  # a divisor of scores: 1 is off
MAX_TARGET_TOKENS = 4096  # >>lang<< tokens of a multilingual model; opus-mt-en-mul has ~400
MAX_EXTERNAL_TENSORS = 100_000  # entries of the shared.bin index
MAX_TENSOR_DIMS = 8

# --- documents ------------------------------------------------------------------------------------
