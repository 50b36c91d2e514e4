"""Text detection: where the lines of text are, as upright boxes, from PP-OCR's DB detector.

The detector gives each pixel a probability of being text, with each text line's region shrunk
a little; the post-processing (as RapidOCR's, after PaddleOCR's ``DBPostProcess``) thresholds that
map, takes its connected regions, drops faint ones and grows each back by its shrink. RapidOCR fits
a rotated rectangle to each region with OpenCV; here a region's box is upright, which is what the
lines of a screen or a scanned page are.
"""

from __future__ import annotations

import numpy as np
import onnxruntime as ort

from fanyi.limits import MAX_OCR_BOXES, OCR_MAX_SIDE

from .image import resize

# RapidOCR's settings for these models (its config.yaml)
THRESHOLD = 0.3  # a pixel with a higher probability is text
BOX_THRESHOLD = 0.5  # a region whose mean probability is lower is dropped
UNCLIP_RATIO = 1.6  # a region grows by its area × this / its perimeter on every side
MIN_REGION = 3  # pixels of the detector's map: a thinner region is noise
STRIP_RATIO, STRIP_HEIGHT = 8, 30  # a strip wider than 8× its height, or lower than 30 px, gets room above and below
# PaddleOCR's normalisation for its detectors (ImageNet's, on BGR pixels / 255). RapidOCR uses
# (x - 0.5) / 0.5 instead, with which PP-OCRv6's detector missed a lone line on a scanned page.
_MEAN = np.array([0.485, 0.456, 0.406], np.float32) * 255
_STD = np.array([0.229, 0.224, 0.225], np.float32) * 255

Box = tuple[int, int, int, int]  # left, top, right, bottom, in pixels of the image


def _round32(value: float) -> int:
    return max(32, int(round(value / 32)) * 32)


def _layout(height: int, width: int) -> tuple[int, int, int, int]:
    """(detector height, width, content height, top margin) for an image of ``height`` × ``width``.

    As RapidOCR: the longest side is brought down to OCR_MAX_SIDE and a strip is padded above and
    below so the detector sees its lines in context; the sides are rounded to multiples of 32.
    Unlike RapidOCR, a small image is not scaled up until its shorter side is 736 pixels: that
    splits lines at the gaps between words (and repeats letters at the cuts) and, measured on
    rendered English and Chinese text of 8 to 40 pixels, made detection ~20× slower for nothing.
    """
    scale = min(1.0, OCR_MAX_SIDE / max(height, width))
    h, w = height * scale, width * scale
    padded = h
    if h <= STRIP_HEIGHT or w / h > STRIP_RATIO:
        padded = max(max(w / STRIP_RATIO, STRIP_HEIGHT) * 2, h)
    det_h, det_w = _round32(padded), _round32(w)
    content = max(1, min(det_h, round(h / padded * det_h)))
    return det_h, det_w, content, (det_h - content) // 2


def detector_input(rgb: np.ndarray) -> tuple[np.ndarray, tuple[float, float, float]]:
    """The detector's input tensor, and (x scale, y scale, top margin) from its pixels back to the image's."""
    height, width = rgb.shape[:2]
    det_h, det_w, content, top = _layout(height, width)
    # The padding takes the colour of the image's border so that it reads as more background.
    border = np.concatenate([rgb[0], rgb[-1], rgb[:, 0], rgb[:, -1]])
    canvas = np.empty((det_h, det_w, 3), np.float32)
    canvas[:] = np.median(border, axis=0)
    canvas[top : top + content] = resize(rgb, det_w, content)
    tensor = ((canvas[:, :, ::-1] - _MEAN) / _STD).transpose(2, 0, 1)[None]  # RGB to the models' BGR
    return np.ascontiguousarray(tensor), (width / det_w, height / content, top)


def regions(mask: np.ndarray) -> np.ndarray:
    """The 8-connected regions of a boolean map, as rows of (left, top, right, bottom), inclusive.

    Union-find over the runs of each row: linear in the runs, which a text map has a few per line
    and row, where a pixel-by-pixel flood fill in Python would be far slower.
    """
    height, width = mask.shape
    edges = np.diff(np.pad(mask.astype(np.int8), ((0, 0), (1, 1))), axis=1)
    row, start = np.nonzero(edges == 1)
    end = np.nonzero(edges == -1)[1] - 1  # inclusive; nonzero goes row by row, so runs pair up
    if not len(row):
        return np.zeros((0, 4), np.int64)
    first = np.searchsorted(row, np.arange(height + 1))
    parent = list(range(len(row)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    starts, ends = start.tolist(), end.tolist()
    for y in range(1, height):
        i, i_end, j, j_end = first[y - 1], first[y], first[y], first[y + 1]
        while i < i_end and j < j_end:
            if starts[i] <= ends[j] + 1 and starts[j] <= ends[i] + 1:  # touching, diagonals too
                a, b = root(i), root(j)
                if a != b:
                    parent[b] = a
            if ends[i] < ends[j]:
                i += 1
            else:
                j += 1
    labels = np.unique([root(i) for i in range(len(row))], return_inverse=True)[1].ravel()
    count = labels.max() + 1
    boxes = np.empty((count, 4), np.int64)
    boxes[:, :2] = np.iinfo(np.int64).max
    boxes[:, 2:] = -1
    np.minimum.at(boxes[:, 0], labels, start)
    np.minimum.at(boxes[:, 1], labels, row)
    np.maximum.at(boxes[:, 2], labels, end)
    np.maximum.at(boxes[:, 3], labels, row)
    return boxes


def _sides(boxes: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Widths and heights of inclusive boxes, measured between pixel centres as OpenCV's contours are."""
    return boxes[:, 2] - boxes[:, 0], boxes[:, 3] - boxes[:, 1]


def _mean_in(sums: np.ndarray, boxes: np.ndarray) -> np.ndarray:
    """The mean of the map in each inclusive box, from its summed-area table (padded by a zero row and column)."""
    left, top, right, bottom = boxes.T
    total = sums[bottom + 1, right + 1] - sums[top, right + 1] - sums[bottom + 1, left] + sums[top, left]
    mean: np.ndarray = total / ((right - left + 1) * (bottom - top + 1))
    return mean


def boxes_from_map(probability: np.ndarray, to_image: tuple[float, float, float], size: tuple[int, int]) -> list[Box]:
    """The text boxes of the detector's probability map, in pixels of the image (``size`` = height, width)."""
    mask = probability > THRESHOLD
    mask[1:] |= mask[:-1].copy()  # RapidOCR dilates by a 2 × 2 kernel: joins strokes one pixel apart
    mask[:, 1:] |= mask[:, :-1].copy()
    found = regions(mask)
    found = found[np.minimum(*_sides(found)) >= MIN_REGION]
    if len(found) > MAX_OCR_BOXES:
        found = found[np.argsort(-np.multiply(*_sides(found)), kind="stable")[:MAX_OCR_BOXES]]
    sums = np.pad(probability.astype(np.float64).cumsum(0).cumsum(1), ((1, 0), (1, 0)))
    found = found[_mean_in(sums, found) >= BOX_THRESHOLD]
    widths, heights = _sides(found)
    grow = widths * heights * UNCLIP_RATIO / (2 * (widths + heights))
    scale_x, scale_y, top = to_image
    height, width = size
    left = np.clip(np.round((found[:, 0] - grow) * scale_x), 0, width - 1)
    right = np.clip(np.round((found[:, 2] + grow) * scale_x), 0, width - 1)
    upper = np.clip(np.round((found[:, 1] - grow - top) * scale_y), 0, height - 1)
    lower = np.clip(np.round((found[:, 3] + grow - top) * scale_y), 0, height - 1)
    boxes = np.stack([left, upper, right, lower], axis=1).astype(int)
    big_enough = (boxes[:, 2] - boxes[:, 0] > 3) & (boxes[:, 3] - boxes[:, 1] > 3)
    return [tuple(box) for box in boxes[big_enough].tolist()]


def detect(session: ort.InferenceSession, rgb: np.ndarray) -> list[Box]:
    """Boxes around the lines of text in ``rgb`` (height × width × 3 uint8)."""
    tensor, to_image = detector_input(rgb)
    (probability,) = session.run(None, {session.get_inputs()[0].name: tensor})
    return boxes_from_map(probability[0, 0], to_image, rgb.shape[:2])
