"""Theme switching, and the tray's absence offscreen (closing the window then quits)."""

from __future__ import annotations

from PySide6.QtGui import QPalette
from PySide6.QtWidgets import QApplication

from fanyi.ui import theme


def test_dark_and_light_themes_and_back_to_the_system(qapp):
    original = qapp.palette().color(QPalette.ColorRole.Window)
    theme.apply("dark")
    assert qapp.palette().color(QPalette.ColorRole.Window).lightness() < 60
    assert qapp.style().baseStyle().name().lower() == "fusion"
    theme.apply("light")
    assert qapp.palette().color(QPalette.ColorRole.Window).lightness() > 200
    theme.apply("system")
    assert qapp.palette().color(QPalette.ColorRole.Window) == original


def test_an_unchecked_check_box_is_visible_in_every_theme(qtbot):
    """In the dark theme Fusion outlined an unchecked check box in the colour of the menu behind it: Documents →
    Bilingual output, unticked, showed no box at all."""
    from PySide6.QtGui import QAction
    from PySide6.QtWidgets import QCheckBox, QMenu

    def contrast(widget, height: int) -> int:
        """The largest lightness difference to the background at the left end, where the box is drawn."""
        image = widget.grab().toImage()
        background = image.pixelColor(image.width() - 2, height // 2).lightness()
        return max(
            abs(image.pixelColor(x, y).lightness() - background)
            for x in range(min(40, image.width()))
            for y in range(height)
        )

    for name in ("dark", "light"):
        theme.apply(name)
        menu = QMenu()
        qtbot.addWidget(menu)
        action = QAction(" ", menu)
        action.setCheckable(True)
        menu.addAction(action)
        menu.ensurePolished()
        menu.resize(menu.sizeHint())
        box = QCheckBox()
        qtbot.addWidget(box)
        box.resize(box.sizeHint())
        assert contrast(menu, menu.actionGeometry(action).height()) > 40, name
        assert contrast(box, box.height()) > 40, name
    theme.apply("system")


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


def test_a_tray_that_appears_later_is_picked_up(qtbot, make_app, fake_backend, monkeypatch):
    """The icon appeared only if a tray existed when Fanyi started; now the desktop is asked again."""
    from PySide6.QtWidgets import QSystemTrayIcon

    from fanyi.ui.settings_dialog import SettingsDialog

    app = make_app(fake_backend)
    app.start()
    assert not app.tray.available and app.tray._look.isActive()
    dialog = SettingsDialog(app.settings.current, app.tray.available)
    qtbot.addWidget(dialog)
    app.tray.available_changed.connect(dialog.set_tray_available)
    assert dialog.close_to_tray.isEnabled() is False and not dialog.close_to_tray.isChecked()  # not ticked and grey
    assert not dialog.tray_note.isHidden()
    shown = []
    monkeypatch.setattr(QSystemTrayIcon, "isSystemTrayAvailable", staticmethod(lambda: True))
    monkeypatch.setattr(QSystemTrayIcon, "show", lambda icon: shown.append(icon))
    app.tray._is_available = QSystemTrayIcon.isSystemTrayAvailable
    with qtbot.waitSignal(app.tray.available_changed):
        app.tray.look_again()  # what the timer does every LOOK_MS
    assert app.tray.available and shown and not app.tray._look.isActive()
    assert app.keeps_running_in_tray()
    assert dialog.close_to_tray.isEnabled() and dialog.close_to_tray.isChecked() and dialog.tray_note.isHidden()


def test_without_a_tray_the_tray_settings_are_kept_not_shown_ticked(qtbot, ui_dirs):
    from fanyi.ui.settings import Settings
    from fanyi.ui.settings_dialog import SettingsDialog

    saved = Settings(close_to_tray=True, start_in_tray=True)
    dialog = SettingsDialog(saved, tray_available=False)
    qtbot.addWidget(dialog)
    assert not dialog.close_to_tray.isChecked() and not dialog.start_in_tray.isChecked()
    result = dialog.result_settings()
    assert result.close_to_tray and result.start_in_tray  # what was saved stays for a desktop that has one


def test_the_first_close_to_the_tray_says_so_once(qtbot, make_app, fake_backend, monkeypatch):
    app = make_app(fake_backend)
    app.tray.available = True  # as on a desktop with a tray
    said = []
    monkeypatch.setattr(app.tray, "notify", lambda title, text: said.append(title))
    app.show_main()
    app.window.close()
    assert not app.window.isVisible() and said == ["Fanyi is still running"]
    assert app.settings.told_about_tray.value
    app.show_main()
    app.window.close()
    assert said == ["Fanyi is still running"]  # once
