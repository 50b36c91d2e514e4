"""The settings the app runs with, as typed observable values.

``LiveSettings`` holds the saved ``Settings`` (fanyi.ui.settings: the fields, their checks, the
file) and offers each field as a ``Setting``: its ``value``, a typed ``set()`` and a ``changed``
signal of its own. Each part of the app listens to the settings it depends on (the hotkey to
``hotkey``), or with ``on_change`` to a group of them (the local API to its port, key and switch:
restarted once when the dialog changes two), so nothing compares fields by hand. A change is saved
once, then every setting it changed emits, in the order of the fields, then the group listeners run.
"""

from __future__ import annotations

import dataclasses
import logging
from collections.abc import Callable
from typing import Any, Generic, TypeVar

from PySide6.QtCore import QObject, Signal

from fanyi.ui.settings import Settings, save_settings

log = logging.getLogger(__name__)

T = TypeVar("T")


class Setting(QObject, Generic[T]):
    """One setting: its value as saved, and a signal when that changes."""

    changed = Signal(object)  # the new value

    def __init__(self, owner: LiveSettings, name: str) -> None:
        super().__init__(owner)
        self._owner = owner
        self.name = name

    @property
    def value(self) -> T:
        return getattr(self._owner.current, self.name)

    def set(self, value: T) -> None:
        self._owner.update(**{self.name: value})


class LiveSettings(QObject):
    applied = Signal(object)  # the frozenset of the names of the settings one change changed
    # One typed Setting per field of Settings (tests/ui/test_settings.py checks that none is missing).
    beams: Setting[int]
    max_length: Setting[int]
    threads: Setting[int]
    translate_as_you_type: Setting[bool]
    target_variant: Setting[str]
    ui_language: Setting[str]
    theme: Setting[str]
    hotkey: Setting[str]
    screenshot_hotkey: Setting[str]
    start_in_tray: Setting[bool]
    close_to_tray: Setting[bool]
    history: Setting[bool]
    start_at_login: Setting[bool]
    text_size: Setting[int]
    default_pack: Setting[str]
    download_source: Setting[str]
    download_source_url: Setting[str]
    hf_token: Setting[str]
    catalog_url: Setting[str]
    github_mirror: Setting[str]
    api_enabled: Setting[bool]
    api_port: Setting[int]
    api_key: Setting[str]
    api_origins: Setting[list]
    pack_languages: Setting[dict]
    window_geometry: Setting[str]
    splitter_state: Setting[str]
    auto_direction: Setting[bool]
    translate_selection: Setting[bool]
    told_about_tray: Setting[bool]
    bilingual_documents: Setting[bool]
    bilingual_layout: Setting[str]
    pdf_output: Setting[str]

    def __init__(self, settings: Settings, save: Callable[[Settings], None] = save_settings) -> None:
        super().__init__()
        self.current = settings  # read it, never change it in place: update() and apply() tell the listeners
        self._save = save
        for field in dataclasses.fields(Settings):
            setattr(self, field.name, Setting(self, field.name))

    def update(self, **changes: Any) -> None:
        """Change some settings (checked as a file's are: a value out of range falls back)."""
        self.apply(dataclasses.replace(self.current, **changes))

    def apply(self, new: Settings) -> None:
        """Make ``new`` the settings: saved, then each one that changed emits its ``changed``."""
        changed = [
            f.name for f in dataclasses.fields(Settings) if getattr(new, f.name) != getattr(self.current, f.name)
        ]
        if not changed:
            return
        self.current = new
        try:
            self._save(new)
        except OSError as exc:  # a read-only config folder must not take the app down
            log.warning("could not save settings: %s", exc)
        for name in changed:
            setting: Setting = getattr(self, name)
            setting.changed.emit(getattr(new, name))
        self.applied.emit(frozenset(changed))

    def on_change(self, callback: Callable[[], object], *settings: Setting) -> None:
        """Call ``callback`` once for each change of any of ``settings``."""
        names = {setting.name for setting in settings}
        self.applied.connect(lambda changed: None if names.isdisjoint(changed) else callback())
