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

# --- documents ------------------------------------------------------------------------------------

# --- local API (fanyi serve, and the app's "let other apps on this computer use Fanyi") -----------
API_MAX_BODY_BYTES = 1 * MiB  # one request's body as sent; JSON may spell a Chinese character as 6 bytes
API_MAX_TEXTS = 50  # texts in one request (DeepL's own limit per request)
API_MAX_CHARS = 20_000  # characters in one request, all its texts (and their HTML markup) together
API_MAX_WAITING = 8  # requests waiting for the model behind the running one; more are answered "busy" (429)
API_MAX_CONNECTIONS = 32  # open connections at once; the server answers 503 beyond
