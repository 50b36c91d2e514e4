"""Screenshot translation: the region overlay, the OCR worker, and the popup that translates the text."""

from __future__ import annotations

import threading

import numpy as np
import pytest
from ocr_images import draw_lines
from PySide6.QtCore import QPoint, QRect, Qt, QTimer
from PySide6.QtGui import QColor, QImage, QPixmap
from PySide6.QtWidgets import QApplication
from ui_fakes import TRANSLATE_TIMEOUT, FakeTranslator

from fanyi.ocr import OcrUnavailable
from fanyi.ui.ocr_service import to_array
from fanyi.ui.region import RegionOverlay, RegionPicker, Shot, selection
from fanyi.ui.settings import Settings
from fanyi.ui.settings_dialog import SettingsDialog


def screen_of(rgb: np.ndarray, ratio: float = 1.0, at: QPoint = QPoint(0, 0)) -> Shot:
    """A capture whose pixels are ``rgb``, taken on a screen at ``at`` with this device pixel ratio."""
    height, width = rgb.shape[:2]
    image = QImage(rgb.tobytes(), width, height, 3 * width, QImage.Format.Format_RGB888).copy()
    pixmap = QPixmap.fromImage(image)
    pixmap.setDevicePixelRatio(ratio)
    return Shot(QRect(at.x(), at.y(), round(width / ratio), round(height / ratio)), pixmap)


def gradient(width: int, height: int) -> np.ndarray:
    """Every pixel different: x in red and green, y in blue, so a wrong crop cannot pass."""
    x, y = np.meshgrid(np.arange(width), np.arange(height))
    return np.stack([x % 256, x // 256, y % 256], axis=2).astype(np.uint8)


def drag(qtbot, widget, start: QPoint, end: QPoint) -> None:
    qtbot.mousePress(widget, Qt.MouseButton.LeftButton, pos=start)
    qtbot.mouseMove(widget, QPoint((start.x() + end.x()) // 2, (start.y() + end.y()) // 2))
    qtbot.mouseMove(widget, end)
    qtbot.mouseRelease(widget, Qt.MouseButton.LeftButton, pos=end)


# --- choosing a region ----------------------------------------------------------------------------
def test_selection_is_the_same_whichever_way_it_is_dragged():
    assert selection(QPoint(10, 20), QPoint(110, 70)) == QRect(10, 20, 101, 51)
    assert selection(QPoint(110, 70), QPoint(10, 20)) == QRect(10, 20, 101, 51)
    assert selection(QPoint(110, 20), QPoint(10, 70)) == QRect(10, 20, 101, 51)


@pytest.mark.parametrize("ratio", [1.0, 2.0])
def test_dragging_on_the_overlay_cuts_that_region_at_full_resolution(qtbot, ratio):
    shot = screen_of(gradient(800, 600), ratio)
    picker = RegionPicker()
    with qtbot.waitSignal(picker.picked) as picked:
        picker.start([shot])
        overlay = picker.overlays[0]
        assert overlay.isVisible() and overlay.geometry() == shot.geometry
        drag(qtbot, overlay, QPoint(110, 70), QPoint(10, 20))  # up and to the left
    got = to_array(picked.args[0])
    scale = round(ratio)
    assert got.shape == (51 * scale, 101 * scale, 3)
    assert np.array_equal(got, gradient(800, 600)[20 * scale : 71 * scale, 10 * scale : 111 * scale])
    assert not picker.active and not overlay.isVisible()


def test_a_click_without_a_drag_chooses_nothing(qtbot):
    overlay = RegionOverlay(screen_of(gradient(200, 100)))
    qtbot.addWidget(overlay)
    overlay.show()
    chosen = []
    overlay.chosen.connect(chosen.append)
    drag(qtbot, overlay, QPoint(50, 50), QPoint(52, 51))
    assert chosen == [] and overlay.region.isEmpty()
    drag(qtbot, overlay, QPoint(50, 50), QPoint(90, 80))
    assert chosen == [QRect(50, 50, 41, 31)]


def test_a_drag_past_the_edge_stops_at_the_screen(qtbot):
    overlay = RegionOverlay(screen_of(gradient(200, 100)))
    qtbot.addWidget(overlay)
    overlay.show()
    with qtbot.waitSignal(overlay.chosen) as chosen:
        drag(qtbot, overlay, QPoint(150, 60), QPoint(400, 300))
    assert chosen.args[0] == QRect(150, 60, 50, 40)


@pytest.mark.parametrize("how", ["escape", "right click"])
def test_escape_or_a_right_click_cancels_every_overlay(qtbot, how):
    picker = RegionPicker()
    picker.start([screen_of(gradient(200, 100)), screen_of(gradient(200, 100), at=QPoint(200, 0))])
    first, second = picker.overlays
    with qtbot.waitSignal(picker.cancelled):
        if how == "escape":
            qtbot.keyClick(second, Qt.Key.Key_Escape)
        else:
            qtbot.mouseClick(second, Qt.MouseButton.RightButton, pos=QPoint(5, 5))
    assert not picker.active and not first.isVisible() and not second.isVisible()


def test_with_two_screens_the_region_comes_from_the_screen_it_was_drawn_on(qtbot):
    left, right = gradient(300, 200), 255 - gradient(300, 200)
    picker = RegionPicker()
    picker.start([screen_of(left), screen_of(right, 2.0, at=QPoint(300, 0))])
    assert [o.geometry() for o in picker.overlays] == [QRect(0, 0, 300, 200), QRect(300, 0, 150, 100)]
    with qtbot.waitSignal(picker.picked) as picked:
        drag(qtbot, picker.overlays[1], QPoint(10, 10), QPoint(19, 14))
    assert np.array_equal(to_array(picked.args[0]), right[20:30, 20:40])


def test_to_array_drops_the_row_padding_of_qt_images():
    image = QImage(3, 2, QImage.Format.Format_RGB888)  # 9 bytes a row, stored as 12
    image.fill(QColor(10, 20, 30))
    assert to_array(image).tolist() == [[[10, 20, 30]] * 3] * 2


# --- the app: hotkey/tray → overlay → OCR worker → popup ---------------------------------------------
class FakeOcr:
    """Stands in for fanyi.ocr where the real one is not the point; records the thread it ran in."""

    def __init__(self, answer: str = "Text on the screen.", error: Exception | None = None) -> None:
        self.answer, self.error = answer, error
        self.threads: list[threading.Thread] = []
        self.images: list[np.ndarray] = []

    def __call__(self, image: np.ndarray) -> str:
        self.threads.append(threading.current_thread())
        self.images.append(image)
        if self.error is not None:
            raise self.error
        return self.answer


def choose_region(qtbot, app, start=QPoint(10, 10), end=QPoint(60, 40)) -> None:
    app.translate_screen_region()
    assert app.screen_text.picker.active
    drag(qtbot, app.screen_text.picker.overlays[0], start, end)


def test_the_region_is_recognised_in_a_worker_thread_and_translated_in_the_popup(qtbot, make_app, fake_backend):
    ocr = FakeOcr("Text on the screen.")
    app = make_app(fake_backend, recognise=ocr, grab=lambda: [screen_of(gradient(400, 300))])
    choose_region(qtbot, app)
    qtbot.waitUntil(lambda: app.popup.text() == "TEXTONTHESCREEN。", timeout=TRANSLATE_TIMEOUT)
    assert app.popup.source_text == "Text on the screen."
    assert ocr.threads and ocr.threads[0] is not threading.main_thread()
    assert ocr.images[0].shape == (31, 51, 3)


def test_a_region_without_text_says_so(qtbot, make_app, fake_backend):
    app = make_app(fake_backend, recognise=FakeOcr(""), grab=lambda: [screen_of(gradient(400, 300))])
    choose_region(qtbot, app)
    qtbot.waitUntil(
        lambda: app.popup.status.text() == "No text was found in the selected region.", timeout=TRANSLATE_TIMEOUT
    )
    assert app.popup.isVisible() and app.popup.text() == ""


def test_missing_ocr_models_are_said_in_the_popup(qtbot, make_app, fake_backend):
    ocr = FakeOcr(error=OcrUnavailable("the OCR models are not installed (x not in y)"))
    app = make_app(fake_backend, recognise=ocr, grab=lambda: [screen_of(gradient(400, 300))])
    choose_region(qtbot, app)
    qtbot.waitUntil(lambda: "the OCR models are not installed" in app.popup.status.text(), timeout=TRANSLATE_TIMEOUT)


def test_where_the_screen_cannot_be_captured_the_popup_says_why(qtbot, make_app, fake_backend, monkeypatch):
    grabbed = []
    app = make_app(fake_backend, recognise=FakeOcr(), grab=lambda: grabbed.append(1) or [])
    app.translate_screen_region()
    assert app.popup.status.text() == "The screen could not be captured." and not app.screen_text.picker.active
    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    app.translate_screen_region()
    assert "Wayland does not let applications capture the screen" in app.popup.status.text()
    assert grabbed == [1]  # on Wayland nothing is even tried


def test_without_a_model_no_overlay_is_shown(qtbot, make_app, ui_dirs):
    app = make_app(recognise=FakeOcr(), grab=lambda: [screen_of(gradient(100, 100))])
    app.translate_screen_region()
    assert not app.screen_text.picker.active and "No translation model is installed" in app.popup.status.text()


def test_real_ocr_of_a_captured_screen_reaches_the_popup(qtbot, make_app, fake_backend, ocr_models):
    said = "Good morning. The weather is fine today."
    screen = np.full((300, 700, 3), 255, np.uint8)
    text = draw_lines([said], pixels=18)
    screen[100 : 100 + text.shape[0], 50 : 50 + text.shape[1]] = text
    app = make_app(fake_backend, grab=lambda: [screen_of(screen, 2.0)])  # HiDPI: 350 × 150 logical
    choose_region(qtbot, app, QPoint(20, 40), QPoint(340, 90))
    qtbot.waitUntil(lambda: app.popup.text().endswith("。"), timeout=TRANSLATE_TIMEOUT)
    assert app.popup.source_text == said


def test_the_tray_menu_offers_a_screen_region(qtbot):
    from fanyi.ui.tray import Tray, _TrayMenu

    tray = Tray(QApplication.windowIcon())
    menu = _TrayMenu(tray)  # built directly: offscreen has no system tray to hold it
    with qtbot.waitSignal(tray.translate_region_requested):
        menu.region_action.trigger()
    assert menu.region_action.text() == "Translate a screen region"


def test_the_screenshot_hotkey_is_a_setting(qtbot):
    dialog = SettingsDialog(Settings(), tray_available=False)
    qtbot.addWidget(dialog)
    assert dialog.screenshot_keys.keySequence().toString() == "Ctrl+Alt+S"
    dialog.screenshot_keys.clear()
    assert dialog.result_settings().screenshot_hotkey == ""
    assert Settings(screenshot_hotkey="Ctrl+C, Ctrl+C").screenshot_hotkey == "Ctrl+Alt+S"


def test_translate_region_command_exits_when_the_overlay_is_cancelled(qtbot, pack_dir, monkeypatch):
    from fanyi.ui import app as app_module
    from fanyi.ui.controllers import screen_text

    monkeypatch.setattr(screen_text, "grab_screens", lambda: [screen_of(gradient(200, 100))])
    seen = []

    def cancel() -> None:
        overlays = [w for w in QApplication.topLevelWidgets() if w.objectName() == "regionOverlay" and w.isVisible()]
        if overlays:
            seen.append(True)
            qtbot.keyClick(overlays[0], Qt.Key.Key_Escape)

    timer = QTimer(interval=50)
    timer.timeout.connect(cancel)
    watchdog = QTimer(singleShot=True, interval=TRANSLATE_TIMEOUT)
    watchdog.timeout.connect(lambda: seen.append("watchdog") or QApplication.quit())
    timer.start()
    watchdog.start()
    try:
        assert app_module.run(["--translate-region"], opener=FakeTranslator.opener()) == 0
    finally:
        timer.stop()
        watchdog.stop()
    assert seen == [True]  # the overlay was shown, Esc closed it, and the program returned at once
