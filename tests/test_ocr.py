"""fanyi.ocr on images of known text drawn with Qt: what is read must be what was drawn.

The bar is exact equality for the sizes a screen shows; a character-level similarity (difflib's
ratio) is used only where stated.
"""

from __future__ import annotations

import difflib

import numpy as np
import pytest
from ocr_images import chinese_family, draw, draw_lines

from fanyi import ocr
from fanyi.ocr import ImageError, OcrUnavailable, Recogniser
from fanyi.ocr.image import resize

ENGLISH = ["Good morning. The weather is fine today.", "Please translate this sentence for me."]
CHINESE = ["今天天气很好，我们去公园散步。", "机器翻译可以在本地离线运行。"]


@pytest.fixture(scope="module")
def recogniser(ocr_models) -> Recogniser:
    return Recogniser(ocr_models)


@pytest.mark.parametrize("pixels", [11, 14, 20, 32])
def test_english_lines_are_read_exactly_in_order(recogniser, pixels):
    lines = recogniser(draw_lines(ENGLISH, pixels=pixels))
    assert [line.text for line in lines] == ENGLISH
    assert all(line.score > 0.9 for line in lines)


def test_chinese_lines_are_read_exactly(recogniser):
    lines = recogniser(draw_lines(CHINESE, family=chinese_family(), pixels=22))
    assert [line.text for line in lines] == CHINESE


def test_mixed_chinese_and_english_line(recogniser):
    said = "Fanyi 翻译 works offline 离线"
    lines = recogniser(draw_lines([said], family=chinese_family(), pixels=24))
    assert difflib.SequenceMatcher(None, " ".join(line.text for line in lines), said).ratio() >= 0.9


def test_light_text_on_a_dark_window(recogniser):
    image = draw_lines(ENGLISH, pixels=13, background="#282c34", color="#dcdcdc")
    assert [line.text for line in recogniser(image)] == ENGLISH


def test_boxes_surround_the_drawn_lines(recogniser):
    image = draw([(40, 60, "First line of text"), (40, 160, "Second line of text")], (420, 220), pixels=24)
    first, second = recogniser(image)
    assert first.box[0] <= 42 and first.box[1] < 60 - 10 and first.box[3] >= 60 and first.box[2] < 420
    assert second.box[1] > first.box[3] and second.box[3] >= 160


def test_an_image_without_text_has_no_lines(recogniser):
    assert recogniser(np.full((300, 400, 3), 240, np.uint8)) == []
    assert recogniser(np.zeros((1, 1), np.uint8)) == []


def test_grey_and_rgba_images_are_read_like_rgb(recogniser):
    rgb = draw_lines(ENGLISH[:1], pixels=18)
    grey = rgb[:, :, 0].copy()
    rgba = np.concatenate([rgb, np.full(rgb.shape[:2] + (1,), 255, np.uint8)], axis=2)
    assert [line.text for line in recogniser(grey)] == [line.text for line in recogniser(rgba)] == ENGLISH[:1]


def test_a_multi_line_image_reads_as_paragraphs(recogniser):
    """Two paragraphs, a gap between them; the first wrapped mid-sentence over two lines."""
    texts = [
        (20, 40, "Offline translation keeps the text"),
        (20, 68, "on your own computer."),
        (20, 140, "Nothing is sent anywhere."),
    ]
    lines = recogniser(draw(texts, (460, 180), pixels=20))
    assert ocr.text(lines) == "Offline translation keeps the text on your own computer.\n\nNothing is sent anywhere."


def test_two_columns_are_read_one_after_the_other(recogniser):
    left = [
        "The first column of this page holds",
        "these three lines of running text",
        "about offline translation tools.",
    ]
    right = [
        "The second column stands beside it",
        "with three lines of its own that",
        "are read after the first column.",
    ]
    texts = [(20, 40 + 30 * i, line) for i, line in enumerate(left)]
    texts += [(440, 40 + 30 * i, line) for i, line in enumerate(right)]
    lines = recogniser(draw(texts, (820, 140), pixels=18))
    assert ocr.paragraphs(lines) == [" ".join(left), " ".join(right)]


def test_the_shared_recogniser_reads_too(ocr_models):
    assert [line.text for line in ocr.recognise(draw_lines(["Hello world"], pixels=20))] == ["Hello world"]


def test_missing_models_are_named(tmp_path):
    with pytest.raises(OcrUnavailable, match="PP-OCRv6_det_small.onnx"):
        Recogniser(tmp_path)


def test_damaged_models_are_named(tmp_path, ocr_models):
    for name in (ocr.DET_MODEL, ocr.REC_MODEL):
        (tmp_path / name).write_bytes(b"not a model")
    with pytest.raises(OcrUnavailable, match="cannot be loaded"):
        Recogniser(tmp_path)


@pytest.mark.parametrize(
    "array, message",
    [
        (np.zeros((10, 10, 3), np.float32), "8-bit"),
        (np.zeros((10, 10, 2), np.uint8), "shape"),
        (np.zeros((0, 10, 3), np.uint8), "empty"),
        (np.broadcast_to(np.uint8(0), (10_000, 10_000)), "pixels"),  # a view: no 100 MB is allocated
    ],
)
def test_arrays_ocr_cannot_read_are_refused_with_a_reason(recogniser, array, message):
    with pytest.raises(ImageError, match=message):
        recogniser(array)


def test_resize_averages_blocks_when_halving_then_interpolates_between_pixel_centres():
    image = np.array([[0, 100], [200, 50]], np.uint8)[:, :, None]
    assert resize(image, 2, 2)[:, :, 0].tolist() == [[0, 100], [200, 50]]
    # height 2 → 1 averages the rows: [100, 75]; width 2 → 4 puts target centres at source x
    # -0.25 (kept at 0), 0.25, 0.75 and 1.25 (kept at 1), as OpenCV's bilinear resize does
    assert resize(image, 4, 1)[0, :, 0].tolist() == pytest.approx([100, 93.75, 81.25, 75])


def test_a_line_longer_than_the_recogniser_reads_is_squeezed_not_refused(recogniser, monkeypatch):
    from fanyi.ocr import read

    monkeypatch.setattr(read, "MAX_OCR_LINE_RATIO", 12)
    assert read._batch([np.zeros((20, 2000, 3), np.uint8)]).shape == (1, 3, 48, 12 * 48)
    said = "a line of text much wider than twelve times its height"  # ~21 times: squeezed 1.75×
    assert [line.text for line in recogniser(draw_lines([said], pixels=20))] == [said]
