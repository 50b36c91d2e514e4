"""Refreshing the pack catalog from the network (library.catalog itself never connects).

The catalog URLs are tried in order: ``FANYI_CATALOG_URL`` when set, then a URL the user set, then
the current copy's own ``catalog_urls`` (where the release that made it publishes newer ones). The app
ships a catalog of recipes, which needs no refresh to download any of its packs; a refresh brings
newer versions and the release pipeline's hashes where a catalog is published. The catalog is what the
app trusts an archive's sha256 from, so only HTTPS is accepted, except for http to this computer
(loopback: tests, a local mirror) and a URL the user set explicitly (env or setting). A fetched copy
replaces the cached one only when its serial is at least the current copy's: a stale mirror of the
catalog cannot roll the list back.
"""

from __future__ import annotations

import logging
import os
from urllib.parse import urlsplit

from .. import limits
from ..hosts import is_loopback
from . import catalog
from .catalog import Catalog, CatalogError
from .download import fetch_bytes, unreachable_message
from .errors import DownloadError

log = logging.getLogger(__name__)
ENV_URL = "FANYI_CATALOG_URL"


def trusted(url: str, explicit: bool) -> bool:
    scheme = urlsplit(url).scheme
    return scheme == "https" or (scheme == "http" and (explicit or is_loopback(urlsplit(url).hostname or "")))


def catalog_urls(current: Catalog | None, user_url: str | None = None) -> list[str]:
    """The URLs to try, in order, without repeats or untrusted ones."""
    explicit = [u for u in (os.environ.get(ENV_URL), user_url) if u]
    implicit = list(current.catalog_urls if current else ())
    urls = [u for u in explicit if trusted(u, True)] + [u for u in implicit if trusted(u, False)]
    for url in set(explicit + implicit) - set(urls):
        log.warning("ignoring the catalog URL %s: only https (or http to this computer) is trusted", url)
    return list(dict.fromkeys(urls))


def refresh(
    current: Catalog | None = None, *, user_url: str | None = None, timeout: float = limits.CATALOG_TIMEOUT_S
) -> Catalog:
    """Fetch the newest catalog, save it as the cached copy and return it.

    Returns `current` when the servers only have older copies; DownloadError (one line) when no
    catalog URL gave a usable catalog.
    """
    urls = catalog_urls(current, user_url)
    problems: list[DownloadError | CatalogError] = []
    older_seen = False
    for url in urls:
        try:
            fresh = catalog.parse(fetch_bytes(url, limits.MAX_CATALOG_BYTES, timeout), url)
        except (DownloadError, CatalogError) as exc:
            problems.append(exc)
            continue
        if current is not None and fresh.serial < current.serial:
            log.info("%s has catalog %d, older than the current %d", url, fresh.serial, current.serial)
            older_seen = True
            continue
        catalog.save(fresh, catalog.cached_path())
        return fresh
    if older_seen:
        assert current is not None  # only a current catalog is newer than what a server has
        return current
    if problems and all(isinstance(p, DownloadError) and p.unreachable for p in problems):
        raise DownloadError(unreachable_message(urls), unreachable=True)
    reasons = "; ".join(dict.fromkeys(str(p) for p in problems)) or "no trusted catalog address"
    raise DownloadError(f"cannot get the list of packs: {reasons}")
