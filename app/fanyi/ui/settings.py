"""User settings: a typed dataclass persisted as JSON in the user config folder (no Qt here)."""

from __future__ import annotations

import dataclasses
import json
import logging
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from fanyi import defaults, limits, paths
from fanyi.fsutil import atomic_write_text, move_aside
from fanyi.languages import SIMPLIFIED, VARIANTS
from fanyi.library.sources.order import KINDS as SOURCE_KINDS
from fanyi.library.sources.order import URL

log = logging.getLogger(__name__)

SETTINGS_FILE = "settings.json"
DOUBLE_COPY = "Ctrl+C, Ctrl+C"  # the hotkey value meaning "press Ctrl+C twice quickly"
THEMES = ("system", "light", "dark")
UI_LANGUAGES = ("auto", "zh_CN", "en")
BILINGUAL_LAYOUTS = ("side", "alternate")
PDF_OUTPUTS = ("pdf", "docx")
TEXT_SIZES = (10, 11, 12, 13, 14, 16, 18, 20, 24, 28, 32)  # points offered for the panes' text
TEXT_SIZE_RANGE = (6, 72)  # what a hand-edited file may hold; 0 = the default size
SECRETS = ("api_key", "hf_token")  # settings whose values are never logged


@dataclass
class Settings:
    """Every field has a default so that a missing, partial or corrupt file still yields usable settings.

    0 in beams / max_length / threads means "let the pack (or onnxruntime) decide".
    """

    beams: int = 0
    max_length: int = 0
    threads: int = 0
    translate_as_you_type: bool = True
    target_variant: str = SIMPLIFIED
    ui_language: str = "auto"
    theme: str = "system"
    hotkey: str = "Ctrl+Alt+F"  # a QKeySequence string, DOUBLE_COPY, or "" for none
    screenshot_hotkey: str = "Ctrl+Alt+S"  # translate a screen region: a QKeySequence string or "" for none
    start_in_tray: bool = False
    close_to_tray: bool = True
    history: bool = True
    start_at_login: bool = False  # fanyi.autostart's entry; the app writes or removes it when this changes
    text_size: int = 0  # points of the source and target panes' text; 0 = a little larger than the UI's
    default_pack: str = ""  # a pack name; "" = the first English→Chinese pack found
    # where models are downloaded from (fanyi.library.sources.order): auto, hf, hf-mirror, modelscope, or url
    download_source: str = "auto"
    download_source_url: str = ""  # with "url": a server that speaks the Hugging Face Hub's API
    # a Hugging Face access token for gated models; "" = HF_TOKEN or huggingface-cli's login; never in a repr or log
    hf_token: str = field(default="", repr=False)
    catalog_url: str = ""  # where to read the list of packs from; "" = the catalog's own URLs
    # dictionaries come from GitHub: an address put before GitHub's (a GitHub proxy), tried first; "" = none
    github_mirror: str = ""
    api_enabled: bool = False  # "let other apps on this computer use Fanyi": the local API on 127.0.0.1
    api_port: int = defaults.API_PORT
    api_key: str = ""  # "" = no key needed
    # web pages allowed to use the API without a key, as origins ("http://localhost:3000"); no UI: docs/local-api.md
    api_origins: list = field(default_factory=list)
    # many-to-many packs: the [source, target] language codes last chosen, by pack name
    pack_languages: dict = field(default_factory=dict)
    # where the main window was, and how its panes were split (Qt's saveGeometry/saveState, base64)
    window_geometry: str = ""
    splitter_state: str = ""
    auto_direction: bool = True  # choose the direction from the text's language; False: the one the user pinned
    translate_selection: bool = False  # X11: the hotkey translates the selected text (no Ctrl+C needed)
    told_about_tray: bool = False  # the first close to the tray said where Fanyi went; said once
    bilingual_documents: bool = False  # documents written with the original beside the translation
    bilingual_layout: str = "side"  # a bilingual PDF's pages: "side" by side on one page, or "alternate"
    pdf_output: str = "pdf"  # what a PDF is translated into: "pdf" (its layout kept) or "docx" (its text)

    def __post_init__(self) -> None:
        # Values outside the known choices (an old or hand-edited file) fall back field by field.
        def default(name: str) -> Any:
            return Settings.__dataclass_fields__[name].default

        for name, most in _upper_bounds().items():
            value = getattr(self, name)
            if value < 0:
                log.warning("settings: %s=%d is negative; using the default", name, value)
                setattr(self, name, default(name))
            elif value > most:
                log.warning("settings: %s=%d is more than %d; using %d", name, value, most, most)
                setattr(self, name, most)
        if self.theme not in THEMES:
            self.theme = default("theme")
        if self.screenshot_hotkey == DOUBLE_COPY:  # that gesture belongs to the clipboard
            self.screenshot_hotkey = default("screenshot_hotkey")
        if self.ui_language not in UI_LANGUAGES:
            self.ui_language = default("ui_language")
        if self.bilingual_layout not in BILINGUAL_LAYOUTS:
            self.bilingual_layout = default("bilingual_layout")
        if self.pdf_output not in PDF_OUTPUTS:
            self.pdf_output = default("pdf_output")
        if self.target_variant not in VARIANTS:
            self.target_variant = default("target_variant")
        self.pack_languages = {
            name: list(pair)
            for name, pair in self.pack_languages.items()
            if isinstance(name, str)
            and isinstance(pair, list)
            and len(pair) == 2
            and all(isinstance(code, str) for code in pair)
        }
        if self.text_size and not TEXT_SIZE_RANGE[0] <= self.text_size <= TEXT_SIZE_RANGE[1]:
            self.text_size = default("text_size")
        self.api_origins = [origin for origin in self.api_origins if isinstance(origin, str)]
        if not 1 <= self.api_port <= 65535:
            self.api_port = default("api_port")
        for name in ("download_source_url", "catalog_url", "github_mirror"):
            if not valid_url(getattr(self, name)):
                setattr(self, name, default(name))
        if self.download_source not in SOURCE_KINDS or (self.download_source == URL and not self.download_source_url):
            self.download_source = default("download_source")


def _upper_bounds() -> dict[str, int]:
    """The largest value of each numeric setting; 0 ("the default") is always allowed."""
    return {"beams": limits.MAX_BEAMS, "max_length": limits.MAX_DECODE_LENGTH, "threads": limits.max_threads()}


def valid_url(value: str) -> bool:
    """An address the downloader accepts: empty (none set) or http(s):// without spaces."""
    return not value or (
        value.startswith(("https://", "http://")) and not any(c.isspace() for c in value) and len(value) <= 2048
    )


def settings_path() -> Path:
    return paths.user_config_dir() / SETTINGS_FILE


def _coerce(raw: dict) -> dict:
    """Keep only known keys whose JSON type matches the field's default (bool is not accepted as int)."""
    values = {}
    for f in dataclasses.fields(Settings):
        if f.name not in raw:
            continue
        factory = f.default_factory
        default = factory() if f.default is dataclasses.MISSING and callable(factory) else f.default
        value, expected = raw[f.name], type(default)
        if type(value) is expected:
            values[f.name] = value
        else:
            shown = "…" if f.name in SECRETS else repr(value)
            log.warning("settings: ignoring %s=%s (expected %s)", f.name, shown, expected.__name__)
    return values


def load_settings(path: Path | None = None) -> Settings:
    """The saved settings; a file that cannot be read as settings gives the defaults and is kept aside
    (``settings.json.corrupt-<date>-<time>``) before the next save replaces it."""
    path = path or settings_path()
    try:
        raw = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Settings()
    except OSError as exc:
        log.warning("settings: %s cannot be read (%s); using defaults", path, exc)
        return Settings()
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        _keep_aside(path, str(exc))
        return Settings()
    if not isinstance(raw, dict):
        _keep_aside(path, "it does not hold an object")
        return Settings()
    return Settings(**_coerce(raw))


def _keep_aside(path: Path, why: str) -> None:
    try:
        kept = move_aside(path)
    except OSError as exc:
        log.warning("settings: %s is unusable (%s) and could not be kept aside (%s); using defaults", path, why, exc)
    else:
        log.warning("settings: %s is unusable (%s); kept as %s, using defaults", path, why, kept)


def save_settings(settings: Settings, path: Path | None = None) -> None:
    path = path or settings_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    # readable by this user only while it holds a secret: the API key, the Hugging Face token
    atomic_write_text(
        path,
        json.dumps(dataclasses.asdict(settings), ensure_ascii=False, indent=2) + "\n",
        private=bool(settings.api_key or settings.hf_token),
    )
