"""Text recognition: what each detected line says, from PP-OCR's CTC recogniser.

Each line is cut out, scaled to the model's height and read in batches of similar widths; the
model's per-column character probabilities are decoded greedily (CTC: repeats merged, blanks
dropped), as RapidOCR's ``TextRecognizer`` and ``CTCLabelDecode`` do. The character list travels
in the model's metadata.
"""

from __future__ import annotations

import math

import numpy as np
import onnxruntime as ort

from fanyi.limits import MAX_OCR_LINE_RATIO

from .detect import Box
from .image import resize

HEIGHT = 48  # the recogniser's input height
MIN_RATIO = 320 / 48  # a batch is at least this wide for its height (RapidOCR's rec_img_shape)
BATCH = 6
TALL = 1.5  # a box this much taller than wide holds a vertical line: it is turned to read left to right
_MEAN, _SCALE = 127.5, 1 / 127.5


def characters(session: ort.InferenceSession) -> list[str]:
    """The recogniser's outputs in order: the CTC blank, the characters of its metadata, and a space."""
    listed = session.get_modelmeta().custom_metadata_map.get("character")
    if not listed:
        raise ValueError("the recognition model carries no character list")
    return ["", *listed.splitlines(), " "]


def crop(rgb: np.ndarray, box: Box) -> np.ndarray:
    left, top, right, bottom = box
    piece = rgb[top:bottom, left:right]
    return np.rot90(piece) if piece.shape[0] >= TALL * piece.shape[1] else piece


def _batch(pieces: list[np.ndarray]) -> np.ndarray:
    ratio = min(MAX_OCR_LINE_RATIO, max(MIN_RATIO, *(p.shape[1] / p.shape[0] for p in pieces)))
    width = int(HEIGHT * ratio)
    batch = np.zeros((len(pieces), 3, HEIGHT, width), np.float32)
    for i, piece in enumerate(pieces):
        scaled = min(width, math.ceil(HEIGHT * piece.shape[1] / piece.shape[0]))
        image = resize(piece, scaled, HEIGHT)[:, :, ::-1]  # RGB to the models' BGR
        batch[i, :, :, :scaled] = ((image - _MEAN) * _SCALE).transpose(2, 0, 1)
    return batch


def decode(probabilities: np.ndarray, chars: list[str]) -> list[tuple[str, float]]:
    """Greedy CTC decoding of (batch, columns, classes): each row's text and mean confidence."""
    best = probabilities.argmax(axis=2)
    confidence = probabilities.max(axis=2)
    out = []
    for ids, scores in zip(best, confidence):
        keep = ids != 0
        keep[1:] &= ids[1:] != ids[:-1]
        text = "".join(chars[i] for i in ids[keep])
        out.append((text, float(scores[keep].mean()) if keep.any() else 0.0))
    return out


def read(session: ort.InferenceSession, chars: list[str], rgb: np.ndarray, boxes: list[Box]) -> list[tuple[str, float]]:
    """(text, confidence) of each box of ``rgb``, in the order of ``boxes``."""
    pieces = [crop(rgb, box) for box in boxes]
    order = sorted(range(len(pieces)), key=lambda i: pieces[i].shape[1] / pieces[i].shape[0])
    results: list[tuple[str, float]] = [("", 0.0)] * len(pieces)
    name = session.get_inputs()[0].name
    for begin in range(0, len(order), BATCH):
        chosen = order[begin : begin + BATCH]
        (probabilities,) = session.run(None, {name: _batch([pieces[i] for i in chosen])})
        for i, result in zip(chosen, decode(probabilities, chars)):
            results[i] = result
    return results
