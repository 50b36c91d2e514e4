"""fanyi.paths as a PyInstaller bundle sees it: resources from sys._MEIPASS, portable mode by marker file."""

from __future__ import annotations

import sys

import pytest

from fanyi import paths


@pytest.fixture()
def frozen(tmp_path, monkeypatch):
    """A fake one-folder bundle: the executable in app/, its resources in app/_internal."""
    exe_dir = tmp_path.resolve() / "app"  # paths resolves the executable's folder
    (exe_dir / "_internal").mkdir(parents=True)
    monkeypatch.setattr(sys, "frozen", True, raising=False)
    monkeypatch.setattr(sys, "_MEIPASS", str(exe_dir / "_internal"), raising=False)
    monkeypatch.setattr(sys, "executable", str(exe_dir / "fanyi"))
    for name in ("FANYI_DATA_DIR", "FANYI_CONFIG_DIR", "FANYI_MODELS_DIR"):
        monkeypatch.delenv(name, raising=False)
    return exe_dir


def test_bundle_resources_and_packs_come_from_the_bundle_folder(frozen):
    assert paths.bundle_root() == frozen / "_internal"
    assert paths.assets_dir() == frozen / "_internal" / "assets"
    assert paths.bundled_packs_dirs() == [frozen / "_internal" / "models"]


def test_user_folders_are_the_platforms_without_the_marker(frozen):
    assert not paths.user_config_dir().is_relative_to(frozen)
    assert not paths.user_data_dir().is_relative_to(frozen)


def test_portable_marker_keeps_settings_and_data_next_to_the_executable(frozen):
    (frozen / paths.PORTABLE_MARKER).write_text("")
    assert paths.user_config_dir() == frozen / "config"
    assert paths.user_data_dir() == frozen / "data"
    assert paths.user_packs_dir() == frozen / "data" / "models"
