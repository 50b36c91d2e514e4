"""Names that become file or folder names: a pack's, a dictionary's, a download's folder, a document's output.

Such a name is taken only as one harmless path component, the same on every system a pack or document may be
carried to: no separator, nothing that starts with a dot ("..", hidden names, Fanyi's own temporaries), no
control or invisible format characters (a line break, a right-to-left override), none of the characters
Windows forbids, no space or dot at an end (Windows drops them), none of Windows' device names (CON, NUL,
COM1…, whatever follows their first dot) and at most ``limits.MAX_NAME_BYTES`` bytes as UTF-8. Anything else
is refused in one line (``BadName``) before anything is written: a name is never quietly changed into
another, which would put the data somewhere the user did not name.
"""

from __future__ import annotations

import unicodedata

from . import limits
from .oneline import one_line

# what Windows refuses in a file name besides control characters and the separators
_FORBIDDEN = set('<>:"|?*/\\')
# categories of characters that show as nothing or move the text around them: controls, format characters
# (bidirectional overrides, zero-width joiners), surrogates, line and paragraph separators
_INVISIBLE = {"Cc", "Cf", "Cs", "Zl", "Zp"}
# Windows' reserved device names: a file named one of them (with any extension) is the device
_DEVICES = {
    "CON",
    "PRN",
    "AUX",
    "NUL",
    "CONIN$",
    "CONOUT$",
    *(f"{port}{n}" for port in ("COM", "LPT") for n in (*"0123456789", "¹", "²", "³")),
}
_SHOWN_CHARS = 60  # of a refused name in the message


class BadName(ValueError):
    """A name that cannot be a file or folder name; the message says whose name and why, on one line."""


def problem(name: str) -> str | None:
    """Why ``name`` is not one harmless path component, or None when it is."""
    if not name:
        return "it is empty"
    if any(c in "/\\" for c in name):
        return "it holds a folder separator (/ or \\)"
    if name.startswith("."):
        return "it starts with a dot"
    bad = next((c for c in name if unicodedata.category(c) in _INVISIBLE), None)
    if bad is not None:
        return f"it holds the control character U+{ord(bad):04X}"
    bad = next((c for c in name if c in _FORBIDDEN), None)
    if bad is not None:
        return f"it holds {bad!r}, which Windows does not take in a name"
    if name != name.strip() or name.endswith("."):
        return "it starts or ends with a space, or ends with a dot"
    if name.split(".", 1)[0].rstrip(" ").upper() in _DEVICES:
        return "it is the name of a Windows device"
    size = len(name.encode("utf-8", "surrogatepass"))
    if size > limits.MAX_NAME_BYTES:
        return f"it is too long for a file name ({size} bytes as UTF-8; at most {limits.MAX_NAME_BYTES})"
    return None


def check(name: str, what: str) -> str:
    """``name`` as it is when it can be a file or folder name; BadName otherwise. ``what``: whose name it is,
    for the message ("the pack's name", "--name")."""
    why = problem(name)
    if why is not None:
        shown = one_line(repr(name), _SHOWN_CHARS)
        raise BadName(f"{what} {shown} cannot be a file or folder name: {why}")
    return name
