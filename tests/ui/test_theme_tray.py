"""Theme switching, and the tray's absence offscreen (closing the window then quits)."""

from __future__ import annotations

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from fanyi.ui import theme


def test_dark_and_light_themes_and_back_to_the_system(qapp):
    original = qapp.palette().color(QPalette.ColorRole.Window)
    theme.apply("dark")
    assert qapp.palette().color(QPalette.ColorRole.Window).lightness() < 60
    assert qapp.style().name().lower() == "fusion"
    theme.apply("light")
    assert qapp.palette().color(QPalette.ColorRole.Window).lightness() > 200
    theme.apply("system")
    assert qapp.palette().color(QPalette.ColorRole.Window) == original


def test_without_a_tray_closing_the_window_quits(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    assert not app.tray.available  # offscreen has no system tray
    assert not app.keeps_running_in_tray()
    app.settings.start_in_tray.set(True)
    app.start()  # start_in_tray cannot hide the only way back in
    assert app.window.isVisible()
    with qtbot.waitSignal(app.quit_requested, timeout=10_000):
        app.window.close()
    assert QApplication.instance() is not None


def test_the_chosen_variant_stands_out_in_every_theme(qtbot, make_app, fake_backend):
    """In the dark theme the checked 简体 button was drawn one shade off the others."""
    from fanyi.ui import theme

    app = make_app(fake_backend)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None)
    buttons = {b.property("variant"): b for b in win.variant_group.buttons()}
    for name in ("dark", "light"):
        theme.apply(name)
        qtbot.wait(10)

        def fill(button):
            image = button.grab().toImage()
            return image.pixelColor(image.width() // 2, 3)  # above the text, inside the border

        highlight = win.palette().color(win.palette().ColorRole.Highlight)
        assert fill(buttons["cmn_Hans"]) == highlight, name
        assert fill(buttons["cmn_Hant"]) != highlight and fill(buttons["yue"]) != highlight
