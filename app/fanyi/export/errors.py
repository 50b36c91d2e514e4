"""Errors of the build-time tools, importable without torch or onnx (the CLI reports them)."""


class ExportError(Exception):
    """A model folder that cannot be turned into a pack, with the reason."""
