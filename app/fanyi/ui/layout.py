"""Layouts from their contents in one call, as git-cola's qtutils makes them, so constructors stay short.

    top = hbox(pack_box, swap_button, STRETCH, settings_button, spacing=2)
    page = vbox((splitter, 1), jobs_panel, margin=0)

An item is a widget, a layout, ``STRETCH``, a number of pixels of space, or ``(widget_or_layout, stretch)``.
"""

from __future__ import annotations

from typing import TypeVar

from PySide6.QtWidgets import QBoxLayout, QHBoxLayout, QLayout, QVBoxLayout, QWidget

STRETCH = "stretch"
Item = QWidget | QLayout | int | str | tuple
B = TypeVar("B", bound=QBoxLayout)


def hbox(*items: Item, margin: int | None = None, spacing: int | None = None) -> QHBoxLayout:
    return _fill(QHBoxLayout(), items, margin, spacing)


def vbox(*items: Item, margin: int | None = None, spacing: int | None = None) -> QVBoxLayout:
    return _fill(QVBoxLayout(), items, margin, spacing)


def container(layout: QLayout, name: str = "") -> QWidget:
    """A plain widget holding ``layout`` (a page of a stack, a central widget, a row to show or hide)."""
    holder = QWidget()
    if name:
        holder.setObjectName(name)
    holder.setLayout(layout)
    return holder


def _fill(layout: B, items: tuple[Item, ...], margin: int | None, spacing: int | None) -> B:
    if margin is not None:
        layout.setContentsMargins(margin, margin, margin, margin)
    if spacing is not None:
        layout.setSpacing(spacing)
    for item in items:
        item, stretch = item if isinstance(item, tuple) else (item, 0)
        if isinstance(item, str):  # STRETCH
            layout.addStretch()
        elif isinstance(item, int):
            layout.addSpacing(item)
        elif isinstance(item, QLayout):
            layout.addLayout(item, stretch)
        else:
            layout.addWidget(item, stretch)
    return layout
