"""Document translation: a translated copy of a file with its layout intact.

from fanyi.documents import translate_document
result = translate_document(Path("book.docx"), translator, bilingual=True)
print(result.output, result.report.summary())
"""

from .base import (
    CorruptDocument,
    DocumentError,
    DocumentHandler,
    DocumentTooLarge,
    EncryptedDocument,
    JobReport,
    NoTextFound,
    NotReadable,
    NotTextFile,
    NotWritable,
    TextTranslator,
    TranslationFailed,
    Unit,
    UnsupportedFormat,
    Untranslated,
    sample,
)
from .job import JobResult, Written, output_path_for, translate_document
from .registry import FORMATS, SUPPORTED_SUFFIXES, format_for

__all__ = [
    "FORMATS",
    "SUPPORTED_SUFFIXES",
    "CorruptDocument",
    "DocumentError",
    "DocumentHandler",
    "DocumentTooLarge",
    "EncryptedDocument",
    "JobReport",
    "JobResult",
    "NoTextFound",
    "NotReadable",
    "NotTextFile",
    "NotWritable",
    "TextTranslator",
    "TranslationFailed",
    "Unit",
    "UnsupportedFormat",
    "Untranslated",
    "Written",
    "format_for",
    "output_path_for",
    "sample",
    "translate_document",
]
