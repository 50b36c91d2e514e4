"""Defaults written once: where the local API listens, how many threads translate, the app's own options.

The command line (fanyi.cli), the desktop app (fanyi.ui) and the engine's session options read them
here, so that `fanyi serve`, the app's "Let other apps use Fanyi" and their help texts cannot disagree.
"""

from __future__ import annotations

import os

API_HOST = "127.0.0.1"  # this computer only; `fanyi serve --host` is the way to offer the API to a network
API_PORT = 5000  # LibreTranslate's: clients that assume it find Fanyi there
# Intra-op threads when the user has not chosen: decoding one sentence is latency-bound, and more than
# 4 threads rarely help a d_model-512 model.
THREADS = 4

# Options of `fanyi` without a command: the app (fanyi.ui.app.run) parses them, `fanyi --help` lists them.
APP_OPTIONS = {
    "--translate-clipboard": "translate the clipboard's text in a small popup, then exit (bind it to a desktop "
                             "shortcut where the app's own hotkey cannot work, e.g. on Wayland)",
    "--translate-region": "choose a region of the screen and translate its text in a small popup, then exit",
    "--tray": "start in the tray, without the window (how Fanyi starts at login)",
    "--self-test": "open the window offscreen, translate one sentence with the bundled pack, report and exit "
                   "(0 when everything works)",
}


def threads(spare: int = 0) -> int:
    """THREADS, or as many as this machine has cores with ``spare`` of them left for the rest."""
    return max(1, min(THREADS, (os.cpu_count() or 1) - spare))


def api_address(port: int, host: str = API_HOST) -> str:
    return f"http://{host}:{port}"
