"""Images of known text for the OCR tests, drawn with Qt (offscreen) in fonts the machine has."""

from __future__ import annotations

import os
from collections.abc import Sequence

import numpy as np
import pytest


def _app():
    # a QApplication, not the QGuiApplication drawing needs: the widget tests may share this process
    # (pytest-xdist), and Qt cannot have a second application object
    from PySide6.QtWidgets import QApplication

    return QApplication.instance() or QApplication([])


def chinese_family() -> str:
    """A font family that draws Simplified Chinese; skips without one, except in CI (.ci/run installs one)."""
    _app()
    from PySide6.QtGui import QFontDatabase

    families = QFontDatabase.families(QFontDatabase.WritingSystem.SimplifiedChinese)
    if not families:
        if os.environ.get("CI"):
            pytest.fail("no font here draws Chinese: .ci/run installs fonts-droid-fallback")
        pytest.skip("no font on this machine draws Chinese (apt-get install fonts-droid-fallback)")
    return "Droid Sans Fallback" if "Droid Sans Fallback" in families else families[0]


def draw(
    texts: Sequence[tuple[int, int, str]],
    size: tuple[int, int],
    *,
    family: str = "DejaVu Sans",
    pixels: int = 20,
    background: str = "white",
    color: str = "black",
) -> np.ndarray:
    """An RGB image of ``size`` (width, height) with each text drawn with its baseline's left end at (x, y)."""
    _app()
    from PySide6.QtGui import QColor, QFont, QImage, QPainter

    image = QImage(size[0], size[1], QImage.Format.Format_RGB888)
    image.fill(QColor(background))
    painter = QPainter(image)
    font = QFont(family)
    font.setPixelSize(pixels)
    painter.setFont(font)
    painter.setPen(QColor(color))
    for x, y, text in texts:
        painter.drawText(x, y, text)
    painter.end()
    rows = np.frombuffer(image.constBits(), np.uint8).reshape(size[1], image.bytesPerLine())
    return rows[:, : size[0] * 3].reshape(size[1], size[0], 3).copy()


def draw_lines(
    lines: Sequence[str], *, pixels: int = 20, margin: int = 16, spacing: float = 1.6, **style
) -> np.ndarray:
    """The lines one under another, as text in a window: ``spacing`` line heights apart."""
    _app()
    from PySide6.QtGui import QFont, QFontMetrics

    font = QFont(style.get("family", "DejaVu Sans"))
    font.setPixelSize(pixels)
    metrics = QFontMetrics(font)
    width = max(metrics.horizontalAdvance(line) for line in lines) + 2 * margin
    height = int(len(lines) * pixels * spacing) + 2 * margin
    texts = [(margin, int(margin + i * pixels * spacing + metrics.ascent()), line) for i, line in enumerate(lines)]
    return draw(texts, (width, height), pixels=pixels, **style)
