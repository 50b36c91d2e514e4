"""Colour theme: follow the system, or force a light or dark Fusion palette; text colours beyond the palette's.

Every label's text must read in both themes (WCAG's 4.5:1 against what is behind it, tests/ui/test_contrast.py).
A colour the palette has no role for (an error's red, a warning's amber, the grey of rich text) comes from
``colour``, which knows the light and the dark window, and a widget given one by ``tint`` gets it again when the
theme changes. A style sheet's ``palette(…)`` is read when the sheet is applied, so ``apply`` applies the sheets
that name one again: a label drawn in the old theme's grey on the new theme's window was unreadable.
"""

from __future__ import annotations

from PySide6.QtCore import QRectF
from PySide6.QtGui import QColor, QPainter, QPalette, QPen
from PySide6.QtWidgets import QApplication, QProxyStyle, QStyle, QStyleFactory, QStyleOption, QWidget

# A toggle that is on must read as on in both themes: Fusion's dark "pressed" shade barely differs.
CHECKED_TOGGLES = (
    "QToolButton:checked { background: palette(highlight); color: palette(highlighted-text); "
    "border: 1px solid palette(highlight); border-radius: 3px; }"
)

_system: tuple[str, QPalette] | None = None  # the style and palette the app started with
# kind → (on a light window, on a dark one): each at least 4.5:1 on the window and on the base of its theme
TEXT_COLOURS = {
    "secondary": ("#5f6368", "#9aa0a6"),  # what the text is about (detected language, notes, phonetics)
    "error": ("#b3261e", "#f28b82"),
    "warning": ("#8a5a00", "#e3b341"),
}
_TINT, _RULE = "fanyiTint", "fanyiTintRule"  # a tinted widget's kind and style sheet rule


def _palette(dark: bool) -> QPalette:
    if dark:
        window, base, text, button, mid = "#202124", "#17181a", "#e8eaed", "#2d2e31", "#5f6368"
        highlight, link = "#3d7be0", "#8ab4f8"
    else:
        window, base, text, button, mid = "#f3f3f3", "#ffffff", "#1f1f1f", "#fafafa", "#9aa0a6"
        highlight, link = "#2f6fd6", "#1a5fc8"
    secondary = TEXT_COLOURS["secondary"][dark]
    p = QPalette()
    roles = {
        QPalette.ColorRole.Window: window,
        QPalette.ColorRole.WindowText: text,
        QPalette.ColorRole.Base: base,
        QPalette.ColorRole.AlternateBase: button,
        QPalette.ColorRole.Text: text,
        QPalette.ColorRole.Button: button,
        QPalette.ColorRole.ButtonText: text,
        QPalette.ColorRole.ToolTipBase: base,
        QPalette.ColorRole.ToolTipText: text,
        QPalette.ColorRole.PlaceholderText: secondary,  # read as text: Mid (the outlines' grey) was 2.5:1
        QPalette.ColorRole.Highlight: highlight,
        QPalette.ColorRole.HighlightedText: "#ffffff",
        QPalette.ColorRole.Link: link,
        QPalette.ColorRole.Mid: mid,
    }
    for role, colour in roles.items():
        p.setColor(role, QColor(colour))
    for role in (QPalette.ColorRole.Text, QPalette.ColorRole.WindowText, QPalette.ColorRole.ButtonText):
        p.setColor(QPalette.ColorGroup.Disabled, role, QColor(mid))
    return p


class _OutlinedIndicators(QProxyStyle):
    """Fusion with check boxes and radio buttons outlined in the palette's Mid colour.

    Fusion outlines them with the window colour made darker, which on a dark window is as dark as the
    box: an unchecked check box, and an unchecked checkable menu action (Documents → Bilingual output),
    showed nothing at all.
    """

    def __init__(self) -> None:
        super().__init__(QStyleFactory.create("Fusion"))

    def drawPrimitive(
        self, element: QStyle.PrimitiveElement, option: QStyleOption, painter: QPainter, widget: QWidget | None = None
    ) -> None:
        super().drawPrimitive(element, option, painter, widget)
        radio = element == QStyle.PrimitiveElement.PE_IndicatorRadioButton
        if not radio and element != QStyle.PrimitiveElement.PE_IndicatorCheckBox:
            return
        painter.save()
        painter.setRenderHint(QPainter.RenderHint.Antialiasing)
        painter.setPen(QPen(option.palette.color(QPalette.ColorRole.Mid), 1))
        box = QRectF(option.rect).adjusted(0.5, 0.5, -0.5, -0.5)
        if radio:
            painter.drawEllipse(box)
        else:
            painter.drawRoundedRect(box, 1, 1)
        painter.restore()


def apply(theme: str) -> None:
    """``theme`` is 'system', 'light' or 'dark'."""
    global _system
    app = QApplication.instance()
    assert isinstance(app, QApplication)
    if _system is None:
        _system = (app.style().name(), app.palette())
    if theme in ("light", "dark"):
        # Fusion draws everything from the palette, so a forced theme looks the same everywhere.
        if theme == "dark":
            app.setStyle(_OutlinedIndicators())
        else:
            app.setStyle("Fusion")
        app.setPalette(_palette(theme == "dark"))
    else:
        app.setStyle(_system[0])
        app.setPalette(_system[1])
    _restyle(app)


def dark() -> bool:
    """Whether the application's window is dark (a forced dark theme, or a dark system one)."""
    app = QApplication.instance()
    window = app.palette().color(QPalette.ColorRole.Window) if isinstance(app, QApplication) else QColor("#ffffff")
    return window.lightness() < 128


def colour(kind: str) -> str:
    """The text colour of ``kind`` (TEXT_COLOURS) for the theme of the moment, as #rrggbb (rich text takes these)."""
    return TEXT_COLOURS[kind][dark()]


def tint(widget: QWidget, kind: str | None, rule: str = "color: {};") -> None:
    """Give ``widget``'s text the colour of ``kind`` through the style sheet ``rule`` ({} is the colour), now and
    whenever the theme changes; None gives the palette's text colour back."""
    widget.setProperty(_TINT, kind)
    widget.setProperty(_RULE, rule)
    widget.setStyleSheet(rule.format(colour(kind)) if kind else "")


def _restyle(app: QApplication) -> None:
    """Style sheets read again in the new palette: tinted widgets get their kind's colour of this theme."""
    for widget in app.allWidgets():
        kind = widget.property(_TINT)
        if kind:
            widget.setStyleSheet(str(widget.property(_RULE)).format(colour(str(kind))))
        elif "palette(" in (sheet := widget.styleSheet()):
            widget.setStyleSheet(sheet)
