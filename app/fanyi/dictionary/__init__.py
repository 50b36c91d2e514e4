"""The offline English↔Chinese dictionary: ECDICT's data (skywind3000/ECDICT, MIT) looked up by word.

For a word or a short phrase a sentence translation is the wrong answer: what a reader wants is the
phonetic, the parts of speech, the senses, the word forms. ``ecdict`` reads ECDICT's own formats (the
repository's ``ecdict.csv`` and the release's ``stardict.db``); ``build`` converts one, on the user's
computer, into Fanyi's indexed SQLite file; ``lookup`` opens that file and finds an entry by the rules
people expect (exact, any case, the lemma of a word form, without punctuation or hyphens, phrases,
Chinese to English); ``entry`` is one entry as the UI, the history and the local API show it.

Standard library only (sqlite3, csv, zipfile): no Qt, no network. Getting the data is the library's
(fanyi.library.dictionaries), from where ECDICT publishes it.
"""

from __future__ import annotations

from .entry import Entry, Found, Sense
from .errors import DictionaryError
from .lookup import Dictionary, lookup_text

__all__ = ["Dictionary", "DictionaryError", "Entry", "Found", "Sense", "lookup_text"]
