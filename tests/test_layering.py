"""Boundaries: the runtime never imports export tools or Qt; export tools stay out of translation."""

from __future__ import annotations

import subprocess
import sys

FORBIDDEN_IN_ENGINE = ("torch", "transformers", "onnx", "onnxslim", "PySide6")


def imported_after(code: str) -> set[str]:
    probe = f"import sys\n{code}\nprint('\\n'.join(sorted(m.split('.')[0] for m in sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120)
    return set(out.stdout.split())


def test_engine_imports_no_export_tools_and_no_qt():
    modules = imported_after("import fanyi.engine.translator, fanyi.packs.library")
    assert not modules & set(FORBIDDEN_IN_ENGINE), modules & set(FORBIDDEN_IN_ENGINE)
    assert "onnxruntime" in modules


def test_translating_imports_no_export_tools(tiny_pack):
    modules = imported_after(
        f"from fanyi.engine.translator import Translator\nTranslator.open(r'{tiny_pack}').translate('Hi.')")
    assert not modules & set(FORBIDDEN_IN_ENGINE)


def test_cli_parser_imports_nothing_heavy():
    modules = imported_after("from fanyi.cli import build_parser\nbuild_parser()")
    assert not modules & {"torch", "transformers", "onnx", "onnxruntime", "PySide6"}


def test_downloading_and_installing_packs_needs_no_export_tools_no_qt_and_no_onnxruntime():
    modules = imported_after("import fanyi.packs.install, fanyi.cli")
    assert not modules & {"torch", "transformers", "onnx", "onnxruntime", "PySide6", "huggingface_hub"}
    assert "truststore" in modules


def test_ocr_and_scanned_pdfs_need_no_qt_and_no_export_tools():
    modules = imported_after("import fanyi.ocr, fanyi.documents.pdf, fanyi.documents.pdfocr")
    assert not modules & set(FORBIDDEN_IN_ENGINE), modules & set(FORBIDDEN_IN_ENGINE)
    assert "onnxruntime" in modules and "cv2" not in modules
