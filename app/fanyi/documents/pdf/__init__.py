"""PDF documents: a translated PDF with the same pages, each paragraph's text replaced by its translation.

``document`` reads the pages (``interpret``, ``layout``; scanned pages through ``scan``), ``rewrite``
writes the translated PDF (``strip`` removes the original text, ``fonts`` and ``linebreak`` draw
the translation, ``bilingual`` pairs the pages), ``todocx`` writes the text as a .docx instead.
"""

from .document import Bilingual, Output, PdfDocument, open_document

__all__ = ["Bilingual", "Output", "PdfDocument", "open_document"]
