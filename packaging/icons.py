"""Render the one icon source, assets/icons/fanyi.svg, into what each platform's packaging wants.

    python packaging/icons.py OUT_DIR

writes fanyi-<size>.png (Linux .desktop and AppImage), fanyi.ico (Windows exe and installer) and
fanyi.iconset/ (macOS: `iconutil -c icns` turns it into fanyi.icns). Generated at build time, not
committed, so the SVG stays the only source.
"""

from __future__ import annotations

import os
import struct
import sys
from pathlib import Path

SIZES = (16, 24, 32, 48, 64, 128, 256, 512, 1024)
ICO_SIZES = (16, 24, 32, 48, 64, 128, 256)  # 256 is the largest an .ico entry can describe
# iconutil's names: each size at 1x and 2x
ICONSET = {
    "16x16": 16,
    "16x16@2x": 32,
    "32x32": 32,
    "32x32@2x": 64,
    "128x128": 128,
    "128x128@2x": 256,
    "256x256": 256,
    "256x256@2x": 512,
    "512x512": 512,
    "512x512@2x": 1024,
}


def render_pngs(svg: Path) -> dict[int, bytes]:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from PySide6.QtCore import QBuffer, QByteArray, QIODevice, Qt
    from PySide6.QtGui import QGuiApplication, QImage, QPainter
    from PySide6.QtSvg import QSvgRenderer

    _app = QGuiApplication.instance() or QGuiApplication([])  # QPainter and QSvgRenderer expect one
    renderer = QSvgRenderer(str(svg))
    if not renderer.isValid():
        raise SystemExit(f"{svg} is not a valid SVG")
    pngs = {}
    for size in SIZES:
        image = QImage(size, size, QImage.Format.Format_ARGB32_Premultiplied)
        image.fill(Qt.GlobalColor.transparent)
        painter = QPainter(image)
        renderer.render(painter)
        painter.end()
        data = QByteArray()
        buffer = QBuffer(data)
        buffer.open(QIODevice.OpenModeFlag.WriteOnly)
        image.save(buffer, "PNG")
        pngs[size] = bytes(data.data())
    return pngs


def ico_bytes(pngs: dict[int, bytes]) -> bytes:
    """An .ico whose entries are PNGs (read by Windows since Vista and by Inno Setup)."""
    header = struct.pack("<HHH", 0, 1, len(ICO_SIZES))
    offset = len(header) + 16 * len(ICO_SIZES)
    entries, images = b"", b""
    for size in ICO_SIZES:
        png = pngs[size]
        side = 0 if size == 256 else size  # 0 means 256 in the one-byte width/height fields
        entries += struct.pack("<BBBBHHII", side, side, 0, 0, 1, 32, len(png), offset)
        images += png
        offset += len(png)
    return header + entries + images


def write_icons(svg: Path, out: Path) -> None:
    pngs = render_pngs(svg)
    iconset = out / "fanyi.iconset"
    iconset.mkdir(parents=True, exist_ok=True)
    for size, png in pngs.items():
        (out / f"fanyi-{size}.png").write_bytes(png)
    for name, size in ICONSET.items():
        (iconset / f"icon_{name}.png").write_bytes(pngs[size])
    (out / "fanyi.ico").write_bytes(ico_bytes(pngs))


if __name__ == "__main__":
    root = Path(__file__).resolve().parents[1]
    out_dir = Path(sys.argv[1]) if len(sys.argv) > 1 else root / "build" / "icons"
    write_icons(root / "assets" / "icons" / "fanyi.svg", out_dir)
