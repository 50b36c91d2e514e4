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
ARCHIVE_RATIO_FLOOR = 1 * MiB  # smaller members are not held to the ratio: a short JSON file may compress 30×
MAX_CATALOG_BYTES = 4 * MiB  # a catalog of a few hundred packs is ~500 KB
MAX_CATALOG_PACKS = 1000

# --- downloads (fanyi.download, fanyi.catalog_fetch) ----------------------------------------------
CONNECT_TIMEOUT_S = 15.0  # to open a connection (through a proxy too)
READ_TIMEOUT_S = 30.0  # between any two pieces of an answer: a stalled server is left after this
DOWNLOAD_RETRIES = 3  # resumes of a broken transfer from one URL before the next URL is tried
CATALOG_TIMEOUT_S = 15.0  # the whole catalog is ~500 KB: a server that needs longer is skipped

# --- documents ------------------------------------------------------------------------------------
