"""PDF documents: read with pdfminer, scanned pages with PDFium and OCR."""

from .todocx import LAYOUT_NOTE, OCR_NOTE, PdfDocument, open_document

__all__ = ["LAYOUT_NOTE", "OCR_NOTE", "PdfDocument", "open_document"]
