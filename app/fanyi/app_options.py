"""The options of `fanyi` without a command: the desktop app parses them (fanyi.ui.app.run), and the
command line's --help lists them (fanyi.cli). Here so that neither imports the other for them."""

from __future__ import annotations

import argparse

APP_OPTIONS = {
    "--translate-clipboard": "translate the clipboard's text in a small popup, then exit (bind it to a desktop "
    "shortcut where the app's own hotkey cannot work, e.g. on Wayland)",
    "--translate-region": "choose a region of the screen and translate its text in a small popup, then exit",
    "--tray": "start in the tray, without the window (how Fanyi starts at login)",
    "--self-test": "open the window offscreen, translate one sentence with the bundled pack, report and exit "
    "(0 when everything works)",
}
ONE_SHOT = ("--translate-clipboard", "--translate-region")


def app_parser() -> argparse.ArgumentParser:
    """The app's own parser; --self-test is handled before it (fanyi.cli.main), Qt's options pass through."""
    parser = argparse.ArgumentParser(prog="fanyi", description="Offline English-Chinese translator.")
    one_shot = parser.add_mutually_exclusive_group()
    for flag in ONE_SHOT:
        one_shot.add_argument(flag, action="store_true", help=APP_OPTIONS[flag])
    parser.add_argument("--tray", action="store_true", help=APP_OPTIONS["--tray"])
    return parser
