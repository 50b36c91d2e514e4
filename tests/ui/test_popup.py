"""The clipboard popup and `fanyi --translate-clipboard`."""

from __future__ import annotations

import pytest
from glossary_fakes import SPLIT, scripted
from PySide6.QtCore import QPoint, QRect, Qt, QTimer
from PySide6.QtGui import QFont
from PySide6.QtWidgets import QApplication
from test_main_window import LOST_EN, LOST_ZH, said
from ui_fakes import LOAD_TIMEOUT, LOOPS, TRANSLATE_TIMEOUT, FakeTranslator

from fanyi.engine.options import DecodeOptions
from fanyi.glossary import Glossary, Term
from fanyi.ui.popup import place_near
from fanyi.ui.settings import Settings
from fanyi.ui.worker import open_translator


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
    QApplication.clipboard().setText(
        "This sentence was broken by the PDF reader at the end of\n"
        "a line, and the popup joins it again before translating."
    )
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
    qtbot.waitUntil(
        lambda: app.popup.text() == "POPUPTEXT。" and win.target.view.text() == "MAINWINDOWTEXT。",
        timeout=TRANSLATE_TIMEOUT,
    )


def test_placement_stays_on_screen():
    screen = QRect(0, 0, 1000, 800)
    size = QRect(0, 0, 400, 200)
    assert place_near(size, QPoint(100, 100), screen) == QPoint(112, 116)
    assert place_near(size, QPoint(990, 790), screen) == QPoint(578, 574)


def run_polled(argv: list[str], poll) -> int:
    """`fanyi ARGV` in this process, with ``poll`` called every 50 ms (a minute at most)."""
    from fanyi.ui.app import run

    timer = QTimer(interval=50)
    timer.timeout.connect(poll)
    watchdog = QTimer(singleShot=True, interval=TRANSLATE_TIMEOUT)
    watchdog.timeout.connect(QApplication.quit)
    timer.start()
    watchdog.start()
    try:
        return run(argv, opener=FakeTranslator.opener())
    finally:
        timer.stop()
        watchdog.stop()


def test_translate_clipboard_command_exits_when_the_popup_closes(qtbot, pack_dir):
    QApplication.clipboard().setText("Bound to a desktop shortcut.")
    seen = []

    def poll() -> None:
        popups = [w for w in QApplication.topLevelWidgets() if w.objectName() == "translatePopup" and w.isVisible()]
        if popups and popups[0].text().endswith("。"):
            seen.append(popups[0].text())
            popups[0].close()

    assert run_polled(["--translate-clipboard"], poll) == 0
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
    qtbot.waitUntil(lambda: popup.stream.req_id is None and popup.text().endswith("。"), timeout=TRANSLATE_TIMEOUT)
    assert popup.width() == WIDTH[1] and popup.height() > short_height and bar.maximum() == 0
    many = "\n".join(f"Line {i}." for i in range(40))
    QApplication.clipboard().setText(many)
    app.translate_clipboard()
    qtbot.waitUntil(lambda: popup.stream.req_id is None and popup.text().count("\n") == 39, timeout=TRANSLATE_TIMEOUT)
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
    assert set(shown) == {"cmn_Hans", "zh-TW", "zh-HK", "cmn_Hant", "yue"} and shown["cmn_Hans"].isChecked()
    assert [b.text() for b in popup.variant_group.buttons()] == ["简", "台", "港", "繁", "粤"]
    qtbot.mouseClick(shown["cmn_Hant"], Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: popup.text() == "繁GOOD繁NEWS。", timeout=TRANSLATE_TIMEOUT)
    qtbot.mouseClick(shown["zh-HK"], Qt.MouseButton.LeftButton)  # the pack's Simplified, converted
    qtbot.waitUntil(lambda: popup.text() == "港GOOD港NEWS。", timeout=TRANSLATE_TIMEOUT)
    assert shown["zh-HK"].isChecked()
    assert app.settings.target_variant.value == "cmn_Hans"  # the popup's own choice: the window keeps its own


def test_the_popup_writes_taiwans_words_with_the_real_engine(qtbot, make_app, backend):
    from fanyi import variants

    app = make_app(backend, settings=Settings(target_variant="zh-TW"))
    QApplication.clipboard().setText("Please watch the video about the software.")
    app.translate_clipboard()
    popup = app.popup
    options = app.direction.options(popup._choice.direction)
    assert options.convert == "zh-TW" and options.target == "cmn_Hans"
    expected = backend.translate(popup.source_text, options)
    qtbot.waitUntil(lambda: popup.stream.req_id is None and popup.text() == expected, timeout=TRANSLATE_TIMEOUT)
    if backend.kind == "real":  # the engine converts: what it wrote is OpenCC's Taiwan form of its Simplified
        simplified = backend.translate(popup.source_text, DecodeOptions(target="cmn_Hans"))
        assert expected == variants.convert(simplified, "zh-TW")


def test_the_popup_says_a_glossary_term_the_model_lost(qtbot, make_app, pack_dir, monkeypatch):
    """As the window does (test_main_window): the model split the placeholder of "hidden"."""
    scripted(monkeypatch, SPLIT.__getitem__)
    app = make_app(opener=open_translator)
    app.glossary.set(Glossary((Term("en", "zh", "hidden", "隐藏"),)))
    QApplication.clipboard().setText("Show the hidden files.")
    app.translate_clipboard()
    popup = app.popup
    qtbot.waitUntil(
        lambda: popup.stream.req_id is None and popup.text() == "显示隐藏的文件。", timeout=TRANSLATE_TIMEOUT
    )
    assert said(popup, "“hidden”") == [LOST_EN]
    note = popup.lost_terms
    assert note.height() >= note.heightForWidth(note.width())  # wrapped, not cut
    app.settings.update(ui_language="zh_CN")
    qtbot.waitUntil(lambda: said(popup, "“hidden”") == [LOST_ZH])
    QApplication.clipboard().setText("Reset the hidden.")
    app.translate_clipboard()
    qtbot.waitUntil(lambda: popup.stream.req_id is None and "隐藏" in popup.text(), timeout=TRANSLATE_TIMEOUT)
    assert said(popup, "“hidden”") == []


@pytest.mark.parametrize("language", ["en", "zh_CN"])
@pytest.mark.parametrize("points", [0, 16])
def test_the_popups_buttons_and_labels_show_their_whole_text(qtbot, make_app, fake_backend, language, points):
    """Clipped to "en in main wind" and "⚠ 1 sentence u" before: the popup now widens (or wraps the
    warning) in both UI languages, at the default and a large font."""
    from fanyi.ui import i18n

    font = QApplication.font()
    if points:
        bigger = QFont(font)
        bigger.setPointSize(points)
        QApplication.setFont(bigger)
    i18n.install(language)
    try:
        app = make_app(fake_backend)
        QApplication.clipboard().setText(f"Fine. It {LOOPS}.")
        app.translate_clipboard()
        popup = app.popup
        qtbot.waitUntil(
            lambda: popup.stream.req_id is None and not popup.untranslated.isHidden(), timeout=TRANSLATE_TIMEOUT
        )
        popup.layout().activate()
        for widget in (
            popup.open_button,
            popup.copy_button,
            popup.pin_button,
            popup.direction_label,
            popup.detected_label,
            *[b for b in popup.variant_group.buttons() if not b.isHidden()],
        ):
            assert widget.width() >= widget.sizeHint().width(), (widget.text(), widget.width())
        badge = popup.untranslated
        assert badge.height() >= badge.heightForWidth(badge.width())  # wrapped, not cut
        app.popup.show_no_model()
        popup.layout().activate()
        assert popup.download_button.width() >= popup.download_button.sizeHint().width()
    finally:
        QApplication.setFont(font)
        i18n.install("en")


def test_download_from_a_popup_started_alone_opens_the_window_and_stays(qtbot, ui_dirs):
    """`fanyi --translate-clipboard` with no model: Download… turns the process into the app, whose
    window shows the download page, instead of exiting with the popup."""
    shown = []

    def poll() -> None:
        popups = [w for w in QApplication.topLevelWidgets() if w.objectName() == "translatePopup" and w.isVisible()]
        windows = [w for w in QApplication.topLevelWidgets() if w.objectName() == "mainWindow" and w.isVisible()]
        if popups and not shown:
            qtbot.mouseClick(popups[0].download_button, Qt.MouseButton.LeftButton)
            shown.append("clicked")
        elif windows and shown == ["clicked"]:
            shown.append(windows[0].pages.currentWidget() is windows[0].no_model)
            QApplication.quit()  # the app would run on; the test ends it

    assert run_polled(["--translate-clipboard"], poll) == 0
    assert shown == ["clicked", True]


def test_showing_the_window_brings_it_back_when_minimised(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    app.show_main()
    app.window.showMinimized()
    qtbot.waitUntil(app.window.isMinimized)
    app.show_main()
    assert not app.window.isMinimized() and app.window.isVisible()
