"""What can go wrong with a dictionary file; every message is one line for the user."""

from __future__ import annotations


class DictionaryError(Exception):
    """A file that is not a dictionary Fanyi reads (damaged, foreign, too large), or cannot be read at all."""
