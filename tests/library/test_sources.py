"""Models from where their authors publish them (fanyi.library.sources, fanyi.library.from_source), against a Hub
and a ModelScope on 127.0.0.1: listing at a revision, what is downloaded, verification, resume, gated
repositories, the automatic order, and the conversion's failures (a full disk, a cancel) leaving nothing."""

from __future__ import annotations

import errno
import json
import shutil
import threading
import time
from pathlib import Path

import pytest
from fakesources import Fault
from packserver import closed_port_url

from fanyi import paths
from fanyi.cancel import Cancelled, CancelToken
from fanyi.library import installed
from fanyi.library.catalog import Pin
from fanyi.library.download import Timeouts
from fanyi.library.errors import AccessDenied, DiskSpaceError, DownloadError, NotFound
from fanyi.library.from_source import Recipe, make_pack
from fanyi.library.sources import order
from fanyi.library.sources.fetch import fetch_repository, git_blob_id
from fanyi.library.sources.hub import HubSource
from fanyi.library.sources.modelscope import ModelScopeSource
from fanyi.library.sources.order import Origin, Preference

REPO = "Helsinki-NLP/opus-mt-en-zh"
# A test that stalls a server gives the client STALLS, so that the stall is left in seconds; every other test the
# real timeouts: a timeout a busy machine can trip (half a second between two reads) must not decide a test whose
# server is sending
STALLS = Timeouts(connect=5, read=2)


def fetch(origins, folder, **kwargs):
    kwargs.setdefault("retry_delay", 0)
    return fetch_repository(origins, folder, **kwargs)


def at(hub, revision="main", token=None, repo=REPO) -> Origin:
    return Origin(HubSource(hub.endpoint, "url", token=token), repo, revision)


def with_extras(tiny_hf_en_zh: Path, tmp_path: Path) -> Path:
    """The tiny model as a real repository has it: a model card and pickled weights beside the safetensors."""
    folder = tmp_path / "repo"
    shutil.copytree(tiny_hf_en_zh, folder)
    (folder / "README.md").write_text("---\nlicense: apache-2.0\n---\n", encoding="utf-8")
    (folder / "pytorch_model.bin").write_bytes(b"not unpickled, never downloaded")
    return folder


# --- the Hub's protocol --------------------------------------------------------------------------
def test_the_stand_in_hub_is_the_hub_to_huggingface_hubs_own_download(hub, tiny_hf_en_zh, tmp_path, monkeypatch):
    """The real client, hf_hub_download, gets every file exactly: the fake speaks what it asks."""
    from huggingface_hub import constants, hf_hub_download

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)  # read when the tests' environment said offline

    hub.add(REPO, tiny_hf_en_zh)
    for name in ("config.json", "model.safetensors", "source.spm"):
        got = hf_hub_download(REPO, name, endpoint=hub.endpoint, cache_dir=tmp_path / "hf", token=False)
        assert Path(got).read_bytes() == (tiny_hf_en_zh / name).read_bytes()


def test_only_what_the_converter_reads_is_downloaded_and_verified(hub, tiny_hf_en_zh, tmp_path):
    repo = hub.add(REPO, with_extras(tiny_hf_en_zh, tmp_path))
    got = fetch([at(hub)], tmp_path / "out")
    assert got.listing.commit == repo.commit and got.revision == repo.commit
    assert set(got.files) == {p.name for p in tiny_hf_en_zh.iterdir()}  # no README.md, no pytorch_model.bin
    for name in got.files:
        assert (tmp_path / "out" / name).read_bytes() == (tiny_hf_en_zh / name).read_bytes()
    # every file asked for at the listed commit, the large ones from the CDN address the Hub gave
    resolved = {p for m, p, _h in hub.requests if "/resolve/" in p}
    assert all(f"/resolve/{repo.commit}/" in p for p in resolved)
    assert any(p.startswith("/cdn/") for _m, p, _h in hub.requests)
    # the Hub's numbers for the small files are their git blob ids: checked
    listing = got.listing
    assert listing.files["config.json"].sha256 is None and listing.files["model.safetensors"].sha256
    assert git_blob_id(tmp_path / "out" / "config.json") == listing.files["config.json"].git_blob
    # a second call finds everything verified and asks for the list only
    hub.requests.clear()
    fetch([at(hub)], tmp_path / "out")
    assert [p for _m, p, _h in hub.requests] == [f"/api/models/{REPO}/revision/main"]


def test_a_file_in_xet_storage_comes_over_plain_http_without_the_xet_client(hub, tiny_hf_en_zh, tmp_path, monkeypatch):
    """Where the Hub says a file is in Xet storage (X-Xet-Hash), it is asked for at its resolve address, as
    hf_hub_download does without hf_xet, and the Hub's redirect is followed: the Xet client is never needed."""
    from huggingface_hub import file_download
    from huggingface_hub.utils import XetFileData

    def xet(response, endpoint=None):
        large = response.headers.get("X-Linked-Etag")
        return XetFileData(file_hash="x" * 64, refresh_route="/api/xet") if large else None

    monkeypatch.setattr(file_download, "parse_xet_file_data_from_response", xet)
    hub.add(REPO, tiny_hf_en_zh)
    commit = hub.repos[REPO].commit
    fetch([at(hub)], tmp_path / "out")
    gets = [p for m, p, _h in hub.requests if m == "GET" and not p.startswith("/api/")]
    weights = gets.index(f"/{REPO}/resolve/{commit}/model.safetensors")
    assert gets[weights + 1].startswith("/cdn/")  # the redirect, followed
    assert (tmp_path / "out" / "model.safetensors").read_bytes() == (tiny_hf_en_zh / "model.safetensors").read_bytes()


def test_a_repository_of_pickled_weights_only_is_refused_before_anything_is_downloaded(hub, tiny_hf_en_zh, tmp_path):
    folder = with_extras(tiny_hf_en_zh, tmp_path)
    (folder / "model.safetensors").unlink()
    hub.add(REPO, folder)
    with pytest.raises(NotFound, match="only pickled PyTorch weights"):
        fetch([at(hub)], tmp_path / "out")
    assert not any(p.startswith(("/cdn/", f"/{REPO}/resolve")) for _m, p, _h in hub.requests)


def pickled_repo(hub, tiny_hf_en_zh: Path, tmp_path: Path):
    """A repository as many OPUS-MT ones are: pickled weights in its own commit, and the Hub's conversion bot's
    pull request on that commit adding model.safetensors. Returns the repository and the converted folder."""
    converted = with_extras(tiny_hf_en_zh, tmp_path)
    own = tmp_path / "own"
    shutil.copytree(converted, own)
    (own / "model.safetensors").unlink()
    return hub.add(REPO, own), converted


def test_pickled_weights_come_from_the_hubs_safetensors_conversion_of_that_very_commit(hub, tiny_hf_en_zh, tmp_path):
    repo, converted = pickled_repo(hub, tiny_hf_en_zh, tmp_path)
    hub.open_pull_request(REPO, converted, title="Adding `safetensors` variant of this model", author="someone")
    pull = hub.open_pull_request(
        REPO, converted, title="Adding `safetensors` variant of this model", author="SFconvertbot"
    )
    got = fetch([at(hub, revision=repo.commit)], tmp_path / "out")
    assert got.listing.revision == f"refs/pr/{pull.num}" and got.revision == pull.commit
    assert set(got.files) == {p.name for p in tiny_hf_en_zh.iterdir()}  # the weights, never pytorch_model.bin
    weights = (tmp_path / "out" / "model.safetensors").read_bytes()
    assert weights == (tiny_hf_en_zh / "model.safetensors").read_bytes()
    asked = [p for _m, p, _h in hub.requests]
    assert f"/api/models/{REPO}/discussions" in asked
    assert f"/api/models/{REPO}/commits/refs%2Fpr%2F{pull.num}" in asked  # its parent checked
    assert not any("pytorch_model.bin" in p for p in asked)


@pytest.mark.parametrize("whose", ["another author", "an older commit", "another title"])
def test_no_other_pull_request_stands_in_for_the_pickled_weights(whose, hub, tiny_hf_en_zh, tmp_path):
    """Only the bot's conversion of the very commit asked for: not someone else's weights under its title, not a
    conversion of an older commit (other weights), not another pull request of the bot's."""
    repo, converted = pickled_repo(hub, tiny_hf_en_zh, tmp_path)
    older = hub.open_pull_request(REPO, converted, title="an older commit's files", author="someone").commit
    title = "another title" if whose == "another title" else "Adding `safetensors` variant of this model"
    author = "someone" if whose == "another author" else "SFconvertbot"
    hub.open_pull_request(REPO, converted, title=title, author=author, on=older if whose == "an older commit" else None)
    with pytest.raises(NotFound, match="only pickled PyTorch weights"):
        fetch([at(hub, revision=repo.commit)], tmp_path / "out")
    assert not any(p.startswith("/cdn/") for _m, p, _h in hub.requests)


def test_a_mirror_without_discussions_refuses_pickled_weights_in_one_line(hub, tiny_hf_en_zh, tmp_path, monkeypatch):
    from fanyi.library.sources.localhub import _Handler

    pickled_repo(hub, tiny_hf_en_zh, tmp_path)
    monkeypatch.setattr(_Handler, "_discussions", lambda self, repo_id, query: self._error(404, "", "Not Found"))
    with pytest.raises(NotFound, match="only pickled PyTorch weights"):
        fetch([at(hub)], tmp_path / "out")


def test_the_tokenizer_licence_and_every_shard_of_a_big_model_come(hub, tmp_path):
    """What a sharded LLM repository gives: its index is read to name the shards; a shard it lacks is refused."""
    shards = ["model-00001-of-00002.safetensors", "model-00002-of-00002.safetensors"]
    folder = tmp_path / "qwen"
    folder.mkdir()
    files = {
        "config.json": "{}",
        "tokenizer.json": "{}",
        "tokenizer_config.json": "{}",
        "LICENSE": "Apache",
        "README.md": "card",
        "merges.txt": "",
        "model.safetensors.index.json": json.dumps({"weight_map": {"a": shards[0], "b": shards[1], "c": shards[1]}}),
        **dict.fromkeys(shards, "weights"),
    }
    for name, text in files.items():
        (folder / name).write_text(text, encoding="utf-8")
    hub.add("Qwen/Qwen3-1.7B", folder)
    got = fetch([at(hub, repo="Qwen/Qwen3-1.7B")], tmp_path / "out")
    assert sorted(got.files) == sorted(
        ["config.json", "tokenizer.json", "tokenizer_config.json", "LICENSE", "model.safetensors.index.json", *shards]
    )
    (folder / shards[1]).unlink()
    hub.add("Qwen/Qwen3-1.7B", folder)
    with pytest.raises(NotFound, match="names 'model-00002-of-00002.safetensors', which the repository does not"):
        fetch([at(hub, repo="Qwen/Qwen3-1.7B")], tmp_path / "again")


# --- what a source says no with ------------------------------------------------------------------
def test_a_missing_repository_revision_or_file_is_said_in_one_line(hub, tiny_hf_en_zh, tmp_path):
    hub.add(REPO, tiny_hf_en_zh)
    with pytest.raises(NotFound, match="has no repository Org/nothing \\(or it is private"):
        fetch([at(hub, repo="Org/nothing")], tmp_path / "a")
    with pytest.raises(NotFound, match=f"has no revision v9 of {REPO}"):
        fetch([at(hub, revision="v9")], tmp_path / "b")
    listing = HubSource(hub.endpoint, "url").listing(REPO, "main", 5)
    with pytest.raises(NotFound, match=f"has no absent.json in {REPO}"):
        HubSource(hub.endpoint, "url").address(listing, "absent.json", 5)


def test_a_gated_repository_says_where_to_accept_the_licence_and_a_token_opens_it(hub, tiny_hf_en_zh, tmp_path):
    hub.add(REPO, tiny_hf_en_zh, gated=True)
    with pytest.raises(AccessDenied) as denied:
        fetch([at(hub)], tmp_path / "out")
    message = str(denied.value)
    assert message.startswith(f"{REPO} is gated on 127.0.0.1:") and "\n" not in message
    assert f"accept its licence at {hub.endpoint}/{REPO}" in message and "Settings → Downloads (or HF_TOKEN)" in message
    assert denied.value.page == f"{hub.endpoint}/{REPO}" and not denied.value.token_sent
    got = fetch([at(hub, token="hf_abc")], tmp_path / "out")
    assert (tmp_path / "out" / "model.safetensors").read_bytes() == (tiny_hf_en_zh / "model.safetensors").read_bytes()
    assert got.files


def test_the_token_goes_to_the_hub_only_never_to_the_cdn_it_redirects_to(hub, tiny_hf_en_zh, tmp_path):
    hub.add(REPO, tiny_hf_en_zh)
    hub.cdn = hub.endpoint.replace("127.0.0.1", "localhost")  # the CDN is another host
    fetch([at(hub, token="hf_abc")], tmp_path / "out")
    by_path = [(p, h.get("authorization")) for _m, p, h in hub.requests]
    assert all(auth == "Bearer hf_abc" for p, auth in by_path if not p.startswith("/cdn/"))
    assert [auth for p, auth in by_path if p.startswith("/cdn/")] == [None, None, None]  # the spm models, weights


def test_the_implicit_token_is_not_sent_where_the_user_did_not_choose(hub, tiny_hf_en_zh, tmp_path, monkeypatch):
    """HF_TOKEN goes to the Hub's address; the automatic order's hf-mirror.com and ModelScope never get it."""
    monkeypatch.setenv("HF_TOKEN", "hf_env")
    monkeypatch.setenv("HF_ENDPOINT", "https://hub.example.org/")
    found = order.sources(Preference())
    assert [(s.kind, getattr(s, "token", None)) for s in found] == [
        ("hf", "hf_env"),
        ("hf-mirror", None),
        ("modelscope", None),
    ]
    assert found[0].endpoint == "https://hub.example.org" and found[1].endpoint == "https://hf-mirror.com"
    chosen = order.sources(Preference("hf-mirror", token="hf_setting"))
    assert [(s.kind, s.token) for s in chosen] == [("hf-mirror", "hf_setting")]
    assert "hf_setting" not in repr(chosen) and "hf_setting" not in repr(Preference("hf", token="hf_setting"))


# --- bytes that do not arrive as they should --------------------------------------------------------
def test_a_truncated_answer_is_resumed_with_range(hub, tiny_hf_en_zh, tmp_path):
    hub.add(REPO, tiny_hf_en_zh)
    size = (tiny_hf_en_zh / "model.safetensors").stat().st_size
    hub.faults["model.safetensors"] = Fault(close_after=size // 3)
    fetch([at(hub)], tmp_path / "out")
    assert (tmp_path / "out" / "model.safetensors").read_bytes() == (tiny_hf_en_zh / "model.safetensors").read_bytes()
    ranges = [h.get("range") for _m, p, h in hub.requests if p.startswith("/cdn/") and h.get("range")]
    assert ranges == [f"bytes={size // 3}-"]


def test_a_file_truncated_every_time_fails_and_the_part_is_kept_for_the_next_try(hub, tiny_hf_en_zh, tmp_path):
    hub.add(REPO, tiny_hf_en_zh)
    size = (tiny_hf_en_zh / "model.safetensors").stat().st_size
    hub.faults["model.safetensors"] = Fault(close_after=1000, times=100)
    with pytest.raises(DownloadError, match="the connection closed early"):
        fetch([at(hub)], tmp_path / "out")
    part = tmp_path / "out" / "model.safetensors.part"
    assert part.stat().st_size == 1000 and not (tmp_path / "out" / "model.safetensors").exists()
    hub.faults.clear()
    hub.requests.clear()
    fetch([at(hub)], tmp_path / "out")
    assert [h.get("range") for _m, p, h in hub.requests if p.startswith("/cdn/")] == ["bytes=1000-"]
    assert (tmp_path / "out" / "model.safetensors").stat().st_size == size


def test_other_bytes_than_the_listing_states_are_deleted(hub, tiny_hf_en_zh, tmp_path):
    hub.add(REPO, tiny_hf_en_zh)
    hub.faults["model.safetensors"] = Fault(wrong_bytes=True, times=100)
    with pytest.raises(DownloadError, match="sha256 does not match 127.0.0.1:[0-9]+'s; it was deleted"):
        fetch([at(hub)], tmp_path / "out")
    assert not list((tmp_path / "out").glob("model.safetensors*"))
    hub.faults["vocab.json"] = Fault(wrong_bytes=True, times=100)  # a small file: its git blob id
    hub.faults.pop("model.safetensors")
    with pytest.raises(DownloadError, match="vocab.json is not the file the repository lists \\(git blob id\\)"):
        fetch([at(hub)], tmp_path / "fresh")
    assert not (tmp_path / "fresh" / "vocab.json").exists()


def test_a_pinned_sha256_is_what_decides_and_a_source_with_another_file_is_refused(hub, tiny_hf_en_zh, tmp_path):
    hub.add(REPO, tiny_hf_en_zh)
    weights = (tiny_hf_en_zh / "model.safetensors").stat().st_size
    # the source states another sha256 (or size) than the recipe pins: refused before it is downloaded
    with pytest.raises(DownloadError, match="model.safetensors is not the file the recipe pins"):
        fetch([at(hub)], tmp_path / "a", pins={"model.safetensors": Pin(weights, "0" * 64)})
    with pytest.raises(DownloadError, match="config.json is not the file the recipe pins"):
        fetch([at(hub)], tmp_path / "b", pins={"config.json": Pin(1)})
    assert not any(p.startswith("/cdn/") for _m, p, _h in hub.requests)
    # a small file the Hub states no sha256 of is checked against the pin as it arrives
    size = (tiny_hf_en_zh / "config.json").stat().st_size
    with pytest.raises(
        DownloadError, match="config.json: .*: the file's sha256 does not match the recipe's; it was deleted"
    ):
        fetch([at(hub)], tmp_path / "c", pins={"config.json": Pin(size, "0" * 64)})
    assert not (tmp_path / "c" / "config.json").exists()


def test_a_stall_is_left_after_the_read_timeout_and_resumed(hub, tiny_hf_en_zh, tmp_path):
    hub.add(REPO, tiny_hf_en_zh)
    hub.faults["model.safetensors"] = Fault(stall_after=5000)
    started = time.monotonic()
    fetch([at(hub)], tmp_path / "out", timeouts=STALLS)
    assert time.monotonic() - started < 15
    ranges = [h.get("range") for _m, p, h in hub.requests if p.startswith("/cdn/") and h.get("range")]
    assert ranges == ["bytes=5000-"]
    assert (tmp_path / "out" / "model.safetensors").read_bytes() == (tiny_hf_en_zh / "model.safetensors").read_bytes()


def test_progress_counts_the_bytes_of_every_file_with_speed_and_time_left(hub, tiny_hf_en_zh, tmp_path):
    hub.add(REPO, tiny_hf_en_zh)
    seen = []
    got = fetch([at(hub)], tmp_path / "out", progress=seen.append)
    total = sum(got.listing.files[n].size for n in got.files)
    assert seen[0].phase == "connecting" and seen[0].detail.startswith("127.0.0.1:")
    downloading = [p for p in seen if p.phase == "downloading"]
    assert {p.total for p in downloading} == {total} and downloading[-1].done == total
    assert [p.done for p in downloading] == sorted(p.done for p in downloading)
    assert {p.detail for p in downloading} == set(got.files)


# --- ModelScope ------------------------------------------------------------------------------------
def test_modelscope_lists_a_branch_and_its_files_are_checked_against_its_sha256(modelscope, tiny_hf_en_zh, tmp_path):
    modelscope.add("Tencent-Hunyuan/tiny", tiny_hf_en_zh)
    source = ModelScopeSource()
    assert source.endpoint == modelscope.endpoint  # MODELSCOPE_DOMAIN, as the SDK reads it
    got = fetch([Origin(source, "Tencent-Hunyuan/tiny", "master")], tmp_path / "out")
    assert got.listing.commit is None and got.revision == "master"
    assert all((tmp_path / "out" / n).read_bytes() == (tiny_hf_en_zh / n).read_bytes() for n in got.files)
    assert got.listing.files["model.safetensors"].sha256 and "onnx" not in got.listing.files  # a folder: left out
    asked = [q for p, q in modelscope.requests if p.endswith("/repo")]
    assert {q["Revision"][0] for q in asked} == {"master"} and {q["FilePath"][0] for q in asked} == set(got.files)


def test_modelscope_says_when_a_repository_or_a_revision_does_not_exist(modelscope, tiny_hf_en_zh, tmp_path):
    modelscope.add("Tencent-Hunyuan/tiny", tiny_hf_en_zh)
    with pytest.raises(NotFound, match="ModelScope has no repository Tencent-Hunyuan/nothing"):
        fetch([Origin(ModelScopeSource(), "Tencent-Hunyuan/nothing", "master")], tmp_path / "a")
    # ModelScope answers an unknown revision with 200 and no files (its "main" is "master")
    with pytest.raises(NotFound, match="ModelScope has no revision main of Tencent-Hunyuan/tiny"):
        fetch([Origin(ModelScopeSource(), "Tencent-Hunyuan/tiny", "main")], tmp_path / "b")


# --- the automatic order -------------------------------------------------------------------------
def test_the_automatic_order_falls_through_to_the_source_that_answers(
    hub, modelscope, tiny_hf_en_zh, tmp_path, monkeypatch
):
    """huggingface.co does not answer, the mirror has no such repository, ModelScope has it."""
    nowhere = closed_port_url("")
    monkeypatch.setenv("HF_ENDPOINT", nowhere)
    monkeypatch.setattr(order, "MIRROR", hub.endpoint)  # the mirror: a Hub without the repository
    modelscope.add(REPO, tiny_hf_en_zh)
    origins = order.for_repo(REPO, None, Preference(), token_source=lambda: None)
    assert [(o.source.kind, o.revision) for o in origins] == [
        ("hf", "main"),
        ("hf-mirror", "main"),
        ("modelscope", "master"),
    ]
    seen = []
    got = fetch(origins, tmp_path / "out", progress=seen.append)
    assert got.origin.source.kind == "modelscope"
    assert [p.detail for p in seen if p.phase == "connecting"] == [
        nowhere.split("//")[1],
        hub.endpoint.split("//")[1],
        "ModelScope",
    ]


def test_a_source_that_does_not_answer_in_time_is_left_for_the_next(hub, tiny_hf_en_zh, tmp_path):
    """A server that accepts the connection and says nothing (a blocked site behind a firewall) costs the list's
    timeout, not forever."""
    import socket

    silent = socket.socket()
    silent.bind(("127.0.0.1", 0))
    silent.listen(5)
    try:
        hub.add(REPO, tiny_hf_en_zh)
        dead = Origin(HubSource(f"http://127.0.0.1:{silent.getsockname()[1]}", "hf"), REPO, "main")
        started = time.monotonic()
        got = fetch([dead, at(hub)], tmp_path / "out", list_timeout=5.0)  # the hub's list must come within it too
        assert time.monotonic() - started < 30 and got.origin.source.endpoint == hub.endpoint
    finally:
        silent.close()


def test_a_silent_huggingface_co_is_passed_over_quickly_and_the_source_that_worked_goes_first_next_time(
    hub, tiny_hf_en_zh, user_dirs, monkeypatch
):
    """In mainland China the automatic order waited for an unreachable huggingface.co (up to the list's timeout)
    on every download and never remembered which source answered."""
    import socket

    silent = socket.socket()  # accepts connections and says nothing, as a blocked site behind a firewall
    silent.bind(("127.0.0.1", 0))
    silent.listen(5)
    try:
        monkeypatch.setenv("HF_ENDPOINT", f"http://127.0.0.1:{silent.getsockname()[1]}")
        monkeypatch.setattr(order, "MIRROR", hub.endpoint)
        monkeypatch.setenv("MODELSCOPE_DOMAIN", closed_port_url(""))
        hub.add(REPO, tiny_hf_en_zh)
        origins = order.for_repo(REPO, None, Preference(), token_source=lambda: None)
        assert [o.source.kind for o in origins] == ["hf", "hf-mirror", "modelscope"]
        started = time.monotonic()
        seen = []
        got = fetch(origins, user_dirs / "first", list_timeout=60.0, progress=seen.append)
        assert got.origin.source.kind == "hf-mirror"
        assert time.monotonic() - started < 30  # a silent source costs a few seconds, not the list's 60
        # which source is used is said while the files come
        mirror = hub.endpoint.split("//")[1]
        assert {p.source for p in seen if p.phase == "downloading"} == {mirror}
        # remembered, for this user: the next download asks the mirror first
        assert [o.source.kind for o in order.for_repo(REPO, None, Preference())] == ["hf-mirror", "hf", "modelscope"]
        seen.clear()
        fetch(order.for_repo(REPO, None, Preference()), user_dirs / "second", progress=seen.append)
        assert [p.detail for p in seen if p.phase == "connecting"] == [mirror]
        # a source chosen by hand is the only one asked, remembered or not
        assert [o.source.kind for o in order.for_repo(REPO, None, Preference("hf"))] == ["hf"]
    finally:
        silent.close()


def test_a_damaged_memory_of_the_last_source_is_ignored(user_dirs):
    paths.user_data_dir().mkdir(parents=True, exist_ok=True)
    (paths.user_data_dir() / order.MEMORY_FILE).write_text("{not json", encoding="utf-8")
    assert [s.kind for s in order.sources(Preference(), token_source=lambda: None)] == ["hf", "hf-mirror", "modelscope"]


def test_when_no_source_answers_the_error_says_so_and_suggests_the_mirror(tmp_path, monkeypatch):
    monkeypatch.delenv("HF_HUB_OFFLINE", raising=False)
    origins = [Origin(HubSource(closed_port_url(""), "url"), REPO, "main")]
    with pytest.raises(DownloadError) as failure:
        fetch(origins, tmp_path / "out")
    assert failure.value.unreachable and "choose hf-mirror.com or ModelScope" in str(failure.value)


def test_a_gated_hub_with_modelscope_unreachable_still_says_what_to_do(hub, tiny_hf_en_zh, tmp_path, monkeypatch):
    hub.add(REPO, tiny_hf_en_zh, gated=True)
    monkeypatch.setenv("MODELSCOPE_DOMAIN", closed_port_url(""))
    with pytest.raises(AccessDenied, match="is gated on .*ModelScope cannot be reached"):
        fetch([at(hub), Origin(ModelScopeSource(), REPO, "master")], tmp_path / "out")


# --- converting and installing ---------------------------------------------------------------------
def recipe(hub, **changes) -> Recipe:
    return Recipe(**{"name": "opus-mt-en-zh", "origins": [at(hub)], "version": 1, **changes})


def test_a_pack_is_made_installed_and_the_downloads_are_gone(hub, tiny_hf_en_zh, user_dirs):
    hub.add(REPO, tiny_hf_en_zh)
    seen = []
    info = make_pack(recipe(hub), progress=seen.append, retry_delay=0)
    assert (info.name, info.pack_version, info.quantization) == ("opus-mt-en-zh", 1, "int8")  # MarianMT's default
    manifest = json.loads((info.path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["source_model"] == {"id": REPO, "revision": hub.repos[REPO].commit}
    layers = [(p.done, p.total) for p in seen if p.phase == "converting" and p.total]
    assert layers[-1][0] == layers[-1][1] == 4 and (1, 4) in layers  # the tiny model's 2 + 2 layers
    assert [p.phase for p in seen][0] == "connecting" and seen[-1].phase == "installing"
    assert not (paths.downloads_dir() / "sources" / "opus-mt-en-zh@main").exists()
    assert [p.name for p in installed.list_packs()] == ["opus-mt-en-zh"]


def test_the_free_disk_is_checked_for_the_download_and_the_conversion_first(hub, tiny_hf_en_zh, user_dirs, monkeypatch):
    hub.add(REPO, tiny_hf_en_zh)
    needs = []

    def poor(folder, need):
        needs.append(need)
        raise DiskSpaceError(f"not enough disk space on {folder}: need {need}")

    monkeypatch.setattr("fanyi.library.sources.fetch.require_free", poor)
    with pytest.raises(DiskSpaceError):
        make_pack(recipe(hub), retry_delay=0)
    weights = (tiny_hf_en_zh / "model.safetensors").stat().st_size
    assert needs[0] > weights  # the weights still to come, and twice the pack converted from them
    assert not any(p.startswith("/cdn/") and "safetensors" in p for _m, p, _h in hub.requests)
    assert installed.list_packs() == []


def test_a_full_disk_during_the_conversion_is_one_line_and_leaves_nothing(hub, tiny_hf_en_zh, user_dirs, monkeypatch):
    hub.add(REPO, tiny_hf_en_zh)
    import onnx

    def full(*_args, **_kwargs):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(onnx, "save_model", full)
    with pytest.raises(DiskSpaceError, match="not enough disk space on"):
        make_pack(recipe(hub), retry_delay=0)
    sources = paths.downloads_dir() / "sources"
    assert not list(sources.glob(".convert-*")) and installed.list_packs() == []
    assert not paths.user_packs_dir().exists() or not any(paths.user_packs_dir().iterdir())
    # the verified files wait for the next attempt
    assert (sources / "opus-mt-en-zh@main" / "opus-mt-en-zh" / "model.safetensors").is_file()


def test_a_cancel_mid_conversion_leaves_nothing_and_the_next_attempt_downloads_nothing(hub, tiny_hf_en_zh, user_dirs):
    hub.add(REPO, tiny_hf_en_zh)
    token = CancelToken()

    def cancel_at_layer_two(p):
        if p.phase == "converting" and p.done == 2:
            token.cancel()

    with pytest.raises(Cancelled):
        make_pack(recipe(hub), progress=cancel_at_layer_two, cancel=token, retry_delay=0)
    sources = paths.downloads_dir() / "sources"
    assert not list(sources.glob(".convert-*")) and installed.list_packs() == []
    hub.requests.clear()
    make_pack(recipe(hub), retry_delay=0)
    assert not any(p.startswith("/cdn/") for _m, p, _h in hub.requests)  # resumed from what was verified
    assert [p.name for p in installed.list_packs()] == ["opus-mt-en-zh"]


def test_a_cancel_mid_download_keeps_the_part_and_the_next_attempt_resumes(hub, tiny_hf_en_zh, user_dirs):
    hub.add(REPO, tiny_hf_en_zh)
    hub.faults["model.safetensors"] = Fault(stall_after=10_000)
    token = CancelToken()
    part = paths.downloads_dir() / "sources" / "opus-mt-en-zh@main" / "opus-mt-en-zh" / "model.safetensors.part"

    def cancel_when_stalled():
        deadline = time.monotonic() + 30
        while not (part.exists() and part.stat().st_size == 10_000) and time.monotonic() < deadline:
            time.sleep(0.02)
        token.cancel()

    threading.Thread(target=cancel_when_stalled, daemon=True).start()
    with pytest.raises(Cancelled):
        make_pack(recipe(hub), cancel=token, timeouts=Timeouts(connect=5, read=5), retry_delay=0)
    assert part.stat().st_size == 10_000 and installed.list_packs() == []
    make_pack(recipe(hub), retry_delay=0)
    assert [h.get("range") for _m, p, h in hub.requests if p.startswith("/cdn/") and h.get("range")][-1] == (
        "bytes=10000-"
    )


def test_a_converter_that_cannot_be_imported_is_one_line(hub, tiny_hf_en_zh, user_dirs, monkeypatch):
    import builtins

    hub.add(REPO, tiny_hf_en_zh)
    real_import = builtins.__import__

    def no_onnx(name, *args, **kwargs):
        if name == "onnx" or name.startswith("onnx."):
            raise ModuleNotFoundError("No module named 'onnx'", name="onnx")
        return real_import(name, *args, **kwargs)

    monkeypatch.delitem(__import__("sys").modules, "fanyi.export.convert", raising=False)
    monkeypatch.setattr(builtins, "__import__", no_onnx)
    from fanyi.library.errors import LibraryError

    with pytest.raises(LibraryError, match="this installation cannot convert models: onnx is missing"):
        make_pack(recipe(hub), retry_delay=0)
