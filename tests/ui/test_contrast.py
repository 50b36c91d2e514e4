"""Every label can be read in both themes: the contrast of its text with what is behind it, measured on the
pixels the window draws, is at least WCAG's 4.5:1 for text (disabled ones aside, which WCAG exempts). In the dark
theme "Detected: English" was drawn #121214 on #202124 (1.1:1)."""

from __future__ import annotations

from collections import Counter

import pytest
from dictionary_data import write_csv
from PySide6.QtCore import QPoint, QRect
from PySide6.QtGui import QColor
from PySide6.QtWidgets import QApplication, QLabel, QWidget

from fanyi.library import dictionaries
from fanyi.ui import theme
from fanyi.ui.settings import Settings
from fanyi.ui.settings_dialog import SettingsDialog

LEAST = 4.5  # WCAG 2.x, success criterion 1.4.3: the contrast of text (AA)


def luminance(colour: QColor) -> float:
    """WCAG's relative luminance of an sRGB colour."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    return 0.2126 * channel(colour.red()) + 0.7152 * channel(colour.green()) + 0.0722 * channel(colour.blue())


def ratio(a: QColor, b: QColor) -> float:
    light, dark = sorted((luminance(a), luminance(b)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


def contrast(label: QLabel) -> tuple[float, str, str]:
    """The label's text against its background as drawn in its window: the commonest colour is the background,
    the text's colour the one that differs from it the most."""
    window = label.window()
    corner = label.mapTo(window, QPoint(0, 0))
    image = window.grab(QRect(corner, label.size())).toImage()
    counts = Counter(image.pixel(x, y) for x in range(image.width()) for y in range(image.height()))
    background = QColor.fromRgb(counts.most_common(1)[0][0])
    text = max((QColor.fromRgb(pixel) for pixel in counts), key=lambda colour: ratio(colour, background))
    return ratio(text, background), text.name(), background.name()


def readable_labels(*tops: QWidget) -> list[QLabel]:
    return [
        label
        for top in tops
        for label in top.findChildren(QLabel)
        if label.isVisibleTo(top) and label.isEnabled() and label.text().strip() and label.width() > 4
    ]


def faint(*tops: QWidget) -> list[str]:
    QApplication.processEvents()
    found = []
    for label in readable_labels(*tops):
        measured, text, background = contrast(label)
        if measured < LEAST:
            found.append(
                f"{label.window().objectName() or type(label.window()).__name__}: {label.text()[:40]!r} "
                f"{text} on {background} ({measured:.1f}:1)"
            )
    return found


@pytest.fixture(params=["light", "dark"])
def shown(request, qtbot, make_app, fake_backend, ui_dirs):
    """The app in a theme, its window, popup, model manager and settings open, with a language detected."""
    from fanyi.ui.app import FanyiApp

    dictionaries.import_file(write_csv(ui_dirs / "ecdict.csv"))  # the popup shows a word's entry
    theme.apply(request.param)
    app: FanyiApp = make_app(fake_backend, settings=Settings(theme=request.param))
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None)
    win.source.set_text("The weather is fine today.")
    qtbot.waitUntil(lambda: win.detected_label.isVisibleTo(win) and bool(win.detected_label.text()))
    app.dialogs.show_models()
    settings = SettingsDialog(app.settings.current, False, win, app.glossary.glossary)  # modal in the app
    qtbot.addWidget(settings)
    settings.show()
    QApplication.clipboard().setText("apple")
    app.translate_clipboard()
    qtbot.waitUntil(lambda: app.popup.isVisible() and bool(app.popup.detected_label.text()))
    qtbot.waitUntil(lambda: app.popup.card.isVisible())
    yield app, request.param, [win, app.popup, settings, *app.dialogs.open.values()]
    theme.apply("system")


def test_every_label_of_the_window_popup_and_dialogs_reads_in_both_themes(shown):
    _app, name, tops = shown
    found = faint(*tops)
    assert not found, f"{name}: " + "; ".join(found)


def test_every_label_still_reads_after_the_theme_is_switched(shown):
    _app, name, tops = shown
    other = "light" if name == "dark" else "dark"
    theme.apply(other)
    found = faint(*tops)
    assert not found, f"{other}: " + "; ".join(found)


@pytest.mark.parametrize("name", ["light", "dark"])
def test_the_page_without_a_model_reads_in_both_themes(qtbot, make_app, ui_dirs, name):
    from ui_fakes import FakeTranslator

    theme.apply(name)
    try:
        app = make_app(opener=FakeTranslator.opener(), settings=Settings(theme=name))
        app.window.show()
        app.window.no_model.error.setText("The download servers cannot be reached.")  # as a failed download says
        app.window.no_model.error.show()
        found = faint(app.window)
        assert not found, f"{name}: " + "; ".join(found)
    finally:
        theme.apply("system")
