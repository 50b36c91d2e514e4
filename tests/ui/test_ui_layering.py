"""The UI loads no engine at import, only the worker touches fanyi.engine.translator, and the app class only builds
and connects."""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

UI = Path(__file__).resolve().parents[2] / "app" / "fanyi" / "ui"
FILES = sorted(UI.rglob("*.py"))
MODULES = [".".join(("fanyi", "ui", *p.relative_to(UI).with_suffix("").parts)).removesuffix(".__init__") for p in FILES]


def test_importing_the_ui_loads_no_onnxruntime():
    probe = (
        "import sys, importlib\n"
        f"for name in {MODULES!r}: importlib.import_module(name)\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('onnxruntime', 'torch', 'transformers')"
        " or m == 'fanyi.engine.translator'))\n"
    )
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(UI.parents[1]))
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, env=env, timeout=120, check=True
    )
    assert out.stdout.strip() == "[]"


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative to the module's package
                package = ["fanyi", *path.parent.relative_to(UI.parent).parts]
                base = ".".join(package[: len(package) + 1 - node.level] + ([base] if base else []))
            names.add(base)
            names.update(f"{base}.{alias.name}" for alias in node.names)
    return names


def test_only_the_worker_imports_the_translator():
    translator = {"fanyi.engine.translator", "fanyi.engine.Translator"}
    importers = [p.relative_to(UI).as_posix() for p in FILES if translator & imported_modules(p)]
    assert importers == ["worker.py"]


def test_the_app_only_builds_and_connects():
    """FanyiApp builds the controllers, windows and ways in and connects them; the dialogs and the clipboard
    are modules of their own, and the class stays within 200 lines."""
    tree = ast.parse((UI / "app.py").read_text(encoding="utf-8"))
    app = next(n for n in tree.body if isinstance(n, ast.ClassDef) and n.name == "FanyiApp")
    assert app.end_lineno - app.lineno + 1 <= 200
