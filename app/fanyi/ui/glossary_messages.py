"""What fanyi.glossary says about a glossary that cannot be read or kept, in the UI language.

``GlossaryError`` carries its English template and values; each template is listed here
(QT_TRANSLATE_NOOP, for lupdate) and translated, then filled, so a row's problem reads the same in
either UI language. A template not listed (there is none: tests/ui/test_glossary_tab.py checks) is
shown as it is.
"""

from __future__ import annotations

from PySide6.QtCore import QT_TRANSLATE_NOOP, QCoreApplication

from fanyi import glossary
from fanyi.glossary import GlossaryError

_CONTEXT = "GlossaryMessages"
_KNOWN = {
    glossary.TOO_MANY: QT_TRANSLATE_NOOP("GlossaryMessages", "a glossary holds at most {limit} terms"),
    glossary.FILE_TOO_MANY: QT_TRANSLATE_NOOP(
        "GlossaryMessages", "{file} has {count} terms; a glossary holds at most {limit}"
    ),
    glossary.TOO_LARGE: QT_TRANSLATE_NOOP(
        "GlossaryMessages", "{file} is {size} bytes, more than a glossary may be ({limit})"
    ),
    glossary.NOT_UTF8: QT_TRANSLATE_NOOP("GlossaryMessages", "{file} is not UTF-8 text (save it as CSV UTF-8)"),
    glossary.UNREADABLE: QT_TRANSLATE_NOOP("GlossaryMessages", "{file} cannot be read: {reason}"),
    glossary.COLUMNS: QT_TRANSLATE_NOOP(
        "GlossaryMessages",
        "a glossary row has four columns (source, target, term, translation) or two (term, translation), not {count}",
    ),
    glossary.EMPTY_TERM: QT_TRANSLATE_NOOP("GlossaryMessages", "the term is empty"),
    glossary.EMPTY_TRANSLATION: QT_TRANSLATE_NOOP("GlossaryMessages", "the translation is empty"),
    glossary.NOT_TEXT_TERM: QT_TRANSLATE_NOOP(
        "GlossaryMessages", "the term must be printable text of at most {limit} characters"
    ),
    glossary.NOT_TEXT_TRANSLATION: QT_TRANSLATE_NOOP(
        "GlossaryMessages", "the translation must be printable text of at most {limit} characters"
    ),
    glossary.NOT_CODE_SOURCE: QT_TRANSLATE_NOOP(
        "GlossaryMessages", "the source language {code!r} is not a language code"
    ),
    glossary.NOT_CODE_TARGET: QT_TRANSLATE_NOOP(
        "GlossaryMessages", "the target language {code!r} is not a language code"
    ),
}
_AT = {
    glossary.AT_ROW: QT_TRANSLATE_NOOP("GlossaryMessages", "{file}, row {row}: {message}"),
    glossary.AT_TABLE_ROW: QT_TRANSLATE_NOOP("GlossaryMessages", "Row {row}: {message}"),
}


def message(error: GlossaryError) -> str:
    """``error`` in the UI language: its template translated and filled, at its row."""
    known = _KNOWN.get(error.template)
    template = QCoreApplication.translate(_CONTEXT, str(known)) if known else error.template
    text = template.format(file=error.file, **error.values)
    if not error.row:
        return text
    where = _AT[glossary.AT_ROW if error.file else glossary.AT_TABLE_ROW]
    return QCoreApplication.translate(_CONTEXT, str(where)).format(file=error.file, row=error.row, message=text)
