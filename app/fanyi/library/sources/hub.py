"""The Hugging Face Hub and every server that speaks its API (hf-mirror.com, a company's mirror), through
huggingface_hub's own client.

A repository's files at a revision come from ``HfApi.model_info(files_metadata=True)`` (``GET
/api/models/{repo}/revision/{revision}?blobs=true``): the commit the revision resolves to, every file's
size, the sha256 of the large (LFS) files and the git blob id of the small ones. Each file is then asked
for as ``hf_hub_download`` asks for it: ``get_hf_file_metadata`` sends ``HEAD {endpoint}/{repo}/resolve/
{commit}/{file}`` (following a renamed repository's relative redirects, not the CDN's), which answers with
the commit (``X-Repo-Commit``, which must be the listed one), the size and sha256 of a large file
(``X-Linked-Size``, ``X-Linked-Etag``) and, for a large file, the CDN address it redirects to
(``Location``). The bytes come from that address, else from the resolve URL itself (library.download:
resume with Range, redirects followed, sha256 checked as they arrive). Files in Hugging Face's Xet storage
are served over plain HTTP too (the Hub's bridge), so the hf_xet client is never needed.

The endpoint is ``HF_ENDPOINT`` when set (read at each call, not when huggingface_hub was imported), else
huggingface.co. The token is the one given (the app's setting), else huggingface_hub's own (``HF_TOKEN``,
then ``huggingface-cli login``'s file); it is sent to that endpoint only — never to the CDN, and to
hf-mirror.com only when the user chose that source (``order`` decides). huggingface_hub's requests go
through the operating system's certificates (truststore), like every other download of Fanyi's.

Many models (the OPUS-MT ones among them) have only pickled PyTorch weights in their own commits, which
Fanyi never opens; the Hub's conversion bot offers their safetensors as a pull request on the commit it
converted. Where the revision asked for has pickled weights only, that pull request is used, as transformers
finds it (safetensors_conversion.previous_pr): a pull request titled as the bot titles them, opened by the
bot, whose one commit sits directly on the revision's commit — so its weights are that commit's, converted.
"""

from __future__ import annotations

import functools
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any
from urllib.parse import urlsplit

from ... import limits
from ...export.checkpoint_files import pickled_only
from ..download import tls_context
from ..errors import AccessDenied, DownloadError, NotFound
from . import Address, Credentials, Listing, RemoteFile

log = logging.getLogger(__name__)

HUB = "https://huggingface.co"
MIRROR = "https://hf-mirror.com"
# who opens the Hub's safetensors conversions, and how it titles them (transformers' safetensors_conversion.py)
CONVERSION_BOT = "SFconvertbot"
CONVERSION_TITLE = "Adding `safetensors` variant of this model"


def hub_endpoint() -> str:
    """The Hub's address: HF_ENDPOINT when set (a mirror, a company's server), else huggingface.co."""
    return (os.environ.get("HF_ENDPOINT") or HUB).rstrip("/")


def implicit_token() -> str | None:
    """huggingface_hub's own token: HF_TOKEN, else the file `huggingface-cli login` wrote."""
    from huggingface_hub import get_token

    return get_token()


@functools.cache
def _use_system_certificates() -> None:
    """huggingface_hub's requests check certificates against the operating system's store, as library.download
    does (a company's inspecting proxy, the frozen app); the factory is huggingface_hub's documented hook."""
    import requests  # noqa: PLC0415 - huggingface_hub's HTTP library, loaded with it
    from huggingface_hub import configure_http_backend

    class Bounded(requests.adapters.HTTPAdapter):
        """No request waits forever: huggingface_hub's listing calls (discussions, commits) take no timeout."""

        def send(
            self,
            request: requests.PreparedRequest,
            stream: bool = False,
            timeout: float | tuple[float | None, float | None] | None = None,
            verify: bool | str = True,
            cert: str | tuple[str, str] | None = None,
            proxies: dict[str, str] | None = None,
        ) -> requests.Response:
            bounded = limits.SOURCE_LIST_TIMEOUT_S if timeout is None else timeout
            return super().send(request, stream, bounded, verify, cert, proxies)

    class SystemTrust(Bounded):
        def init_poolmanager(self, *args: Any, **kwargs: Any) -> None:
            kwargs["ssl_context"] = tls_context()
            super().init_poolmanager(*args, **kwargs)

        def proxy_manager_for(self, *args: Any, **kwargs: Any) -> Any:
            kwargs["ssl_context"] = tls_context()
            return super().proxy_manager_for(*args, **kwargs)

    def session() -> requests.Session:
        s = requests.Session()
        s.mount("https://", SystemTrust())
        s.mount("http://", Bounded())
        return s

    configure_http_backend(backend_factory=session)


class HubSource:
    """One server of the Hub's API. `token` is sent to it with every request (None: none, not even
    huggingface_hub's implicit one)."""

    default_revision = "main"

    def __init__(self, endpoint: str, kind: str, label: str | None = None, token: str | None = None) -> None:
        self.endpoint, self.kind = endpoint.rstrip("/"), kind
        self.label = label or urlsplit(self.endpoint).netloc or self.endpoint
        self.token = token or None

    def __repr__(self) -> str:  # never the token
        return f"HubSource({self.endpoint!r}, {self.kind!r})"

    def page(self, repo_id: str) -> str:
        return f"{self.endpoint}/{repo_id}"

    def listing(self, repo_id: str, revision: str, timeout: float) -> Listing:
        listing = self._listing(repo_id, revision, timeout)
        if not pickled_only(listing.files.keys()):
            return listing
        assert listing.commit is not None  # _listing always names it
        pull = self._safetensors_conversion(repo_id, listing.commit)
        if pull is None:
            return listing  # refused by the converter's file list, in its words
        log.info(
            "%s: %s at %s has pickled weights only; taking the Hub's safetensors conversion of it, %s",
            self.label,
            repo_id,
            revision,
            pull,
        )
        return self._listing(repo_id, pull, timeout)

    def _api(self) -> Any:
        from huggingface_hub import HfApi

        return HfApi(endpoint=self.endpoint, token=self.token or False)

    def _listing(self, repo_id: str, revision: str, timeout: float) -> Listing:
        with self._errors(repo_id, revision):
            info = self._api().model_info(repo_id, revision=revision, files_metadata=True, timeout=timeout)
        if not info.sha:
            raise DownloadError(
                f"{self.label} names no commit for {repo_id} at {revision}: it does not answer as the Hub"
            )
        files = {}
        for sibling in info.siblings or ():
            if "/" in sibling.rfilename or sibling.size is None:
                continue  # the converter reads top-level files only
            lfs = sibling.lfs
            files[sibling.rfilename] = RemoteFile(
                sibling.rfilename,
                int(sibling.size),
                sha256=lfs.sha256 if lfs is not None else None,
                git_blob=None if lfs is not None else sibling.blob_id,
            )
        return Listing(repo_id, revision, info.sha, files, gated=bool(info.gated))

    def _safetensors_conversion(self, repo_id: str, commit: str) -> str | None:
        """The ref (refs/pr/N) of the bot's safetensors conversion of `commit`, None when there is none or the
        source does not say (a mirror that does not serve discussions)."""
        api = self._api()
        try:
            with self._errors(repo_id, commit):
                for pull in api.get_repo_discussions(repo_id, author=CONVERSION_BOT, discussion_type="pull_request"):
                    if not (pull.is_pull_request and pull.author == CONVERSION_BOT and pull.title == CONVERSION_TITLE):
                        continue  # the filter is the Hub's to apply; nobody else's pull request is taken
                    commits = api.list_repo_commits(repo_id, revision=pull.git_reference)
                    if len(commits) > 1 and commits[1].commit_id == commit:
                        return str(pull.git_reference)
        except DownloadError as exc:
            log.info("%s: no safetensors conversion of %s found (%s)", self.label, repo_id, exc)
        return None

    def address(self, listing: Listing, name: str, timeout: float) -> Address:
        from huggingface_hub import get_hf_file_metadata, hf_hub_url

        assert listing.commit is not None  # listing() always names it
        url = hf_hub_url(listing.repo_id, name, revision=listing.commit, endpoint=self.endpoint)
        with self._errors(listing.repo_id, listing.commit, name):
            meta = get_hf_file_metadata(url, token=self.token or False, timeout=timeout, endpoint=self.endpoint)
        if meta.commit_hash != listing.commit:
            raise DownloadError(
                f"{self.label} serves {name} of {listing.repo_id} from commit {meta.commit_hash}, "
                f"not {listing.commit}: it does not answer as the Hub"
            )
        # as hf_hub_download: the CDN address saves a redirect; the resolve URL is asked again when it fails
        # (a CDN address expires), and a file in Xet storage is always fetched through the resolve URL
        urls = (meta.location, url) if meta.xet_file_data is None and meta.location != url else (url,)
        credentials = (
            Credentials(urlsplit(self.endpoint).netloc, {"Authorization": f"Bearer {self.token}"})
            if self.token
            else None
        )
        return Address(urls, credentials)

    @contextmanager
    def _errors(self, repo_id: str, revision: str, name: str | None = None) -> Iterator[None]:
        """huggingface_hub's exceptions as one line that says what to do."""
        import requests  # noqa: PLC0415
        from huggingface_hub import errors

        if os.environ.get("HF_HUB_OFFLINE", "").upper() in ("1", "ON", "YES", "TRUE"):  # as huggingface_hub reads it
            raise DownloadError(f"HF_HUB_OFFLINE is set: {self.label} is not asked (unset it to download)")
        _use_system_certificates()
        where = f"{repo_id} at {revision}" if name is None else f"{name} of {repo_id} at {revision}"
        try:
            yield
        except errors.GatedRepoError:
            raise self._gated(repo_id) from None
        except errors.RepositoryNotFoundError:
            hint = "" if self.token else " (or it is private, and a token would show it)"
            raise NotFound(f"{self.label} has no repository {repo_id}{hint}") from None
        except errors.RevisionNotFoundError:
            raise NotFound(f"{self.label} has no revision {revision} of {repo_id}") from None
        except errors.EntryNotFoundError:
            raise NotFound(f"{self.label} has no {name} in {repo_id} at {revision}") from None
        except errors.HfHubHTTPError as exc:
            status = exc.response.status_code if exc.response is not None else None
            if status in (401, 403):
                raise self._gated(repo_id) from None
            raise DownloadError(f"{self.label} answered HTTP {status} for {where}", status=status) from None
        except requests.exceptions.SSLError:
            raise DownloadError(
                f"{self.label}: the secure connection failed (its certificate is not trusted)"
            ) from None
        except (requests.exceptions.ConnectionError, requests.exceptions.Timeout):
            raise DownloadError(f"{self.label} cannot be reached", unreachable=True) from None
        except (requests.exceptions.RequestException, ValueError) as exc:  # a body that is not the Hub's JSON
            raise DownloadError(f"{self.label} does not answer as the Hub for {where} ({type(exc).__name__})") from None

    def _gated(self, repo_id: str) -> AccessDenied:
        page = self.page(repo_id)
        if self.token:
            what = f"{self.label} refuses the token for {repo_id}: accept its licence at {page} with that account"
        else:
            what = (
                f"{repo_id} is gated on {self.label}: accept its licence at {page}, then set a Hugging Face "
                "access token in Settings → Downloads (or HF_TOKEN)"
            )
        return AccessDenied(what, page, token_sent=bool(self.token))
