"""Text from the screen: a region is chosen over a still of the screens, and its text recognised in a
worker thread (fanyi.ui.ocr_service), never in the GUI thread."""

from __future__ import annotations

from collections.abc import Callable

from PySide6.QtCore import QObject, Signal
from PySide6.QtGui import QImage

from fanyi.ui import region
from fanyi.ui.ocr_service import OcrService, Recognise
from fanyi.ui.region import RegionPicker, Shot, grab_screens


class ScreenTextController(QObject):
    found = Signal(str)  # the region's text, to translate
    message = Signal(str)  # instead: nothing found, no screen to capture, recognition failed

    def __init__(self, recognise: Recognise, grab: Callable[[], list[Shot]] | None = None) -> None:
        super().__init__()
        self._grab = grab or grab_screens
        self.picker = RegionPicker()
        self.picker.picked.connect(self._recognise)
        self.ocr = OcrService(recognise)
        self.ocr.recognised.connect(self._on_recognised)
        self.ocr.failed.connect(self._on_failed)
        self._request: int | None = None

    @property
    def active(self) -> bool:
        return self.picker.active

    def start(self) -> None:
        """Cover the screens to choose a region, or say why the screen cannot be captured."""
        ok, why = region.availability()
        shots = self._grab() if ok else []
        if not shots:
            self.message.emit(why or self.tr("The screen could not be captured."))
            return
        self.picker.start(shots)

    def shutdown(self) -> None:
        self.picker.close()
        self.ocr.shutdown()

    def _recognise(self, image: QImage) -> None:
        self._request = self.ocr.request(image)

    def _on_recognised(self, req_id: int, text: str) -> None:
        if req_id != self._request:
            return
        self._request = None
        if text.strip():
            self.found.emit(text)
        else:
            self.message.emit(self.tr("No text was found in the selected region."))

    def _on_failed(self, req_id: int, message: str) -> None:
        if req_id == self._request:
            self._request = None
            self.message.emit(message)
