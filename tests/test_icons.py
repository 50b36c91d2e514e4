"""packaging/icons.py: every platform's icon files rendered from assets/icons/fanyi.svg."""

from __future__ import annotations

import struct
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))
import icons  # noqa: E402


def test_icons_are_rendered_at_every_size(tmp_path, qapp):
    from PySide6.QtGui import QImage

    icons.write_icons(ROOT / "assets" / "icons" / "fanyi.svg", tmp_path)
    for size in icons.SIZES:
        image = QImage(str(tmp_path / f"fanyi-{size}.png"))
        assert (image.width(), image.height()) == (size, size)
        # the tile is opaque blue in the middle, transparent in the corner
        assert image.pixelColor(size // 2, size // 4).alpha() == 255
        assert image.pixelColor(0, 0).alpha() == 0
    assert sorted(p.name for p in (tmp_path / "fanyi.iconset").iterdir()) == sorted(
        f"icon_{name}.png" for name in icons.ICONSET
    )


def test_ico_directory_points_at_the_pngs(tmp_path, qapp):
    pngs = icons.render_pngs(ROOT / "assets" / "icons" / "fanyi.svg")
    ico = icons.ico_bytes(pngs)
    reserved, kind, count = struct.unpack_from("<HHH", ico)
    assert (reserved, kind, count) == (0, 1, len(icons.ICO_SIZES))
    for i, size in enumerate(icons.ICO_SIZES):
        width, height, _, _, planes, bpp, length, offset = struct.unpack_from("<BBBBHHII", ico, 6 + 16 * i)
        assert width == height == (0 if size == 256 else size)
        assert (planes, bpp) == (1, 32)
        assert ico[offset : offset + length] == pngs[size]
