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
    expected = backend.translate(text, app.direction.options())
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


def test_the_popup_is_as_tall_as_its_text_then_scrolls(qtbot, make_app, fake_backend):
    from fanyi.ui.popup import VIEW_LINES, WIDTH

    app = make_app(fake_backend)
    popup = app.popup
    QApplication.clipboard().setText("Short.")
    app.translate_clipboard()
    qtbot.waitUntil(lambda: popup.text() == "SHORT。", timeout=TRANSLATE_TIMEOUT)
    short_height, bar = popup.height(), popup.view.verticalScrollBar()
    assert popup.width() == WIDTH[0] and bar.maximum() == 0  # all of it shown, no scrollbar
    few = " ".join(f"Sentence number {i} is here." for i in range(12))
    QApplication.clipboard().setText(few)
    app.translate_clipboard()
    qtbot.waitUntil(lambda: popup._req_id is None and popup.text().endswith("。"), timeout=TRANSLATE_TIMEOUT)
    assert popup.width() == WIDTH[1] and popup.height() > short_height and bar.maximum() == 0
    many = "\n".join(f"Line {i}." for i in range(40))
    QApplication.clipboard().setText(many)
    app.translate_clipboard()
    qtbot.waitUntil(lambda: popup._req_id is None and popup.text().count("\n") == 39, timeout=TRANSLATE_TIMEOUT)
    assert popup.view.height() < (VIEW_LINES[1] + 1) * popup.view.fontMetrics().lineSpacing() + 12
    assert bar.maximum() > 0  # past the most lines it scrolls


def test_the_popup_is_dragged_by_its_header(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    QApplication.clipboard().setText("Drag me.")
    app.translate_clipboard()
    popup = app.popup
    start = popup.pos()
    label = popup.direction_label
    qtbot.mousePress(label, Qt.MouseButton.LeftButton, pos=QPoint(5, 5))
    qtbot.mouseMove(label, QPoint(45, 35))
    qtbot.mouseRelease(label, Qt.MouseButton.LeftButton, pos=QPoint(45, 35))
    assert popup.pos() == start + QPoint(40, 30)


def test_the_popup_closes_when_another_window_is_activated_unless_pinned(qtbot, make_app, fake_backend):
    from PySide6.QtWidgets import QWidget

    app = make_app(fake_backend)
    other = QWidget()
    qtbot.addWidget(other)
    other.show()
    QApplication.clipboard().setText("Click elsewhere.")
    app.translate_clipboard()
    popup = app.popup
    qtbot.waitUntil(popup.isActiveWindow)
    other.activateWindow()
    qtbot.waitUntil(lambda: not popup.isVisible())
    app.translate_clipboard()
    qtbot.waitUntil(popup.isActiveWindow)
    qtbot.mouseClick(popup.pin_button, Qt.MouseButton.LeftButton)
    other.activateWindow()
    qtbot.waitUntil(other.isActiveWindow)
    assert popup.isVisible()
    qtbot.keyClick(popup, Qt.Key.Key_Escape)  # Esc still closes a pinned popup
    assert not popup.isVisible()


def test_open_in_main_window_puts_the_text_there(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    text = "Read this in the big window."
    QApplication.clipboard().setText(text)
    app.translate_clipboard()
    popup = app.popup
    qtbot.mouseClick(popup.open_button, Qt.MouseButton.LeftButton)
    win = app.window
    assert win.isVisible() and win.source.text() == text and not popup.isVisible()
    qtbot.waitUntil(lambda: win.target.view.text() == "READTHISINTHEBIGWINDOW。", timeout=TRANSLATE_TIMEOUT)


def test_the_popup_switches_the_chinese_variant(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    QApplication.clipboard().setText("Good news.")
    app.translate_clipboard()
    popup = app.popup
    qtbot.waitUntil(lambda: popup.text() == "GOODNEWS。", timeout=TRANSLATE_TIMEOUT)
    shown = {b.property("variant"): b for b in popup.variant_group.buttons() if not b.isHidden()}
    assert set(shown) == {"cmn_Hans", "cmn_Hant", "yue"} and shown["cmn_Hans"].isChecked()
    qtbot.mouseClick(shown["cmn_Hant"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: popup.text() == "繁GOOD繁NEWS。", timeout=TRANSLATE_TIMEOUT)
    assert app.settings.target_variant.value == "cmn_Hant"
