"""Boundaries: the runtime never imports export tools or Qt; export tools stay out of translation;
no two modules of the package import each other, directly or around a circle."""

from __future__ import annotations

import ast
import importlib.metadata
import importlib.util
import re
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import tomllib

FORBIDDEN_IN_ENGINE = ("torch", "transformers", "onnx", "PySide6")


def imported_after(code: str) -> set[str]:
    probe = f"import sys\n{code}\nprint('\\n'.join(sorted(m.split('.')[0] for m in sys.modules)))"
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120)
    return set(out.stdout.split())


def test_engine_imports_no_export_tools_and_no_qt():
    modules = imported_after("import fanyi.engine.translator, fanyi.library.installed")
    assert not modules & set(FORBIDDEN_IN_ENGINE), modules & set(FORBIDDEN_IN_ENGINE)
    assert "onnxruntime" not in modules  # loaded with the first session, not to read a manifest


def test_translating_imports_no_export_tools(tiny_pack):
    modules = imported_after(
        f"from fanyi.engine.translator import Translator\nTranslator.open(r'{tiny_pack}').translate('Hi.')"
    )
    assert not modules & set(FORBIDDEN_IN_ENGINE)
    assert "onnxruntime" in modules


def test_cli_parser_imports_nothing_heavy():
    modules = imported_after("from fanyi.cli import build_parser\nbuild_parser()")
    assert not modules & {"torch", "transformers", "onnx", "onnxruntime", "PySide6"}


def test_downloading_and_installing_packs_needs_no_export_tools_no_qt_and_no_onnxruntime():
    modules = imported_after("import fanyi.library.install, fanyi.cli")
    assert not modules & {"torch", "transformers", "onnx", "onnxruntime", "PySide6", "huggingface_hub"}
    assert "truststore" in modules


def test_the_dictionary_needs_no_qt_no_onnxruntime_and_no_export_tools():
    heavy = {"torch", "transformers", "onnx", "onnxruntime", "PySide6", "huggingface_hub"}
    assert not imported_after("import fanyi.dictionary") & (heavy | {"numpy"})  # the standard library only
    assert not imported_after("import fanyi.library.dictionaries, fanyi.server.dictionary") & heavy


def test_ocr_and_scanned_pdfs_need_no_qt_and_no_export_tools():
    modules = imported_after("import fanyi.ocr, fanyi.documents.pdf, fanyi.documents.pdf.scan")
    assert not modules & set(FORBIDDEN_IN_ENGINE), modules & set(FORBIDDEN_IN_ENGINE)
    assert "onnxruntime" in modules and "cv2" not in modules


# --- import circles ------------------------------------------------------------------------------
# An import inside a function counts: it runs as surely as one at the top, only later, and a lazy
# import that closes a circle only hides it (library -> unpack -> diskspace -> library was one).
# An import under `if TYPE_CHECKING:` never runs, so it cannot load a module or meet a half-initialised
# one; it is checked separately, because a module annotated with the type of a module above it is
# still written against it.
TOP, IN_FUNCTION, TYPE_ONLY = "at the top", "in a function", "under TYPE_CHECKING"


@dataclass(frozen=True)
class Import:
    source: str
    target: str
    kind: str
    line: int


def _module_name(path: Path, root: Path) -> str:
    parts = list(path.relative_to(root).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.Module, module: str, is_package: bool, known: set[str]) -> Iterator[Import]:
    """The package's modules that `module` imports, each with where the import statement stands."""

    def resolve(node: ast.ImportFrom) -> str:
        if not node.level:
            return node.module or ""
        base = module.split(".")[: len(module.split(".")) - (node.level - 1) - (not is_package)]
        return ".".join(base + ([node.module] if node.module else []))

    def walk(node: ast.AST, kind: str) -> Iterator[Import]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and _is_type_checking(child.test):
                for statement in child.body:
                    yield from walk(ast.Module(body=[statement], type_ignores=[]), TYPE_ONLY)
                for statement in child.orelse:
                    yield from walk(ast.Module(body=[statement], type_ignores=[]), kind)
                continue
            inner = IN_FUNCTION if kind == TOP and isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else kind
            if isinstance(child, ast.Import):
                targets = [alias.name for alias in child.names]
            elif isinstance(child, ast.ImportFrom):
                base = resolve(child)
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in known else base for a in child.names]
            else:
                yield from walk(child, inner)
                continue
            for target in dict.fromkeys(targets):
                if target in known and target != module:
                    yield Import(module, target, kind, child.lineno)

    yield from walk(tree, TOP)


def package_imports() -> list[Import]:
    package = Path(importlib.util.find_spec("fanyi").origin).parent
    files = {_module_name(path, package.parent): path for path in sorted(package.rglob("*.py"))}
    found: list[Import] = []
    for module, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        found += _imports(tree, module, path.name == "__init__.py", set(files))
    return found


def import_circles(imports: list[Import]) -> list[list[Import]]:
    """One circle through each group of modules that import each other (strongly connected components)."""
    graph: dict[str, dict[str, Import]] = {}
    for edge in imports:
        graph.setdefault(edge.source, {}).setdefault(edge.target, edge)
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[set[str]] = []

    def visit(node: str) -> None:  # Tarjan's algorithm; the package is far shallower than the recursion limit
        order[node] = low[node] = len(order)
        stack.append(node)
        for nxt in graph.get(node, {}):
            if nxt not in order:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], order[nxt])
        if low[node] == order[node]:
            group = set()
            while True:
                member = stack.pop()
                group.add(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(group)

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return [_circle_in(group, graph) for group in groups]


def _circle_in(group: set[str], graph: dict[str, dict[str, Import]]) -> list[Import]:
    """The shortest way from the group's first module back to itself, by breadth-first search."""
    start = min(group)
    paths: dict[str, list[Import]] = {start: []}
    frontier = [start]
    while frontier:
        following = []
        for node in frontier:
            for nxt, edge in sorted(graph.get(node, {}).items()):
                if nxt == start:
                    return paths[node] + [edge]
                if nxt in group and nxt not in paths:
                    paths[nxt] = paths[node] + [edge]
                    following.append(nxt)
        frontier = following
    raise AssertionError(f"{group} is not a circle")


def described(circles: list[list[Import]]) -> str:
    return "\n".join(
        " -> ".join(f"{e.source} (line {e.line}, {e.kind})" for e in circle) + f" -> {circle[0].source}"
        for circle in circles
    )


def test_no_module_of_the_package_imports_itself_around_a_circle():
    circles = import_circles([i for i in package_imports() if i.kind != TYPE_ONLY])
    assert not circles, "import circles:\n" + described(circles)


def test_no_circle_even_through_type_annotations():
    circles = import_circles(package_imports())
    assert not circles, "import circles:\n" + described(circles)


def test_the_circle_check_sees_lazy_relative_and_type_only_imports():
    tree = ast.parse("from . import b\n\ndef f():\n    from .c import name\n")
    found = list(_imports(tree, "fanyi.a", False, {"fanyi.a", "fanyi.b", "fanyi.c"}))
    assert [(i.target, i.kind) for i in found] == [("fanyi.b", TOP), ("fanyi.c", IN_FUNCTION)]
    tree = ast.parse("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from fanyi.a import A\n")
    back = list(_imports(tree, "fanyi.c", False, {"fanyi.a", "fanyi.b", "fanyi.c"}))
    assert [(i.target, i.kind) for i in back] == [("fanyi.a", TYPE_ONLY)]
    assert described(import_circles(found + back)) == (
        "fanyi.a (line 4, in a function) -> fanyi.c (line 3, under TYPE_CHECKING) -> fanyi.a"
    )
    assert import_circles(found) == []


# --- declared dependencies -----------------------------------------------------------------------
# The installers are built from the runtime dependencies alone: a library that only the dev extras
# bring in (jinja2 came with transformers) passes every test and fails in the bundle.
EXPORT_ONLY = {"torch", "transformers"}
PACKAGE = Path(__file__).resolve().parents[1] / "app" / "fanyi"


def third_party_imports(skip: str) -> dict[str, set[str]]:
    found: dict[str, set[str]] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        if skip in path.relative_to(PACKAGE).parts:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            else:
                continue
            for name in names:
                top = name.split(".")[0]
                if top not in sys.stdlib_module_names and top != "fanyi":
                    found.setdefault(top, set()).add(str(path.relative_to(PACKAGE)))
    return found


def test_every_library_the_runtime_imports_is_a_declared_runtime_dependency():
    declared = tomllib.loads((PACKAGE.parents[1] / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    names = {
        re.split(r"[\s<>=!~\[;]", req, maxsplit=1)[0].lower().replace("_", "-") for req in declared["dependencies"]
    }
    distributions = importlib.metadata.packages_distributions()
    undeclared = {
        module: files
        for module, files in third_party_imports(skip="export").items()
        if not {d.lower().replace("_", "-") for d in distributions.get(module, [module])} & names
    }
    assert not undeclared, f"imported at run time but not in [project].dependencies: {undeclared}"
    assert not set(third_party_imports(skip="export")) & EXPORT_ONLY


# --- one home for language codes ------------------------------------------------------------------
# fanyi.languages owns language codes, their aliases, scripts and names, and the ways of writing Chinese;
# what a model offers, in its own codes, stays with its family, and the exporter keeps the lists models
# were trained with. A table of codes anywhere else is a second answer to a question asked there.
CODE_TABLES_BELONG = ("languages", "engine/families", "export")
_CODE = re.compile(r"[A-Za-z]{2,3}(?:[-_][A-Za-z0-9]{2,8})*")


def _is_language_code(value: object) -> bool:
    from fanyi.languages import HAN_LANGUAGES, english_name, primary_subtag

    return (
        isinstance(value, str)
        and _CODE.fullmatch(value) is not None
        and (english_name(value) is not None or primary_subtag(value) in HAN_LANGUAGES)
    )


def code_tables(tree: ast.AST) -> Iterator[tuple[int, list[str]]]:
    """Literal tables (dict keys, sets, lists, tuples) of three or more strings, nearly all language codes."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Dict):
            elements = node.keys
        elif isinstance(node, (ast.Set, ast.List, ast.Tuple)):
            elements = node.elts
        else:
            continue
        strings = [e.value for e in elements if isinstance(e, ast.Constant) and isinstance(e.value, str)]
        codes = [s for s in strings if _is_language_code(s)]
        if len(codes) >= 3 and len(codes) * 4 >= len(strings) * 3:
            yield node.lineno, codes


def test_language_codes_have_one_home():
    found = {
        f"{path.relative_to(PACKAGE)}:{line}": codes[:6]
        for path in sorted(PACKAGE.rglob("*.py"))
        if not path.relative_to(PACKAGE).as_posix().startswith(CODE_TABLES_BELONG)
        for line, codes in code_tables(ast.parse(path.read_text(encoding="utf-8")))
    }
    assert not found, f"tables of language codes outside fanyi.languages: {found}"


def test_the_code_table_check_sees_tables_of_any_style():
    tree = ast.parse(
        'A = {"cmn_Hans": 1, "zh-TW": 2, "yue": 3}\nB = ("no", "fig", "vol", "pp", "sec")\nC = ["en", "zh"]'
    )
    assert [line for line, _codes in code_tables(tree)] == [1]


# --- the engine's public face --------------------------------------------------------------------
# What the engine offers is declared in fanyi/engine/__init__.py; the rest of the package imports it from
# there. The exporter builds packs with the families' export-time readers, no part of that face.
ENGINE_INSIDERS = ("fanyi.engine", "fanyi.export")


def test_the_engine_is_used_through_its_public_face():
    reaching_in = sorted(
        f"{i.source} (line {i.line}) imports {i.target}"
        for i in package_imports()
        if i.target.startswith("fanyi.engine.") and not i.source.startswith(ENGINE_INSIDERS)
    )
    assert not reaching_in, "import these from fanyi.engine:\n" + "\n".join(reaching_in)


def test_the_engine_face_names_what_its_modules_hold_and_loads_each_when_asked():
    import fanyi.engine as engine

    for name in engine.__all__:
        module = importlib.import_module(f"fanyi.engine.{engine._HOMES[name]}")
        assert getattr(engine, name) is getattr(module, name), name
    assert sorted(engine._HOMES) == sorted(engine.__all__)
    typed = [  # what type checkers see: the imports under TYPE_CHECKING, each from its home
        (alias.name, node.module)
        for node in ast.walk(ast.parse(Path(engine.__file__).read_text(encoding="utf-8")))
        if isinstance(node, ast.ImportFrom) and node.level == 1
        for alias in node.names
    ]
    assert sorted(typed) == sorted(engine._HOMES.items())
    probe = (
        "import sys\nfrom fanyi.engine import DecodeOptions, Failure\nprint('fanyi.engine.translator' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "False"


def test_the_runtime_package_builds_no_test_models():
    """Random-weight models for the tests and benchmarks are built by tests/tiny_models, which no bundle holds:
    nothing in the package seeds torch or saves a Hugging Face model or tokenizer."""
    building = sorted(
        f"{path.relative_to(PACKAGE)}:{node.lineno}"
        for path in PACKAGE.rglob("*.py")
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("manual_seed", "save_pretrained")
    )
    assert not building, building


def test_the_engine_holds_nothing_only_the_export_reads():
    """How a checkpoint becomes a pack is each family's loader (fanyi.export.loaders); the engine's families say
    only how a pack runs, so the installed app carries no export-time reader in its engine."""
    from fanyi.engine import FAMILIES
    from fanyi.export.loaders import LOADERS

    assert set(LOADERS) == set(FAMILIES)
    export_only = (
        "architectures",
        "config_defaults",
        "model_config",
        "check_folder",
        "manifest_languages",
        "manifest_prompt",
        "manifest_architecture",
        "weights",
        "rotary_specs",
        "instructions",
    )
    for name, family in FAMILIES.items():
        assert not [attr for attr in export_only if hasattr(family, attr)], name
        assert LOADERS[name].family is family
