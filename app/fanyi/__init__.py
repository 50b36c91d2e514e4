"""Fanyi: an offline English-Chinese translator running MarianMT models on ONNX Runtime."""

__version__ = "0.1.0"
