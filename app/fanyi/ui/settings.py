"""User settings: a typed dataclass persisted as JSON in the user config folder (no Qt here)."""

from __future__ import annotations

import dataclasses
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path

from fanyi import paths
from fanyi.fsutil import atomic_write_text

log = logging.getLogger(__name__)

SETTINGS_FILE = "settings.json"
DOUBLE_COPY = "Ctrl+C, Ctrl+C"  # the hotkey value meaning "press Ctrl+C twice quickly"
THEMES = ("system", "light", "dark")
UI_LANGUAGES = ("auto", "zh_CN", "en")
# Target-token names of multi-target packs and how Chinese readers name them (not translated).
TARGET_VARIANTS = {"cmn_Hans": "简体", "cmn_Hant": "繁體", "yue": "粤语"}


@dataclass
class Settings:
    """Every field has a default so that a missing, partial or corrupt file still yields usable settings.

    0 in beams / max_length / threads means "let the pack (or onnxruntime) decide".
    """

    beams: int = 0
    max_length: int = 0
    threads: int = 0
    translate_as_you_type: bool = True
    target_variant: str = "cmn_Hans"
    ui_language: str = "auto"
    theme: str = "system"
    hotkey: str = "Ctrl+Alt+F"  # a QKeySequence string, DOUBLE_COPY, or "" for none
    start_in_tray: bool = False
    close_to_tray: bool = True
    history: bool = True
    default_pack: str = ""  # a pack name; "" = the first English→Chinese pack found
    # many-to-many packs: the [source, target] language codes last chosen, by pack name
    pack_languages: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        # Values outside the known choices (an old or hand-edited file) fall back field by field.
        def default(name: str):
            return Settings.__dataclass_fields__[name].default

        for name in ("beams", "max_length", "threads"):
            if getattr(self, name) < 0:
                setattr(self, name, default(name))
        if self.theme not in THEMES:
            self.theme = default("theme")
        if self.ui_language not in UI_LANGUAGES:
            self.ui_language = default("ui_language")
        self.pack_languages = {name: list(pair) for name, pair in self.pack_languages.items()
                               if isinstance(name, str) and isinstance(pair, list) and len(pair) == 2
                               and all(isinstance(code, str) for code in pair)}

def settings_path() -> Path:
    return paths.user_config_dir() / SETTINGS_FILE


def _coerce(raw: dict) -> dict:
    """Keep only known keys whose JSON type matches the field's default (bool is not accepted as int)."""
    values = {}
    for f in dataclasses.fields(Settings):
        if f.name not in raw:
            continue
        default = f.default_factory() if f.default is dataclasses.MISSING else f.default
        value, expected = raw[f.name], type(default)
        if type(value) is expected:
            values[f.name] = value
        else:
            log.warning("settings: ignoring %s=%r (expected %s)", f.name, value, expected.__name__)
    return values


def load_settings(path: Path | None = None) -> Settings:
    path = path or settings_path()
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Settings()
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        log.warning("settings: %s is unreadable (%s); using defaults", path, exc)
        return Settings()
    if not isinstance(raw, dict):
        log.warning("settings: %s does not hold an object; using defaults", path)
        return Settings()
    return Settings(**_coerce(raw))


def save_settings(settings: Settings, path: Path | None = None) -> None:
    path = path or settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_text(path, json.dumps(dataclasses.asdict(settings), ensure_ascii=False, indent=2) + "\n")
