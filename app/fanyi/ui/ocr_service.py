"""Recognising the text of a screen region in a worker thread, never in the GUI thread.

``OcrService.request(image)`` hands a QImage (copied into a numpy array in the GUI thread) to a
QObject in its own QThread, which runs ``fanyi.ocr`` (imported there, on first use: the models load
with the first screenshot, not with the app) and answers with ``recognised(req_id, text)`` — ""
when the region holds no text — or ``failed(req_id, message)``.
"""

from __future__ import annotations

import itertools
import logging
from collections.abc import Callable

import numpy as np
from PySide6.QtCore import QObject, QThread, Signal, Slot
from PySide6.QtGui import QImage

log = logging.getLogger(__name__)

Recognise = Callable[[np.ndarray], str]


def recognise_text(image: np.ndarray) -> str:
    """The real OCR: the region's text, in reading order and paragraphs."""
    from fanyi import ocr  # noqa: PLC0415 - ONNX Runtime and the models load with the first recognition

    return ocr.text(ocr.recognise(image))


def to_array(image: QImage) -> np.ndarray:
    """An RGB copy of ``image`` as a height × width × 3 uint8 array."""
    rgb = image.convertToFormat(QImage.Format.Format_RGB888)
    rows = np.frombuffer(rgb.constBits(), np.uint8).reshape(rgb.height(), rgb.bytesPerLine())
    pixels: np.ndarray = rows[:, : rgb.width() * 3].reshape(rgb.height(), rgb.width(), 3).copy()
    return pixels


class _Worker(QObject):
    recognised = Signal(int, str)
    failed = Signal(int, str)

    def __init__(self, recognise: Recognise) -> None:
        super().__init__()
        self._recognise = recognise

    @Slot(int, object)
    def run(self, req_id: int, image: np.ndarray) -> None:
        from fanyi.ocr import ImageError, OcrUnavailable  # noqa: PLC0415 - as recognise_text

        try:
            text = self._recognise(image)
        except OcrUnavailable as exc:
            self.failed.emit(req_id, self.tr("Text cannot be recognised: %1.").replace("%1", str(exc)))
        except ImageError as exc:
            self.failed.emit(req_id, self.tr("This region cannot be recognised: %1.").replace("%1", str(exc)))
        except Exception as exc:  # whatever OCR raises, the GUI says it and goes on
            log.exception("OCR failed")
            self.failed.emit(
                req_id, self.tr("Text recognition failed: %1").replace("%1", str(exc) or type(exc).__name__)
            )
        else:
            self.recognised.emit(req_id, text)


class OcrService(QObject):
    recognised = Signal(int, str)
    failed = Signal(int, str)

    _submit = Signal(int, object)

    def __init__(self, recognise: Recognise = recognise_text, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self._ids = itertools.count(1)
        self._thread = QThread()
        self._thread.setObjectName("fanyi-ocr")
        self._worker = _Worker(recognise)
        self._worker.moveToThread(self._thread)
        self._submit.connect(self._worker.run)
        self._worker.recognised.connect(self.recognised)
        self._worker.failed.connect(self.failed)
        self._thread.start()

    def request(self, image: QImage) -> int:
        req_id = next(self._ids)
        self._submit.emit(req_id, to_array(image))
        return req_id

    def shutdown(self) -> None:
        self._thread.quit()
        self._thread.wait()
