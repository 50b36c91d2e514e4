"""The few image operations OCR needs, in numpy: checking an input image and resizing it.

They stand in for OpenCV's (``cv2.resize`` with bilinear interpolation), which the bundle does not carry.
"""

from __future__ import annotations

import numpy as np

from fanyi.limits import MAX_OCR_PIXELS


class ImageError(ValueError):
    """The array is not an image OCR can read; ``str()`` says why in one line."""


def as_rgb(image: np.ndarray) -> np.ndarray:
    """``image`` as a contiguous height × width × 3 uint8 array: grey is repeated, alpha dropped."""
    if not isinstance(image, np.ndarray) or image.dtype != np.uint8:
        raise ImageError("OCR reads 8-bit images (a numpy uint8 array)")
    if image.ndim not in (2, 3) or image.ndim == 3 and image.shape[2] not in (3, 4):
        raise ImageError(f"OCR reads grey, RGB or RGBA images, not an array of shape {image.shape}")
    height, width = image.shape[:2]
    if not height or not width:
        raise ImageError("the image is empty")
    if height * width > MAX_OCR_PIXELS:
        raise ImageError(f"the image has {height * width:,} pixels; OCR reads at most {MAX_OCR_PIXELS:,}")
    if image.ndim == 2:
        return np.repeat(image[:, :, None], 3, axis=2)
    return np.ascontiguousarray(image[:, :, :3])


def _taps(source: int, target: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each target pixel: the two source pixels to mix and the weight of the second (pixel centres aligned)."""
    position = np.clip((np.arange(target) + 0.5) * (source / target) - 0.5, 0, source - 1)
    low = np.floor(position).astype(np.intp)
    high = np.minimum(low + 1, source - 1)
    return low, high, (position - low).astype(np.float32)[:, None]


def resize(image: np.ndarray, width: int, height: int) -> np.ndarray:
    """``image`` (height × width × channels) resized to ``width`` × ``height``, as float32.

    Bilinear, after averaging whole blocks of pixels when shrinking to half or less: bilinear alone
    would sample thin strokes of large text only here and there.
    """
    src = image.astype(np.float32)
    block_y, block_x = max(1, src.shape[0] // height), max(1, src.shape[1] // width)
    if block_y > 1 or block_x > 1:
        rows, cols = src.shape[0] // block_y * block_y, src.shape[1] // block_x * block_x
        src = src[:rows, :cols].reshape(rows // block_y, block_y, cols // block_x, block_x, -1).mean(axis=(1, 3))
    low, high, weight = _taps(src.shape[0], height)
    src = src[low] * (1 - weight[:, :, None]) + src[high] * weight[:, :, None]
    low, high, weight = _taps(src.shape[1], width)
    resized: np.ndarray = src[:, low] * (1 - weight) + src[:, high] * weight
    return resized
