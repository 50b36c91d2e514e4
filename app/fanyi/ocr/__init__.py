"""Offline OCR (no Qt): finds and reads the lines of text in an image, Chinese and English.

``recognise(image)`` returns the lines (text, box, confidence) in reading order; ``text(lines)``
and ``paragraphs(lines)`` join them into what is translated (see ``layout``).

The models are PaddleOCR's PP-OCRv6 small text detector and recogniser (~18,700 characters:
Chinese, English and other Latin-script languages) as ONNX files from RapidOCR's wheel, put into
``assets/ocr`` when Fanyi is installed from source or built (packaging/ocr_models.py); nothing is
downloaded at run time. They run on ONNX Runtime through ``fanyi.engine.sessions``, like the
translation models. The pre- and post-processing follow RapidOCR's, in numpy: OpenCV, pyclipper
and shapely, which RapidOCR's own code needs, would add ~100 MB to the bundle. RapidOCR's angle
classifier (text upside down) is not used: screens and scans are upright.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from fanyi import paths
from fanyi.engine import open_session

from . import detect, read
from .image import ImageError, as_rgb
from .layout import paragraphs, reading_order, text

__all__ = ["ImageError", "Line", "OcrUnavailable", "Recogniser", "models_dir", "paragraphs", "recognise", "text"]

DET_MODEL = "PP-OCRv6_det_small.onnx"
REC_MODEL = "PP-OCRv6_rec_small.onnx"
MIN_SCORE = 0.5  # a line read with a lower mean confidence is dropped (RapidOCR's text_score)


class OcrUnavailable(RuntimeError):
    """The OCR models are not installed; ``str()`` says where they were looked for."""


@dataclass(frozen=True)
class Line:
    text: str
    box: tuple[int, int, int, int]  # left, top, right, bottom, in pixels of the image
    score: float  # the recogniser's mean confidence in its characters, 0–1


def models_dir() -> Path:
    return paths.assets_dir() / "ocr"


class Recogniser:
    """The two ONNX Runtime sessions, opened once; call it with images."""

    def __init__(self, folder: Path | None = None, threads: int | None = None) -> None:
        folder = folder or models_dir()
        missing = [name for name in (DET_MODEL, REC_MODEL) if not (folder / name).is_file()]
        if missing:
            hint = "" if paths.is_frozen() else "; python packaging/ocr_models.py puts them there"
            raise OcrUnavailable(f"the OCR models are not installed ({', '.join(missing)} not in {folder}{hint})")
        try:
            # Every image has its own size: without the arena, a page's memory is returned after it.
            self._detector = open_session(folder / DET_MODEL, threads, arena=False)
            self._reader = open_session(folder / REC_MODEL, threads, arena=False)
            self._chars = read.characters(self._reader)
        except Exception as exc:  # ONNX Runtime raises its own types for a damaged file
            raise OcrUnavailable(f"the OCR models in {folder} cannot be loaded ({exc})") from exc

    def __call__(self, image: np.ndarray) -> list[Line]:
        rgb = as_rgb(image)
        boxes = detect.detect(self._detector, rgb)
        found = [
            Line(said.strip(), box, score)
            for box, (said, score) in zip(boxes, read.read(self._reader, self._chars, rgb, boxes))
        ]
        return reading_order([line for line in found if line.text and line.score >= MIN_SCORE])


_shared: Recogniser | None = None
_shared_lock = threading.Lock()


def recognise(image: np.ndarray, recogniser: Recogniser | None = None) -> list[Line]:
    """The lines of text in ``image`` (height × width grey, RGB or RGBA uint8), in reading order.

    Without ``recogniser``, one shared by the process is opened at the first call and kept.
    Raises OcrUnavailable when the models are missing and ImageError for an array OCR cannot read.
    """
    global _shared
    if recogniser is None:
        with _shared_lock:
            if _shared is None:
                _shared = Recogniser()
            recogniser = _shared
    return recogniser(image)
