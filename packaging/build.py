"""`make dist`: this platform's bundle from build.spec, then what a user downloads.

Run it with the build venv's interpreter (.venv-dist: the runtime dependencies and PyInstaller
only, so a bundle that works also proves the runtime needs no torch). Writes into dist/:

  Linux    fanyi/ (the bundle), Fanyi-<v>-linux-<arch>.tar.xz, and Fanyi-<v>-<arch>.AppImage when
           appimagetool is on PATH (packaging/linux/package.sh)
  macOS    Fanyi.app and Fanyi-<v>-macos-<arch>.dmg (packaging/macos/make_dmg.sh)
  Windows  Fanyi/ and Fanyi-Setup-<v>.exe when Inno Setup's ISCC is installed (packaging/windows/fanyi.iss)
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
ICONS = ROOT / "build" / "icons"


def version() -> str:
    text = (ROOT / "app" / "fanyi" / "__init__.py").read_text(encoding="utf-8")
    return re.search(r'__version__ = "([^"]+)"', text).group(1)


def run(*cmd: str | Path) -> None:
    print("+", " ".join(map(str, cmd)), flush=True)
    subprocess.run([str(c) for c in cmd], check=True, cwd=ROOT)


def strip_interpreter(bundle: Path) -> None:
    """The interpreter comes from the build machine with its symbols (libpython alone is ~17 MB of
    them). The wheels' libraries are left alone: strip breaks auditwheel-patched ones (numpy.libs)."""
    files = [*bundle.glob("_internal/libpython3*.so*"), *bundle.glob("_internal/python3*/lib-dynload/*.so")]
    if files and shutil.which("strip"):
        run("strip", "--strip-unneeded", *files)


def iscc() -> str | None:
    found = shutil.which("iscc")
    for base in (os.environ.get(name) for name in ("ProgramFiles(x86)", "ProgramFiles", "LOCALAPPDATA")):
        if not found and base:
            for candidate in Path(base).glob("*Inno Setup*/ISCC.exe"):
                found = str(candidate)
    return found


def main() -> int:
    v = version()
    run(sys.executable, "packaging/ocr_models.py")  # the bundle carries the OCR models: no download at run time
    run(sys.executable, "packaging/cjk_fonts.py")  # and the CJK fonts translated PDFs are drawn with
    run(sys.executable, "packaging/icons.py", ICONS)
    if sys.platform == "darwin":
        run("iconutil", "-c", "icns", ICONS / "fanyi.iconset", "-o", ICONS / "fanyi.icns")
    run(sys.executable, "-m", "PyInstaller", "--noconfirm", "build.spec")
    if sys.platform == "darwin":
        run("bash", "packaging/macos/make_dmg.sh", v)
    elif sys.platform == "win32":
        if compiler := iscc():
            run(compiler, f"/DAppVersion={v}", "packaging/windows/fanyi.iss")
        else:
            print("Inno Setup (ISCC.exe) not found: dist/Fanyi is built, the installer is not.")
    else:
        strip_interpreter(ROOT / "dist" / "fanyi")
        run("bash", "packaging/linux/package.sh", v)
    return 0


if __name__ == "__main__":
    sys.exit(main())
