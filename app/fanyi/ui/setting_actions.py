"""Menu actions bound to a setting: checked as it is, and setting it when chosen (text is the caller's: retranslate)."""

from __future__ import annotations

from collections.abc import Sequence

from PySide6.QtGui import QAction, QActionGroup
from PySide6.QtWidgets import QMenu

from fanyi.ui.controllers.settings import Setting


def toggle(menu: QMenu, setting: Setting[bool]) -> QAction:
    """A checkable action in ``menu`` that shows and sets a yes/no setting."""
    action = QAction(menu, checkable=True, checked=setting.value)

    def chosen(on: bool) -> None:
        if setting.value != on:
            setting.set(on)

    action.toggled.connect(chosen)
    setting.changed.connect(action.setChecked)
    menu.addAction(action)
    return action


def choice(menu: QMenu, setting: Setting[str], values: Sequence[str]) -> dict[str, QAction]:
    """One checkable action in ``menu`` for each of ``values``, the setting's own checked, choosing sets it."""
    group = QActionGroup(menu, exclusive=True)
    actions = {}
    for value in values:
        action = QAction(menu, checkable=True, checked=setting.value == value)
        action.triggered.connect(lambda _checked=False, chosen=value: setting.set(chosen))
        group.addAction(action)
        menu.addAction(action)
        actions[value] = action
    setting.changed.connect(lambda chosen: actions[chosen].setChecked(True) if chosen in actions else None)
    return actions
