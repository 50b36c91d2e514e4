"""Defaults written once: where the local API listens, how many threads translate.

The command line (fanyi.cli), the desktop app (fanyi.ui) and the engine's session options read them
here, so that `fanyi serve`, the app's "Let other apps use Fanyi" and their help texts cannot disagree.
(The app's own command-line options are in fanyi.app_options.)
"""

from __future__ import annotations

import os

API_HOST = "127.0.0.1"  # this computer only; `fanyi serve --host` is the way to offer the API to a network
API_PORT = 5000  # LibreTranslate's: clients that assume it find Fanyi there
# Intra-op threads when the user has not chosen: decoding one sentence is latency-bound, and more than
# 4 threads rarely help a d_model-512 model.
THREADS = 4


def threads(spare: int = 0) -> int:
    """THREADS, or as many as this machine has cores with ``spare`` of them left for the rest."""
    return max(1, min(THREADS, (os.cpu_count() or 1) - spare))


def api_address(port: int, host: str = API_HOST) -> str:
    return f"http://{host}:{port}"
