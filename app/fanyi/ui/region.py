"""Choosing a region of the screen: each screen is captured, then covered by a window showing the
capture dimmed, on which the user drags a rectangle (Esc cancels).

One overlay per screen, each at its own screen's device pixel ratio, so several monitors and HiDPI
work: the region is cut from the capture in device pixels, the sharpest image OCR can get. A
rectangle is drawn on one screen (a drag is kept to the screen it started on).

Where the screen cannot be captured, ``availability()`` says why in one sentence: Wayland lets an
application see only its own windows (its screenshot portal is not used here).
"""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from PySide6.QtCore import QCoreApplication, QObject, QPoint, QRect, QSize, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QImage, QKeyEvent, QMouseEvent, QPainter, QPaintEvent, QPen, QPixmap
from PySide6.QtWidgets import QWidget

MIN_SIDE = 4  # logical pixels: a smaller drag is a slip of the mouse, not a region
DIM = QColor(0, 0, 0, 110)


def availability() -> tuple[bool, str]:
    """(True, "") where the screen can be captured, else (False, a reason for the user)."""
    wayland = QGuiApplication.platformName() == "wayland" or (
        sys.platform.startswith("linux") and os.environ.get("XDG_SESSION_TYPE") == "wayland"
    )
    if wayland:
        return False, QCoreApplication.translate(
            "region",
            "Wayland does not let applications capture the screen, so screenshot translation cannot "
            "work here. Log in with an X11 session to use it.",
        )
    return True, ""


@dataclass(frozen=True)
class Shot:
    """One screen's capture: ``geometry`` in logical desktop coordinates, the pixmap in device pixels."""

    geometry: QRect
    pixmap: QPixmap


def grab_screens() -> list[Shot]:
    """Every screen as it looks now; screens whose capture comes back empty are left out."""
    shots = []
    for screen in QGuiApplication.screens():
        pixmap = screen.grabWindow(0)
        if not pixmap.isNull():
            shots.append(Shot(screen.geometry(), pixmap))
    return shots


def selection(start: QPoint, end: QPoint) -> QRect:
    """The rectangle between two corners dragged in any direction, both corners included."""
    # QRect(start, end).normalized() is one pixel short on each side when dragged up or left
    return QRect(
        QPoint(min(start.x(), end.x()), min(start.y(), end.y())),
        QPoint(max(start.x(), end.x()), max(start.y(), end.y())),
    )


def cut(pixmap: QPixmap, region: QRect) -> QImage:
    """The part of ``pixmap`` under ``region`` (logical pixels), at the pixmap's full resolution."""
    ratio = pixmap.devicePixelRatio()
    device = QRect(
        round(region.x() * ratio),
        round(region.y() * ratio),
        round(region.width() * ratio),
        round(region.height() * ratio),
    )
    return pixmap.copy(device.intersected(pixmap.rect())).toImage()


class RegionOverlay(QWidget):
    """A frameless window covering one screen with its capture; emits the logical rectangle dragged."""

    chosen = Signal(QRect)
    cancelled = Signal()

    def __init__(self, shot: Shot) -> None:
        flags = Qt.WindowType.FramelessWindowHint | Qt.WindowType.WindowStaysOnTopHint | Qt.WindowType.Tool
        super().__init__(None, flags)
        self.setObjectName("regionOverlay")
        self.setAttribute(Qt.WidgetAttribute.WA_DeleteOnClose)
        self.shot = shot
        self._start: QPoint | None = None
        self.region = QRect()
        self.setCursor(Qt.CursorShape.CrossCursor)
        self.setGeometry(shot.geometry)
        self.hint = QCoreApplication.translate("region", "Drag around the text to translate. Esc cancels.")

    def mousePressEvent(self, event: QMouseEvent) -> None:
        if event.button() == Qt.MouseButton.LeftButton:
            self._start = event.position().toPoint()
            self.region = QRect(self._start, QSize(0, 0))
            self.update()
        elif event.button() == Qt.MouseButton.RightButton:
            self.cancelled.emit()

    def mouseMoveEvent(self, event: QMouseEvent) -> None:
        if self._start is not None:
            self.region = selection(self._start, event.position().toPoint()).intersected(self.rect())
            self.update()

    def mouseReleaseEvent(self, event: QMouseEvent) -> None:
        if self._start is None or event.button() != Qt.MouseButton.LeftButton:
            return
        self.region = selection(self._start, event.position().toPoint()).intersected(self.rect())
        self._start = None
        if self.region.width() >= MIN_SIDE and self.region.height() >= MIN_SIDE:
            self.chosen.emit(self.region)
        else:
            self.region = QRect()
            self.update()

    def keyPressEvent(self, event: QKeyEvent) -> None:
        if event.key() == Qt.Key.Key_Escape:
            self.cancelled.emit()
        else:
            super().keyPressEvent(event)

    def paintEvent(self, event: QPaintEvent) -> None:
        painter = QPainter(self)
        painter.drawPixmap(self.rect(), self.shot.pixmap)
        if self.region.isEmpty():
            painter.fillRect(self.rect(), DIM)
        else:
            full, r = self.rect(), self.region
            for part in (
                QRect(full.left(), full.top(), full.width(), r.top()),
                QRect(full.left(), r.bottom() + 1, full.width(), full.bottom() - r.bottom()),
                QRect(full.left(), r.top(), r.left(), r.height()),
                QRect(r.right() + 1, r.top(), full.right() - r.right(), r.height()),
            ):
                painter.fillRect(part, DIM)
            painter.setPen(QPen(QColor(64, 156, 255), 2))
            painter.drawRect(r.adjusted(0, 0, -1, -1))
        label = painter.fontMetrics().boundingRect(self.hint).adjusted(-12, -6, 12, 6)
        label.moveCenter(QPoint(self.width() // 2, 28))
        painter.fillRect(label, QColor(0, 0, 0, 170))
        painter.setPen(QColor("white"))
        painter.drawText(label, Qt.AlignmentFlag.AlignCenter, self.hint)


class RegionPicker(QObject):
    """Covers every screen with an overlay; ``picked`` gives the image of the region chosen."""

    picked = Signal(QImage)
    cancelled = Signal()

    def __init__(self, parent: QObject | None = None) -> None:
        super().__init__(parent)
        self.overlays: list[RegionOverlay] = []

    @property
    def active(self) -> bool:
        return bool(self.overlays)

    def start(self, shots: list[Shot]) -> None:
        self.close()
        for shot in shots:
            overlay = RegionOverlay(shot)
            overlay.chosen.connect(lambda region, o=overlay: self._chosen(o, region))
            overlay.cancelled.connect(self._cancel)
            self.overlays.append(overlay)
            overlay.show()
            overlay.raise_()
        if self.overlays:
            self.overlays[0].activateWindow()

    def close(self) -> None:
        overlays, self.overlays = self.overlays, []
        for overlay in overlays:
            overlay.close()

    def _chosen(self, overlay: RegionOverlay, region: QRect) -> None:
        image = cut(overlay.shot.pixmap, region)
        self.close()
        self.picked.emit(image)

    def _cancel(self) -> None:
        self.close()
        self.cancelled.emit()
