"""Colour theme: follow the system, or force a light or dark Fusion palette."""

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


def _palette(dark: bool) -> QPalette:
    if dark:
        window, base, text, button, mid = "#202124", "#17181a", "#e8eaed", "#2d2e31", "#5f6368"
        highlight, link = "#3d7be0", "#8ab4f8"
    else:
        window, base, text, button, mid = "#f3f3f3", "#ffffff", "#1f1f1f", "#fafafa", "#9aa0a6"
        highlight, link = "#2f6fd6", "#1a5fc8"
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
        QPalette.ColorRole.PlaceholderText: mid,
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
