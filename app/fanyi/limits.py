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
# the files a conversion reads from a model's repository: TranslateGemma-4B's bf16 shards are ~8.6 GB
MAX_MODEL_FILES_BYTES = 64 * GiB
MAX_MANIFEST_BYTES = 4 * MiB
MAX_ARCHIVE_RATIO = 20  # uncompressed / compressed, per member of a pack .zip; model weights compress ~1.1×
ARCHIVE_RATIO_FLOOR = 1 * MiB  # smaller members are not held to the ratio: a short JSON file may compress 30×
MAX_CATALOG_BYTES = 4 * MiB  # a catalog of a few hundred packs is ~500 KB
MAX_CATALOG_PACKS = 1000
MAX_LICENSE_TEXT = 2000  # characters of one licence restriction or notice a catalog shows before a download
MAX_LICENSE_LINES = 16  # restrictions listed for one licence and language

# --- downloads (fanyi.library.download, fanyi.library.catalog_fetch) ----------------------------
CONNECT_TIMEOUT_S = 15.0  # to open a connection (through a proxy too)
READ_TIMEOUT_S = 30.0  # between any two pieces of an answer: a stalled server is left after this
DOWNLOAD_RETRIES = 3  # resumes of a broken transfer from one URL before the next URL is tried
CATALOG_TIMEOUT_S = 15.0  # the whole catalog is ~500 KB: a server that needs longer is skipped
# a download source's list of a repository's files (library.sources): the automatic order moves on to the next
# source when one does not answer within this, which is what tells a blocked huggingface.co quickly
SOURCE_LIST_TIMEOUT_S = 10.0
# the automatic order asks a source whether it answers at all before its list, and passes over one that does
# not within this (a blocked huggingface.co) without waiting for the list's timeout
SOURCE_PROBE_TIMEOUT_S = 3.0

# manifest values (engine/pack.py): a manifest has no checksum, so every value the runtime reads from
# it is bounded; a pack past one of these is refused (listed as broken), never clamped.
# Generation defaults share the decoding bounds above (num_beams ≤ MAX_BEAMS).
MAX_PACK_FILES = 64  # a pack has 8
MAX_MANIFEST_TEXT = 256  # characters of a name, language code, description or tensor name
# A name that becomes a file or folder name (fanyi.names): a pack's, a dictionary's. File systems take 255
# bytes, and "old-XXXXXXXX-" goes before a pack's folder while an installed pack is being replaced, ".sqlite"
# after a dictionary's name. 200 CJK characters are 600 bytes.
MAX_NAME_BYTES = 200
MAX_VOCAB_SIZE = 1 << 20  # opus-mt: 65,001 tokens; NLLB and mBART-50: ~256k
MAX_POSITIONS = 16_384  # the model's position table, and so max_length / min_length; opus-mt: 512
MAX_LAYERS = 128  # encoder or decoder layers; NLLB-3.3B: 24
MAX_HEADS = 256
MAX_MODEL_WIDTH = 65_536  # d_model, head_dim, ffn_dim; NLLB-3.3B's ffn_dim: 8192
MAX_EOS_IDS = 16  # end-of-sentence ids (eos_all, forced_eos_token_id)
MAX_BAD_WORDS = 4096  # banned sequences, each checked at every decoder step
MAX_BAD_WORD_TOKENS = 32  # tokens in one banned sequence
LENGTH_PENALTY_RANGE = (-16.0, 16.0)  # an exponent of the length: Hugging Face configs use 0.6–2.0
REPETITION_PENALTY_RANGE = (0.01, 100.0)  # a divisor of scores: 1 is off
MAX_TARGET_TOKENS = 4096  # >>lang<< tokens of a multilingual model; opus-mt-en-mul has ~400
MAX_ADDED_TOKENS = 4200  # a slow tokenizer's added tokens: its languages and a few more (NLLB-200: 207)
MAX_EXTERNAL_TENSORS = 100_000  # entries of the shared.bin index
MAX_TENSOR_DIMS = 8
MAX_PACK_VERSION = 1_000_000  # the catalog version a release pack records
MAX_REFERENCE_CHARS = 1000  # the reference sentence (and its translations) a release pack records
# glossaries (fanyi.glossary): a user's list of terms, read from CSV files
MAX_GLOSSARY_BYTES = 2 * MiB
MAX_GLOSSARY_TERMS = 5000  # each is looked for in every paragraph translated with the glossary
MAX_GLOSSARY_TERM_CHARS = 200
MAX_CONTEXT_CHARS = 1000  # of the text before a paragraph, given to an LLM with it (the end is kept)
MAX_PROMPT_CHARS = 2000  # an instruction of a decoder-only pack (the model card's prompts are ~200)
MAX_CHAT_TEMPLATE_BYTES = 256 * 1024  # a chat template (Qwen3's is ~4 KB, with tools)

# --- summaries (fanyi.summaries) -------------------------------------------------------------------
# A text or document past this is refused with one line before any model runs: bart-large-cnn reads ~1,000
# tokens a chunk, so 1,000,000 characters (~250 pages, ~250 chunks) take about a quarter of an hour on two cores.
MAX_SUMMARY_CHARS = 1_000_000
MAX_SUMMARY_ROUNDS = 4  # summaries of summaries: each round cuts ~1,000 tokens to ~140, so 4 cover any text above
SUMMARY_MIN_TOKENS = 40  # a shorter text (or section) is given back as it is: no summary is shorter than it

# --- documents ------------------------------------------------------------------------------------
# A document past one of these is refused with one line (DocumentTooLarge) before the work that
# would cost that much: zip sizes are checked from the central directory and again while inflating,
# markup is measured before it is parsed, PDF streams while they are decoded.
MAX_ZIP_ENTRIES = 10_000  # entries of a .docx/.pptx/.epub; a 1,000-chapter book has ~3,000
MAX_ZIP_ENTRY_BYTES = 1 * GiB  # one entry, uncompressed (a video in a presentation is copied through)
MAX_ZIP_TOTAL_BYTES = 2 * GiB  # all entries, uncompressed
MAX_ZIP_RATIO = 200  # uncompressed / compressed of an entry over ZIP_RATIO_FLOOR: Word XML is 5-30×
ZIP_RATIO_FLOOR = 1 * MiB  # (a table of empty cells ~100×), media ~1×, zeros ~1,000×; small entries: any
MAX_MARKUP_BYTES = 64 * MiB  # one XML/XHTML/HTML part parsed in memory (a 1,000-page .docx: ~20 MB)
MAX_XML_TAGS = 2_000_000  # "<" in the XML parts of one .docx/.pptx: lxml costs ~120 bytes per element
MAX_HTML_TAGS = 500_000  # "<" in one .html or all of an .epub's XHTML: ~600 bytes each while scanned
MAX_UNITS = 200_000  # units of a document held in memory at once (a 1,000-page book: ~20,000 paragraphs)
MAX_LINE_CHARS = 1 << 20  # one line of a .txt/.md/.srt/.vtt (these are read as a stream of lines)
MAX_UNIT_CHARS = 20_000  # a longer paragraph of a streamed format is cut into units at a line end
MAX_PDF_STREAM_BYTES = 64 * MiB  # one PDF stream after each of its filters (a flate bomb is ~1,000×)
MAX_PDF_DECODED_BYTES = 256 * MiB  # every stream of one PDF decoded, each filter counted (pdfminer keeps them)
MAX_PDF_PAGES = 5_000
MAX_PDF_TEXT_CHARS = 20_000_000  # text kept from one PDF (~5,000 dense pages)
MAX_PDF_PAGE_CHARS = 20_000  # characters laid out on one page (a dense page has ~6,000)
PDF_LAYOUT_LINES = 3_000  # more text lines on a page: read top to bottom, not cut into columns (cutting is quadratic)
REPORT_ENTRIES_PER_REASON = 10  # failed/kept units listed by name in a job's report, per reason
REPORT_REASONS = 20  # distinct reasons a report tells apart; more are counted as "other reasons"

# --- the dictionary (fanyi.dictionary, fanyi.library.dictionaries) -------------------------------
# What is looked up: a word or a short phrase. Longer text is a sentence, for the models alone; it is
# never sent to the dictionary, so no input costs a lookup more than a few indexed queries.
MAX_LOOKUP_CHARS = 64  # "take something into account" is 29; the longest ECDICT headwords people select are shorter
MAX_LOOKUP_WORDS = 5  # words of an English phrase looked up ("take off", "in spite of")
MAX_LOOKUP_HAN = 8  # Chinese characters of a Chinese word looked up (reverse lookup: 苹果 → apple)
MAX_LOOKUP_RESULTS = 8  # English words listed for a Chinese one, the most frequent first
# The data converted: ECDICT's repository CSV is ~65 MB with ~770k entries, the release's stardict.db ~800 MB
# with ~3.4M. A file past these bounds is refused in one line, never read to its end.
MAX_DICTIONARY_SOURCE_BYTES = 4 * GiB
MAX_DICTIONARY_ENTRIES = 10_000_000
# one field of one entry (a long definition list is ~5,000): Python's csv reader's own default bound, which the
# CSV reader relies on rather than changing it for the whole process
MAX_DICTIONARY_FIELD_CHARS = 131_072
MAX_HEADWORD_CHARS = 200  # an entry whose word is longer is no word anyone looks up: left out
MAX_REVERSE_TERMS = 12  # Chinese senses of one entry indexed for the reverse lookup

# --- OCR (fanyi.ocr: screenshots and scanned PDF pages) ------------------------------------------
MAX_OCR_PIXELS = 80_000_000  # an image handed to OCR: all of two 8K screens is 66 MP; more is refused
OCR_MAX_SIDE = 2000  # the detector sees the image scaled down to this longest side (RapidOCR's max_side_len)
MAX_OCR_BOXES = 1000  # text lines read in one image (a dense page has ~60); the largest are kept
MAX_OCR_LINE_RATIO = (
    160  # width / height of a line as the recogniser reads it (a 1920-px line of 12-px text); longer ones are squeezed
)
MAX_OCR_PAGES = 300  # scanned pages of one PDF recognised (a dense page took 4-7 s on two busy cores)
OCR_PAGE_DPI = 150  # a scanned page is rendered at this resolution (6-point text, 12 px high, was read exactly) ...
MAX_OCR_PAGE_PIXELS = 12_000_000  # ... or lower, so the page has at most this many pixels (A4 at 150 dpi: 2.2 MP)
MAX_OCR_SECONDS = 1800  # recognising one document's pages; a document that needs longer is refused midway

# --- local API (fanyi serve, and the app's "let other apps on this computer use Fanyi") -----------
API_MAX_BODY_BYTES = 1 * MiB  # one request's body as sent; JSON may spell a Chinese character as 6 bytes
API_MAX_TEXTS = 50  # texts in one request (DeepL's own limit per request)
API_MAX_DOCUMENT_BYTES = 32 * MiB  # a document sent to /translate_file or /v2/document (DeepL's own limit: 30 MB)
API_MAX_DOCUMENTS = 8  # documents held at once, being translated or waiting to be fetched; more get 429
API_DOCUMENT_KEEP_SECONDS = 3600  # a translated document is removed this long after it is done
API_MAX_ALTERNATIVES = 5  # LibreTranslate's alternatives per text: the beam is widened to one more than this
API_MAX_CHARS = 20_000  # characters in one request, all its texts (and their HTML markup) together
# Translation requests in line for the model at once, waiting or translating; more are answered 429 with
# Retry-After. Each waits in a thread of its own (tens of KiB of stack used) holding its text (at most
# API_MAX_CHARS); short ones wait for a batch, not at the model (server/batching.py), so a burst of hundreds
# (Immersive Translate's and KISS Translator's settings ask for 512 requests a second) is translated
# together in decoder batches instead of being refused.
API_MAX_QUEUED = 1024
API_MAX_WAIT_SECONDS = 60.0  # waited this long for its turn (for a batch: since its batches last moved): 503
API_BATCH_TEXTS = 16  # texts of requests waiting for one model with the same options, translated as one batch
API_BATCH_CHARS = 4000  # ... and their characters: a longer request is translated alone, holding no short one up
API_TURN_SECONDS = 0.25  # a request holding the model longer passes its turn to those waiting, between two batches
# Open connections at once; beyond, a new one closes the connection idle the longest, or is answered
# 503 when every one is busy. Each costs a file descriptor: the server raises its own limit to fit (Linux's
# default is 1,024 open files, with a hard limit of 4,096 or more).
API_MAX_CONNECTIONS = 1024
API_HEAD_SECONDS = 10.0  # for a request's head to arrive, from the connection or the last answer on it
API_KEEP_ALIVE_SECONDS = 5.0  # an idle keep-alive connection is closed after this
API_BODY_SECONDS = 30.0  # for a request's body to arrive once its head has (1 MiB at 35 KB/s)

# --- the desktop app (fanyi.langid, fanyi.ui) ------------------------------------------------------
DETECT_SAMPLE_CHARS = 2000  # characters of a text read to tell its language; a book pasted whole costs no more
INSTANCE_MESSAGE_BYTES = 4 * KiB  # one request from a second launch to the running app ("show", "translate")
