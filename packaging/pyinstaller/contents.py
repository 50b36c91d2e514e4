"""What goes into the bundle, for build.spec: resources, the default pack, and what to leave out.

The runtime imports fanyi, onnxruntime, numpy, sentencepiece, platformdirs, pynput, lxml, python-docx,
pdfminer, pypdfium2 (scanned PDF pages, for OCR), pikepdf (with Pillow) and fontTools (the translated
PDF and its font subset), truststore with ssl (downloads), py3langid with
its model, PySide6's QtCore/QtGui/QtWidgets and QtNetwork (QLocalServer: a second launch hands over to
the running app), and for the local API (fanyi.server) starlette, uvicorn (with h11, anyio, click) and
python-multipart, all plain Python, jinja2 (an LLM pack's chat template), and OpenCC (fanyi.variants:
its extension module and its dictionaries, ~2.3 MB; not its command-line tools, static libraries or
headers). A model downloaded from where its authors publish it is converted on the user's computer, so
the converter is in too: huggingface_hub (with requests and PyYAML, which it imports) lists and resolves
the Hub's files and onnx builds the graphs (the converter needs no onnxslim or sympy); the
tiny checkpoint the self-test converts is assets/selftest. The OCR models (assets/ocr, from
packaging/ocr_models.py) are data; OCR itself needs nothing more than onnxruntime and numpy. So are the CJK
fonts translated PDFs are drawn with (assets/fonts: Noto Sans SC and TC with the OFL, from packaging/cjk_fonts.py;
17.7 MB, about 10.5 MB in a compressed installer), embedded as subsets with pikepdf and fontTools.
Everything else is left out: torch and transformers (the validator), Xet storage's client (the bytes
come through fanyi.library.download), and the Qt modules, plugins and translations nothing here loads.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

DEFAULT_PACK = "opus-mt-en-zh"  # fanyi.library.installed.DEFAULT_PACK; read here without importing the app
CATALOG = "catalog.json"  # fanyi.library.catalog.CATALOG_FILE, which the app looks for in its assets folder
OCR_MODELS = ("PP-OCRv6_det_small.onnx", "PP-OCRv6_rec_small.onnx")  # fanyi.ocr.DET_MODEL, REC_MODEL
# fanyi.documents.pdf.fonts.BUNDLED's faces and the licence that goes with them
CJK_FONTS = ("NotoSansSC-Regular.ttf", "NotoSansTC-Regular.ttf", "OFL.txt")
SELFTEST_MODEL = ("selftest", "tiny-marian")  # fanyi.selftest.SELFTEST_MODEL, under assets: what it converts

# Format modules of fanyi.documents are imported by name (documents/registry.py): analysis cannot see them.
HIDDEN_IMPORTS = [
    "fanyi.documents.txt",
    "fanyi.documents.markdown",
    "fanyi.documents.subtitles",
    "fanyi.documents.html",
    "fanyi.documents.docx",
    "fanyi.documents.pptx",
    "fanyi.documents.epub",
    "fanyi.documents.pdf",
]
# pynput picks its backend by name at import time; the contrib hook's collect_submodules cannot
# import pynput on a build machine without a display, so name this platform's backend.
_PYNPUT = {"win32": "win32", "darwin": "darwin"}.get(sys.platform, "xorg")
HIDDEN_IMPORTS += [f"pynput.keyboard._{_PYNPUT}", f"pynput.mouse._{_PYNPUT}", f"pynput._util.{_PYNPUT}"]
HIDDEN_IMPORTS += {"win32": ["pynput._util.win32_vks"], "darwin": ["pynput._util.darwin_vks"]}.get(
    sys.platform, ["pynput._util.xorg_keysyms"]
)
# uvicorn picks its HTTP protocol, event loop and lifespan by name (fanyi.server.run asks for h11,
# asyncio and off), and anyio its backend.
HIDDEN_IMPORTS += [
    "uvicorn.protocols.http.h11_impl",
    "uvicorn.loops.asyncio",
    "uvicorn.lifespan.off",
    "anyio._backends._asyncio",
]
# fanyi.variants imports OpenCC at the first conversion; the contrib hook collects its data files
# (the dictionaries it reads from opencc/clib/share/opencc, and more that _DROP leaves out)
HIDDEN_IMPORTS += ["opencc"]


def font_table_modules() -> list[str]:
    """fontTools reads each table of a font with the module named after its tag, imported by name
    (fontTools.ttLib.tables.table_API_module): every one, since a system font may hold any table."""
    import pkgutil

    import fontTools.ttLib.tables as tables

    return [f"{tables.__name__}.{module.name}" for module in pkgutil.iter_modules(tables.__path__)]


# the PDF writer's fonts (fanyi.documents.pdf.fonts)
HIDDEN_IMPORTS += font_table_modules()

# fanyi.export's lazy imports of the validator (transformers, torch) must not drag it in; huggingface_hub
# imports hf_xet and fsspec only for what Fanyi never asks of it (Xet transfers, its file system).
# fmt: off
EXCLUDES = [
    "torch", "transformers", "safetensors", "hf_xet", "fsspec", "scipy",
    "tkinter", "matplotlib", "IPython", "pytest", "setuptools", "pip",
    # lxml's hook collects every submodule; the documents use lxml.etree only
    "lxml.objectify", "lxml.html", "lxml.isoschematron",
    "readline",  # ssl stays: pack downloads (fanyi.library.download) need TLS
    # uvicorn's optional speed-ups and websocket stacks, should the build machine have them: h11 serves
    "uvloop", "httptools", "websockets", "wsproto", "watchfiles", "dotenv",
    "PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtQuickWidgets", "PySide6.QtOpenGL",
    "PySide6.QtOpenGLWidgets", "PySide6.QtWebEngineCore", "PySide6.QtWebEngineWidgets", "PySide6.QtMultimedia",
    "PySide6.QtPdf", "PySide6.QtCharts", "PySide6.Qt3DCore", "PySide6.QtSql", "PySide6.QtTest",
    "PySide6.QtDesigner", "PySide6.QtUiTools", "PySide6.QtXml", "PySide6.QtPrintSupport", "PySide6.QtDBus",
    "PySide6.QtSvg", "PySide6.QtSvgWidgets", "PySide6.QtConcurrent", "PySide6.QtHelp",
    "onnxruntime.transformers", "onnxruntime.quantization", "onnxruntime.tools", "onnxruntime.training",
    # pikepdf imports Pillow only for its image objects' helpers, which the PDF writer never calls (~7 MB)
    "PIL",
]
# fmt: on

# Bundle paths (forward slashes) dropped after analysis. The widgets draw with the raster engine,
# so nothing needs OpenGL/EGL or their Wayland buffer plugins; no network. Image formats other
# than SVG go (PNG is built into QtGui). Qt's translations go except the Chinese one that
# fanyi.ui.i18n installs for Qt's own dialogs.
# The GTK3 platform theme goes with the GTK/pango/cairo stack it would drag in from the build
# machine, where mixing them with the user's own GTK is a known source of crashes; Qt then draws
# its own (Fusion) file dialogs, or the desktop portal's through qxdgdesktopportal.
_DROP = [
    r"PySide6/(Qt/)?plugins/(egldeviceintegrations|generic|networkinformation|tls|qmltooling|sqldrivers|"
    r"designer|printsupport|wayland-graphics-integration-server|wayland-graphics-integration-client|"
    r"vectorimageformats)/",
    r"PySide6/(Qt/)?plugins/imageformats/(?!(lib)?qsvg)",
    r"PySide6/(Qt/)?plugins/platforms/(lib)?q(eglfs|linuxfb|minimalegl|vnc|vkkhrdisplay)",
    r"PySide6/(Qt/)?plugins/platformthemes/libqgtk3",
    # OpenCC's wheel also holds its command-line tools, static libraries and C++ headers (~5 MB, ~9 MB on
    # Windows), which the contrib hook's collect_data_files('opencc') takes along; the module needs none
    r"(^|/)opencc/clib/(bin|lib|lib64|include)/",
    r"PySide6/(Qt/)?translations/(?!qtbase_zh_CN\.qm$)",
    r"(^|/)(lib)?Qt6(OpenGL|EglFSDeviceIntegration|EglFsKmsSupport)\.",
    r"(^|/)QtOpenGL\.framework/",
    r"(^|/)opengl32sw\.dll$",
    r"^lib(atk-1\.0|cairo|cairo-gobject|gdk_pixbuf-2\.0|pango-1\.0|pangocairo-1\.0|pangoft2-1\.0|harfbuzz|"
    r"pixman-1|thai|datrie|fribidi|graphite2|jpeg|gio-2\.0|gobject-2\.0|gmodule-2\.0|mount|blkid|selinux|"
    r"Xext|Xrender|gssapi_krb5|krb5|krb5support|k5crypto|keyutils|com_err)\.so",
]
_DROP_RE = re.compile("|".join(f"(?:{p})" for p in _DROP))


def keep(dest: str) -> bool:
    """False for a bundle path (as in Analysis.binaries/datas) that the runtime never loads."""
    return not _DROP_RE.search(dest.replace("\\", "/"))


def default_pack(models: Path) -> Path | None:
    """The int8 pack to ship: opus-mt-en-zh when models/ has it quantized, else none."""
    pack = models / DEFAULT_PACK
    try:
        manifest = json.loads((pack / "manifest.json").read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    return pack if manifest.get("quantization", {}).get("mode") == "int8" else None


def langid_model() -> Path:
    """py3langid's model file, which it reads from its package folder (PyInstaller collects no package data)."""
    import importlib.util

    spec = importlib.util.find_spec("py3langid")
    assert spec is not None and spec.origin is not None, "py3langid is a runtime dependency"
    return Path(spec.origin).parent / "data" / "model.npz.xz"


def datas(root: Path) -> list[tuple[str, str]]:
    """(source, bundle folder) pairs: the icon, compiled UI translations, py3langid's model, the OCR models
    with their licence notices, the CJK fonts with theirs, the self-test's tiny checkpoint, the catalog and the
    default pack.

    assets/catalog.json is the catalog of recipes (fanyi.library.catalog): the one committed (packaging/publish.py
    recipes), or a release's, which the installers' workflow puts there (packaging/publish.py fetch-default) with
    the default pack. The OCR models and the fonts are not committed: packaging/build.py fetches them first, and
    a bundle is not built without them.
    """
    found = [(str(root / "assets" / "icons" / "fanyi.svg"), "assets/icons")]
    found += [(str(qm), "assets/i18n") for qm in sorted((root / "assets" / "i18n").glob("*.qm"))]
    found.append((str(langid_model()), "py3langid/data"))
    ocr = root / "assets" / "ocr"
    missing = [name for name in OCR_MODELS if not (ocr / name).is_file()]
    if missing:
        raise FileNotFoundError(f"{', '.join(missing)} not in {ocr}: run python packaging/ocr_models.py")
    found += [(str(path), "assets/ocr") for path in sorted(ocr.iterdir()) if not path.name.startswith(".")]
    fonts = root / "assets" / "fonts"
    missing = [name for name in CJK_FONTS if not (fonts / name).is_file()]
    if missing:
        raise FileNotFoundError(f"{', '.join(missing)} not in {fonts}: run python packaging/cjk_fonts.py")
    found += [(str(fonts / name), "assets/fonts") for name in CJK_FONTS]
    checkpoint = root.joinpath("assets", *SELFTEST_MODEL)
    if not (checkpoint / "config.json").is_file():
        raise FileNotFoundError(f"{checkpoint} is missing: the self-test's checkpoint (packaging/selftest_model.py)")
    found += [(str(path), "/".join(("assets", *SELFTEST_MODEL))) for path in sorted(checkpoint.iterdir())]
    if (shipped := root / "assets" / CATALOG).is_file():
        found.append((str(shipped), "assets"))
    if pack := default_pack(root / "models"):
        found.append((str(pack), f"models/{pack.name}"))
    return found
