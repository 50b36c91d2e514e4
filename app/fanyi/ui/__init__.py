"""The desktop app (PySide6). Importing this package loads neither the engine nor onnxruntime:
the model is opened in the worker thread after the window is up. Start it with ``fanyi.ui.app.run``.
"""
