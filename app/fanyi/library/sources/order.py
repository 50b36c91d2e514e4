"""Which download sources to try, in which order: the user's choice (Settings → Downloads, ``--from``).

Automatic tries the source that delivered the user's last download first (remembered in the user data
folder), then the Hub (``HF_ENDPOINT`` when set, else huggingface.co), hf-mirror.com and ModelScope,
moving on when one does not answer (fetch passes over one silent for limits.SOURCE_PROBE_TIMEOUT_S), has no
such repository, or refuses it — so in mainland China, where
huggingface.co is blocked or crawls, a download goes to the mirror or to ModelScope by itself, and the next
one goes there first. Choosing one source tries only that one; a custom address is a server that speaks the
Hub's API.

The Hugging Face token (the setting, else ``HF_TOKEN`` or huggingface-cli's login) is sent to the Hub's
address only, and to hf-mirror.com only when the user chose it (the mirror needs it for a gated model);
never to ModelScope, and never to hf-mirror.com in the automatic order.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable
from dataclasses import dataclass

from ... import paths
from ...fsutil import atomic_write_text
from ..catalog import CatalogEntry
from . import Source
from .hub import MIRROR, HubSource, hub_endpoint, implicit_token
from .modelscope import ModelScopeSource

AUTO, HF, HF_MIRROR, MODELSCOPE, URL = "auto", "hf", "hf-mirror", "modelscope", "url"
KINDS = (AUTO, HF, HF_MIRROR, MODELSCOPE, URL)
MEMORY_FILE = "download-source.json"  # in the user data folder: {"source": "hf-mirror"}

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Preference:
    kind: str = AUTO
    url: str = ""  # kind URL: the address of a server that speaks the Hub's API
    token: str = ""  # the user's Hugging Face token; "" = huggingface_hub's own (HF_TOKEN, login)

    def __repr__(self) -> str:  # never the token
        return f"Preference({self.kind!r}, {self.url!r}, token={'set' if self.token else 'none'})"

    @classmethod
    def parse(cls, text: str, token: str = "") -> Preference:
        """`--from`'s value: hf, hf-mirror, modelscope or an http(s) address (of a Hub-compatible server)."""
        if text.startswith(("https://", "http://")):
            return cls(URL, text.rstrip("/"), token)
        if text in KINDS and text != URL:
            return cls(text, "", token)
        raise ValueError(f"unknown download source {text!r}: use hf, hf-mirror, modelscope or an http(s) address")


AUTOMATIC = Preference()


@dataclass(frozen=True)
class Origin:
    """A repository at one source: where to ask for it, under which id, at which revision."""

    source: Source
    repo_id: str
    revision: str


def _token(pref: Preference, token_source: Callable[[], str | None]) -> str | None:
    return pref.token or token_source()


def sources(pref: Preference, token_source: Callable[[], str | None] = implicit_token) -> list[Source]:
    """The sources to try, in order."""
    if pref.kind == URL:
        return [HubSource(pref.url, URL, token=_token(pref, token_source))]
    if pref.kind == HF_MIRROR:
        return [HubSource(MIRROR, HF_MIRROR, token=_token(pref, token_source))]
    if pref.kind == MODELSCOPE:
        return [ModelScopeSource()]
    hub = HubSource(hub_endpoint(), HF, token=_token(pref, token_source))
    if pref.kind == HF:
        return [hub]
    mirror = [HubSource(MIRROR, HF_MIRROR)] if hub.endpoint != MIRROR else []
    automatic: list[Source] = [hub, *mirror, ModelScopeSource()]
    last = remembered()
    return sorted(automatic, key=lambda source: source.kind != last)  # the one that worked last time first


def remembered() -> str | None:
    """The kind of source that delivered this user's last download; None when none is remembered."""
    try:
        data = json.loads((paths.user_data_dir() / MEMORY_FILE).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, ValueError):
        return None
    kind = data.get("source") if isinstance(data, dict) else None
    return kind if kind in (HF, HF_MIRROR, MODELSCOPE) else None


def remember(kind: str) -> None:
    """Remember the source that delivered a download, for the automatic order's next one."""
    if kind not in (HF, HF_MIRROR, MODELSCOPE) or kind == remembered():
        return
    try:
        paths.user_data_dir().mkdir(parents=True, exist_ok=True)
        atomic_write_text(paths.user_data_dir() / MEMORY_FILE, json.dumps({"source": kind}) + "\n")
    except OSError as exc:  # a download that worked does not fail for it
        log.warning("the download source that worked cannot be remembered: %s", exc)


def for_entry(
    entry: CatalogEntry, pref: Preference, token_source: Callable[[], str | None] = implicit_token
) -> list[Origin]:
    """Where a catalog recipe's repository is, at each source to try; sources it names no repository at are
    left out (a recipe with no ModelScope copy is not looked for there)."""
    origins = []
    for source in sources(pref, token_source):
        repository = entry.modelscope if source.kind == MODELSCOPE else entry.huggingface
        if repository is not None:
            origins.append(Origin(source, repository.repo, repository.revision))
    return origins


def for_repo(
    repo_id: str,
    revision: str | None,
    pref: Preference,
    token_source: Callable[[], str | None] = implicit_token,
) -> list[Origin]:
    """`fanyi models get REPO_ID`: the same id at every source, at `revision` or each source's latest."""
    return [Origin(s, repo_id, revision or s.default_revision) for s in sources(pref, token_source)]
