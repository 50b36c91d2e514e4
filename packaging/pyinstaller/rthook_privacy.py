"""PyInstaller runtime hook: runs in the frozen app before any import of the program.

ONNX Runtime reads ORT_DISABLE_TELEMETRY only when it initialises; setting it here too means no
import order inside the bundle can let its telemetry start (see fanyi/__init__.py).
"""

import os

os.environ["ORT_DISABLE_TELEMETRY"] = "1"
