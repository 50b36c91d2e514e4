"""The global hotkey degrades cleanly where it cannot work, and its pieces do what they say."""

from __future__ import annotations

import pytest

from fanyi.ui import hotkey
from fanyi.ui.hotkey import DOUBLE_COPY_WINDOW, DoubleCopyDetector, GlobalHotkey, to_pynput
from fanyi.ui.settings import DOUBLE_COPY


def test_without_a_display_hotkeys_are_unavailable_with_a_reason(monkeypatch, qapp):
    monkeypatch.delenv("DISPLAY", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    monkeypatch.delenv("XDG_SESSION_TYPE", raising=False)
    assert hotkey.availability() == (False, "There is no X display.")
    monkeypatch.setenv("XDG_SESSION_TYPE", "wayland")
    ok, why = hotkey.availability()
    assert not ok and "Wayland" in why


def test_set_hotkey_reports_instead_of_failing(monkeypatch, qapp):
    monkeypatch.delenv("DISPLAY", raising=False)
    keys = GlobalHotkey()
    for sequence in ("Ctrl+Alt+F", DOUBLE_COPY):
        assert keys.set_hotkey(sequence) is False
        assert not keys.active and keys.status == "There is no X display."
    assert keys.set_hotkey("") is False and keys.status == ""


@pytest.mark.parametrize(
    "sequence, expected",
    [
        ("Ctrl+Alt+F", "<ctrl>+<alt>+f"),
        ("Ctrl+Shift+Space", "<ctrl>+<shift>+<space>"),
        ("Meta+F9", "<cmd>+<f9>"),
        ("Ctrl++", "<ctrl>++"),
    ],
)
def test_qt_sequences_become_pynput_hotkeys(sequence, expected):
    assert to_pynput(sequence) == expected


def test_modifiers_alone_are_not_a_hotkey():
    with pytest.raises(ValueError):
        to_pynput("Ctrl+Alt")


def test_double_copy_needs_two_ctrl_c_close_together():
    d = DoubleCopyDetector()
    d.press("ctrl", 0.0)
    assert not d.press("c", 0.0)
    assert d.press("c", DOUBLE_COPY_WINDOW - 0.1)
    assert not d.press("c", 2.0)  # a third press starts over
    assert not d.press("c", 3.0)  # too slow
    d.release("ctrl")
    assert not d.press("c", 3.1)  # without Ctrl
    d.press("ctrl", 4.0)
    d.press("c", 4.0)
    d.press("x", 4.1)  # another key in between breaks the gesture
    assert not d.press("c", 4.2)
