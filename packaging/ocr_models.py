"""Put the OCR models into assets/ocr: PP-OCRv6 small text detection and recognition (ONNX).

    python packaging/ocr_models.py [DEST]

They come from RapidOCR's wheel on PyPI (`rapidocr`, Apache-2.0; the models are PaddleOCR's,
Apache-2.0, attributed in its MODEL_LICENSES.md, which is copied beside them). Only the wheel is
downloaded, with pip and no dependencies: none of RapidOCR's code or its OpenCV is installed or
bundled (fanyi/ocr.py runs the models itself). The wheel and each model are checked against the
sha256 sums pinned here, so a different file is refused. Nothing is done when DEST already holds
the right models. Run by `make install`/`make test` (for running from source) and by `make dist`
(the bundle carries them: packaging/pyinstaller/contents.py).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEST = ROOT / "assets" / "ocr"
WHEEL = "rapidocr==3.10.0"
WHEEL_SHA256 = "2fc34e26cd0f48514804a94f8832283039c7334076bff60768b1fed9ad068050"
# file in assets/ocr: (member of the wheel, sha256 of the file, or None for the notices)
FILES = {
    "PP-OCRv6_det_small.onnx": (
        "rapidocr/models/PP-OCRv6_det_small.onnx",
        "090f04abcd9d9a7498bc4ebf677e4cb9bdce1fe4197ddb7e529f1ef44e1ff94f",
    ),
    "PP-OCRv6_rec_small.onnx": (
        "rapidocr/models/PP-OCRv6_rec_small.onnx",
        "6f327246b50388f3c176ae304bd95767ea6dc0c9ae92153ef8cbe210b3c14884",
    ),
    "MODEL_LICENSES.md": ("rapidocr-3.10.0.dist-info/licenses/MODEL_LICENSES.md", None),
    "LICENSE": ("rapidocr-3.10.0.dist-info/licenses/LICENSE", None),
}


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def present(dest: Path) -> bool:
    """True when every file is in ``dest`` and each model has its pinned checksum."""
    return all(
        (dest / name).is_file() and (expected is None or sha256(dest / name) == expected)
        for name, (_member, expected) in FILES.items()
    )


def fetch(dest: Path) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        subprocess.run(
            [
                sys.executable,
                "-m",
                "pip",
                "download",
                "--quiet",
                "--disable-pip-version-check",
                "--no-deps",
                "--only-binary=:all:",
                "-d",
                tmp,
                WHEEL,
            ],
            check=True,
        )
        wheel = next(Path(tmp).glob("*.whl"))
        if sha256(wheel) != WHEEL_SHA256:
            raise SystemExit(f"{wheel.name} is not the wheel this script pins (sha256 differs); nothing was changed")
        dest.mkdir(parents=True, exist_ok=True)
        with zipfile.ZipFile(wheel) as archive:
            for name, (member, expected) in FILES.items():
                part = dest / f".{name}.part"
                with archive.open(member) as source, part.open("wb") as out:
                    while block := source.read(1 << 20):
                        out.write(block)
                if expected is not None and sha256(part) != expected:
                    part.unlink()
                    raise SystemExit(f"{member} in {wheel.name} has an unexpected sha256; nothing was changed")
                os.replace(part, dest / name)


def main(argv: list[str]) -> int:
    dest = Path(argv[0]) if argv else DEST
    if present(dest):
        print(f"OCR models: already in {dest}")
        return 0
    try:
        fetch(dest)
    except (subprocess.CalledProcessError, OSError) as exc:
        print(
            f"OCR models: could not get {WHEEL} from the package index ({exc}); "
            "screenshot translation and scanned PDFs need them",
            file=sys.stderr,
        )
        return 1
    print(f"OCR models: {WHEEL}'s PP-OCRv6 small detection and recognition models are in {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
