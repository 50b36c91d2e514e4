"""The clipboard popup and `fanyi --translate-clipboard`."""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRect, Qt, QTimer
from PySide6.QtWidgets import QApplication
from ui_fakes import LOAD_TIMEOUT, LOOPS, TRANSLATE_TIMEOUT, FakeTranslator

from fanyi.ui.popup import place_near


def test_the_popup_streams_the_clipboards_translation(qtbot, make_app, backend):
    app = make_app(backend)
    text = "Copied from a web page. It should appear translated."
    QApplication.clipboard().setText(text)
    app.translate_clipboard()
    popup = app.popup
    assert popup.isVisible() and popup.windowFlags() & Qt.WindowType.FramelessWindowHint
    expected = backend.translate(text, app.options())
    qtbot.waitUntil(lambda: popup.text() == expected, timeout=TRANSLATE_TIMEOUT)
    assert popup.source.text() == text
    QApplication.clipboard().setText("something else")
    qtbot.mouseClick(popup.copy_button, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == expected
    qtbot.keyClick(popup, Qt.Key.Key_Escape)
    assert not popup.isVisible()


def test_the_popup_flags_a_sentence_left_untranslated(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    QApplication.clipboard().setText(f"Fine. It {LOOPS}.")
    app.translate_clipboard()
    popup = app.popup
    qtbot.waitUntil(lambda: popup.text() == f"FINE。It {LOOPS}.", timeout=TRANSLATE_TIMEOUT)
    assert not popup.untranslated.isHidden() and f"“It {LOOPS}.”" in popup.untranslated.toolTip()
    QApplication.clipboard().setText("Fine.")
    app.translate_clipboard()
    qtbot.waitUntil(lambda: popup.text() == "FINE。", timeout=TRANSLATE_TIMEOUT)
    assert popup.untranslated.isHidden()


def test_the_popup_joins_hard_wrapped_clipboard_text(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    QApplication.clipboard().setText("This sentence was broken by the PDF reader at the end of\n"
                                     "a line, and the popup joins it again before translating.")
    app.translate_clipboard()
    qtbot.waitUntil(lambda: app.popup.text().endswith("。"), timeout=TRANSLATE_TIMEOUT)
    assert "\n" not in app.popup.source_text and "\n" not in app.popup.text()


def test_the_popup_does_not_disturb_the_main_window(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    win = app.window
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    win.source.set_text("Main window text.")
    QApplication.clipboard().setText("Popup text.")
    app.translate_clipboard()
    qtbot.waitUntil(lambda: app.popup.text() == "POPUPTEXT。" and win.target.view.text() == "MAINWINDOWTEXT。",
                    timeout=TRANSLATE_TIMEOUT)


def test_placement_stays_on_screen():
    screen = QRect(0, 0, 1000, 800)
    size = QRect(0, 0, 400, 200)
    assert place_near(size, QPoint(100, 100), screen) == QPoint(112, 116)
    assert place_near(size, QPoint(990, 790), screen) == QPoint(578, 574)


def test_translate_clipboard_command_exits_when_the_popup_closes(qtbot, pack_dir):
    from fanyi.ui.app import run

    QApplication.clipboard().setText("Bound to a desktop shortcut.")
    seen = []

    def poll() -> None:
        popups = [w for w in QApplication.topLevelWidgets() if w.objectName() == "translatePopup" and w.isVisible()]
        if popups and popups[0].text().endswith("。"):
            seen.append(popups[0].text())
            popups[0].close()

    timer = QTimer(interval=50)
    timer.timeout.connect(poll)
    watchdog = QTimer(singleShot=True, interval=TRANSLATE_TIMEOUT)
    watchdog.timeout.connect(QApplication.quit)
    timer.start()
    watchdog.start()
    try:
        assert run(["--translate-clipboard"], opener=FakeTranslator.opener()) == 0
    finally:
        timer.stop()
        watchdog.stop()
    assert seen == ["BOUNDTOADESKTOPSHORTCUT。"]
