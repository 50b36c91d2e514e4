"""The server knows nothing of Qt, and the app pays for the server's libraries only when it is turned on."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

APP = Path(__file__).resolve().parents[2] / "app"


def imported_after(code: str) -> set[str]:
    probe = f"import sys\n{code}\nprint('\\n'.join(sorted({{m.split('.')[0] for m in sys.modules}})))"
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen", PYTHONPATH=str(APP))
    out = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, timeout=120, env=env
    )
    return set(out.stdout.split())


def test_the_server_and_the_gate_import_no_qt_and_no_export_tools():
    modules = imported_after("import fanyi.engine.gate, fanyi.server.app, fanyi.server.run\nimport uvicorn")
    assert {"starlette", "uvicorn"} <= modules
    assert not modules & {"PySide6", "torch", "transformers", "onnx", "onnxruntime"}


def test_the_app_imports_the_server_libraries_only_when_the_setting_is_on():
    modules = imported_after("import fanyi.ui.app, fanyi.ui.settings_dialog, fanyi.ui.main_window")
    assert "PySide6" in modules
    assert not modules & {"starlette", "uvicorn", "anyio", "h11"}
