"""Every bound on what an input may cost, in one place so a reviewer can see them all.

An input — a manifest, a setting, a command-line option, a document, an archive, a request to the
local API — is refused with a message (or clamped, where the section says so) when it goes past one
of these. Each constant says what it bounds; the code that enforces it imports it from here.
"""

from __future__ import annotations

import os

KiB, MiB, GiB = 1 << 10, 1 << 20, 1 << 30

# --- decoding (DecodeOptions, session options, settings files) -----------------------------------
# DecodeOptions refuse a value past these (ValueError naming the bound); settings files are clamped.
MAX_BEAMS = 16  # beyond this beam search costs memory and time for no measurable gain on these models
# max_length, max_new_tokens, min_length, in tokens. No supported model has more than 1024 positions;
# a length past the model's own positions is cut to them where the search is set up.
MAX_DECODE_LENGTH = 2048
MAX_NO_REPEAT_NGRAM = 32  # n-grams this long never repeat in a sentence; 2–4 is what the option is for
MAX_THREADS = 64  # intra-op threads; more are clamped to this or to the CPU count, see max_threads()


def max_threads() -> int:
    """The most intra-op threads worth starting here: ONNX Runtime starts every one it is given."""
    return max(1, min(os.cpu_count() or 1, MAX_THREADS))


# --- model packs (manifests, imports, downloads) --------------------------------------------------
MAX_PACK_BYTES = 8 * GiB  # the sum of a pack's files: NLLB-3.3B in int8 fits, a padding attack does not
MAX_MANIFEST_BYTES = 4 * MiB
MAX_ARCHIVE_RATIO = 20  # uncompressed / compressed, per member of a pack .zip; model weights compress ~1.1×
MAX_CATALOG_BYTES = 4 * MiB  # a catalog of a few hundred packs is ~500 KB
MAX_CATALOG_PACKS = 1000

# --- documents ------------------------------------------------------------------------------------
