"""Where Fanyi keeps things: bundled resources, bundled packs, user packs and settings.

Nothing here touches the disk at import time; folders are created by the code that writes into them.
Environment overrides (used by tests and the portable mode):
  FANYI_DATA_DIR    user data (installed packs and dictionaries, history)
  FANYI_CONFIG_DIR  settings
  FANYI_MODELS_DIR  an extra folder searched for packs (the repository's models/ when run from source)
  FANYI_PACKS_DIR   the user's installed packs, where they are not in the data folder (the self-test reads
                    them there while it keeps its settings and history in a temporary folder)
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import platformdirs

APP_NAME = "Fanyi"
PORTABLE_MARKER = "fanyi-portable.txt"


def is_frozen() -> bool:
    return bool(getattr(sys, "frozen", False))


def bundle_root() -> Path:
    """The folder holding `assets/` and `models/`: the PyInstaller bundle, or the source checkout."""
    if is_frozen():
        return Path(getattr(sys, "_MEIPASS", Path(sys.executable).parent))
    return Path(__file__).resolve().parents[2]


def assets_dir() -> Path:
    return bundle_root() / "assets"


def _portable_root() -> Path | None:
    if not is_frozen():
        return None
    exe_dir = Path(sys.executable).resolve().parent
    return exe_dir if (exe_dir / PORTABLE_MARKER).exists() else None


def _platform_dirs() -> platformdirs.PlatformDirs:
    return platformdirs.PlatformDirs(APP_NAME, appauthor=False)


def user_data_dir() -> Path:
    if env := os.environ.get("FANYI_DATA_DIR"):
        return Path(env)
    if portable := _portable_root():
        return portable / "data"
    return Path(_platform_dirs().user_data_dir)


def user_config_dir() -> Path:
    if env := os.environ.get("FANYI_CONFIG_DIR"):
        return Path(env)
    if portable := _portable_root():
        return portable / "config"
    return Path(_platform_dirs().user_config_dir)


def user_packs_dir() -> Path:
    if env := os.environ.get("FANYI_PACKS_DIR"):
        return Path(env)
    return user_data_dir() / "models"


def dictionaries_dir() -> Path:
    """Installed dictionaries (fanyi.library.dictionaries): one SQLite file each."""
    return user_data_dir() / "dictionaries"


def downloads_dir() -> Path:
    """Pack archives being downloaded (``.part`` files, kept to resume) and downloaded, until installed."""
    return user_data_dir() / "downloads"


def bundled_packs_dirs() -> list[Path]:
    """Read-only pack folders: an override, then `models/` of the bundle or checkout."""
    dirs = []
    if env := os.environ.get("FANYI_MODELS_DIR"):
        dirs.append(Path(env))
    dirs.append(bundle_root() / "models")
    return dirs
