"""Boundaries: the runtime never imports export tools or Qt; export tools stay out of translation."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

FORBIDDEN_IN_ENGINE = ("torch", "transformers", "onnx", "onnxslim", "PySide6")


def imported_after(code: str) -> set[str]:
    probe = f"import sys\n{code}\nprint('\\n'.join(sorted(m.split('.')[0] for m in sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120)
    return set(out.stdout.split())


def test_engine_imports_no_export_tools_and_no_qt():
    modules = imported_after("import fanyi.engine.translator, fanyi.library")
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
    modules = imported_after("import fanyi.installer, fanyi.cli")
    assert not modules & {"torch", "transformers", "onnx", "onnxruntime", "PySide6", "huggingface_hub"}
    assert "truststore" in modules


def test_ocr_and_scanned_pdfs_need_no_qt_and_no_export_tools():
    modules = imported_after("import fanyi.ocr, fanyi.documents.pdf, fanyi.documents.pdfocr")
    assert not modules & set(FORBIDDEN_IN_ENGINE), modules & set(FORBIDDEN_IN_ENGINE)
    assert "onnxruntime" in modules and "cv2" not in modules


PACKAGE = Path(__file__).resolve().parents[1] / "app" / "fanyi"
# Circles being taken apart on another branch (issue 20: pack management into fanyi/packs/); once that is
# merged these module names are gone and the entry matches nothing.
KNOWN_CIRCLES = [{"fanyi.diskspace", "fanyi.library", "fanyi.unpack"}]


def import_graph() -> dict[str, set[str]]:
    """Module → the package's modules it imports, anywhere in the file (in functions and TYPE_CHECKING blocks
    too: a circle there is still two modules that cannot be understood one without the other)."""
    def name_of(path: Path) -> str:
        parts = ("fanyi", *path.relative_to(PACKAGE).with_suffix("").parts)
        return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)

    modules = {name_of(p): p for p in PACKAGE.rglob("*.py")}

    def known(name: str) -> str | None:
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    graph = {}
    for name, path in modules.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        found = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                found.update(known(alias.name) for alias in node.names if alias.name.startswith("fanyi"))
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) + 1 - node.level]
                    base = ".".join(parts + ([base] if base else []))
                if base.startswith("fanyi"):
                    found.update(known(f"{base}.{alias.name}") if f"{base}.{alias.name}" in modules else known(base)
                                 for alias in node.names)
        graph[name] = found - {None, name}
    return graph


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected groups of more than one module (Tarjan's algorithm, iteratively)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found = []
    for start in graph:
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        while work:
            node, edges = work[-1]
            following = next(edges, None)
            if following is None:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = set()
                    while True:
                        member = stack.pop()
                        group.add(member)
                        if member == node:
                            break
                    if len(group) > 1:
                        found.append(group)
            elif following not in index:
                index[following] = low[following] = len(index)
                stack.append(following)
                work.append((following, iter(sorted(graph[following]))))
            elif following in stack:
                low[node] = min(low[node], index[following])
    return found


def test_no_import_circles():
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [{"a", "b", "c"}]  # the check can fail
    assert [group for group in circles(import_graph()) if group not in KNOWN_CIRCLES] == []
