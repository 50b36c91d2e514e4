"""Importing a pack folder or .zip (fanyi.library.unpack through installed.import_pack): only what the manifest
lists, bounded, no links, all or nothing, and a full disk said in words (issue 11)."""

from __future__ import annotations

import errno
import json
import os
import shutil
import time
import zipfile
from collections import namedtuple

import pytest
from packserver import copy_pack, make_archive

from fanyi import limits, paths
from fanyi.cancel import Cancelled, CancelToken
from fanyi.engine.pack import file_digest
from fanyi.library import installed, unpack
from fanyi.library.errors import DiskSpaceError, LibraryError


def installed_dir_contents() -> list[str]:
    folder = paths.user_packs_dir()
    return sorted(p.name for p in folder.iterdir()) if folder.exists() else []


def test_a_zip_with_the_pack_at_its_top_or_in_one_folder_installs(user_dirs, tiny_pack_int8, tmp_path):
    flat = make_archive(tiny_pack_int8, tmp_path / "flat.zip", "flat-pack", 0, folder=False)
    nested = make_archive(tiny_pack_int8, tmp_path / "nested.zip", "nested-pack", 0)
    assert installed.import_pack(flat).name == "flat-pack"
    assert installed.import_pack(nested).name == "nested-pack"
    assert installed_dir_contents() == ["flat-pack", "nested-pack"]
    with pytest.raises(LibraryError, match="'flat-pack' is already installed"):
        installed.import_pack(flat)


@pytest.mark.parametrize(
    "member, why",
    [
        ("../outside.txt", "would be written outside the pack folder"),
        ("/tmp/absolute.txt", "would be written outside the pack folder"),
        ("C:/Windows/evil.dll", "would be written outside the pack folder"),
        ("pack\\..\\..\\evil.txt", "would be written outside the pack folder"),
        ("opus-mt-en-zh/padding.bin", "holds opus-mt-en-zh/padding.bin, which the pack's manifest does not list"),
    ],
)
def test_a_zip_with_a_bad_member_is_refused_and_writes_nothing(user_dirs, tiny_pack_int8, tmp_path, member, why):
    archive = make_archive(tiny_pack_int8, tmp_path / "evil.zip", "opus-mt-en-zh", 1, extra={member: b"x" * 1000})
    with pytest.raises(LibraryError, match=why.replace("\\", "\\\\")):
        installed.import_pack(archive)
    assert installed_dir_contents() == []
    assert not (tmp_path / "outside.txt").exists() and not (user_dirs / "data" / "outside.txt").exists()


def test_a_padding_member_cannot_fill_the_disk(user_dirs, tiny_pack_int8, tmp_path):
    """The issue's case: a small zip whose unlisted member unpacks to far more than the pack."""
    archive = tmp_path / "padded.zip"
    make_archive(tiny_pack_int8, archive, "padded", 1)
    with (
        zipfile.ZipFile(archive, "a", zipfile.ZIP_DEFLATED) as zf,
        zf.open("padded/padding.bin", "w", force_zip64=True) as member,
    ):
        for _ in range(64):
            member.write(bytes(4 << 20))  # 256 MiB of zeros, ~250 KB compressed
    assert archive.stat().st_size < 2 << 20
    with pytest.raises(LibraryError, match="does not list"):
        installed.import_pack(archive)
    assert installed_dir_contents() == []


def test_a_listed_member_past_the_compression_ratio_is_refused(user_dirs, tiny_pack_int8, tmp_path):
    bomb = copy_pack(tiny_pack_int8, tmp_path / "bomb", "bomb", 1)
    (bomb / "shared.bin").write_bytes(bytes(8 << 20))  # zeros compress ~1000×
    manifest = json.loads((bomb / "manifest.json").read_text())
    manifest["files"]["shared.bin"] = file_digest(bomb / "shared.bin")
    (bomb / "manifest.json").write_text(json.dumps(manifest))
    archive = make_archive(bomb, tmp_path / "bomb.zip", "bomb", 1)
    with pytest.raises(LibraryError, match=f"shared.bin would unpack to more than {limits.MAX_ARCHIVE_RATIO} times"):
        installed.import_pack(archive)
    assert installed_dir_contents() == []


def test_a_symlink_member_is_refused(user_dirs, tiny_pack_int8, tmp_path):
    archive = make_archive(tiny_pack_int8, tmp_path / "link.zip", "link", 1)
    with zipfile.ZipFile(archive, "a") as zf:
        info = zipfile.ZipInfo("link/secret")
        info.external_attr = 0o120777 << 16
        zf.writestr(info, "/etc/passwd")
    with pytest.raises(LibraryError, match="entry 'link/secret' is a symbolic link"):
        installed.import_pack(archive)
    assert installed_dir_contents() == []


def test_a_manifest_listing_a_path_outside_the_pack_is_refused(user_dirs, tiny_pack_int8, tmp_path):
    pack = copy_pack(tiny_pack_int8, tmp_path / "escape", "escape", 1)
    manifest = json.loads((pack / "manifest.json").read_text())
    manifest["files"]["../../.ssh/id_ed25519"] = {"size": 1, "sha256": "0" * 64}
    (pack / "manifest.json").write_text(json.dumps(manifest))
    with pytest.raises(LibraryError, match=r"lists '\.\./\.\./\.ssh/id_ed25519', which is not a plain file name"):
        installed.import_pack(pack)
    assert installed_dir_contents() == []


def test_an_oversized_manifest_is_refused_before_it_is_parsed(user_dirs, tiny_pack_int8, tmp_path, monkeypatch):
    monkeypatch.setattr(limits, "MAX_MANIFEST_BYTES", 100)
    with pytest.raises(LibraryError, match="manifest.json is larger than 100 bytes"):
        installed.import_pack(tiny_pack_int8)
    archive = make_archive(tiny_pack_int8, tmp_path / "p.zip", "p", 1)
    with pytest.raises(LibraryError, match="manifest.json is larger than 100 bytes"):
        installed.import_pack(archive)


@pytest.mark.skipif(not hasattr(os, "symlink") or os.name == "nt", reason="needs symbolic links")
@pytest.mark.parametrize("linked", ["vocab.json", "manifest.json"])
def test_a_folder_whose_files_link_outside_is_refused(user_dirs, tiny_pack_int8, tmp_path, linked):
    """The links point at files with the right content, so only not following links refuses them."""
    pack = copy_pack(tiny_pack_int8, tmp_path / "linked", "linked", 1)
    outside = tmp_path / "elsewhere" / linked
    outside.parent.mkdir()
    shutil.move(pack / linked, outside)
    (pack / linked).symlink_to(outside)
    with pytest.raises(LibraryError, match=f"{linked} is a symbolic link; links are never followed"):
        installed.import_pack(pack)
    assert installed_dir_contents() == []


def test_a_folder_import_copies_only_the_listed_files(user_dirs, tiny_pack_int8, tmp_path):
    pack = copy_pack(tiny_pack_int8, tmp_path / "extra", "extra", 1)
    (pack / "notes.txt").write_text("not part of the pack")
    (pack / "sub").mkdir()
    info = installed.import_pack(pack)
    assert sorted(p.name for p in info.path.iterdir()) == sorted(p.name for p in tiny_pack_int8.iterdir())


def test_not_enough_disk_space_is_said_before_writing(user_dirs, tiny_pack_int8, monkeypatch):
    Usage = namedtuple("Usage", "total used free")
    monkeypatch.setattr("shutil.disk_usage", lambda _p: Usage(10**9, 10**9 - 2048, 2048))
    with pytest.raises(DiskSpaceError, match=r"^not enough disk space on .*models: need [\d.]+ [KM]B, have 2\.0 KB$"):
        installed.import_pack(tiny_pack_int8)
    assert installed_dir_contents() == []


class DiskFillsUp:
    """A file that takes `writes[0]` more writes (shared by every file) and then fails as a full disk does."""

    def __init__(self, path, writes: list[int]) -> None:
        self._file, self._writes = open(path, "xb"), writes  # noqa: SIM115 - closed by close()

    def write(self, data: bytes) -> int:
        if self._writes[0] == 0:
            raise OSError(errno.ENOSPC, "No space left on device")
        self._writes[0] -= 1
        return self._file.write(data)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._file.close()


def test_a_disk_filling_up_during_the_import_is_said_in_words_and_leaves_nothing(
    user_dirs, tiny_pack_int8, monkeypatch
):
    writes = [3]
    monkeypatch.setattr(unpack, "_create", lambda path: DiskFillsUp(path, writes))
    with pytest.raises(DiskSpaceError, match=r"^not enough disk space on .*models: need .*, have .*"):
        installed.import_pack(tiny_pack_int8)
    assert writes == [0]  # it did write, then the disk was full
    assert installed_dir_contents() == []  # no pack, no staging folder


def test_cancel_during_an_import_leaves_nothing(user_dirs, tiny_pack_int8):
    token = CancelToken()

    def progress(done: int, total: int) -> None:
        if done > 0:
            token.cancel()

    with pytest.raises(Cancelled):
        installed.import_pack(tiny_pack_int8, progress=progress, cancel=token)
    assert installed_dir_contents() == []


def test_a_damaged_file_in_a_zip_is_refused(user_dirs, tiny_pack_int8, tmp_path):
    archive = make_archive(tiny_pack_int8, tmp_path / "damaged.zip", "damaged", 1)
    data = bytearray(archive.read_bytes())
    with zipfile.ZipFile(archive) as zf:
        info = zf.getinfo("damaged/decoder.onnx")
    middle = info.header_offset + 30 + len(info.filename) + info.compress_size // 2
    data[middle] ^= 0xFF
    archive.write_bytes(bytes(data))
    with pytest.raises(LibraryError, match="damaged.zip cannot be imported: decoder.onnx is damaged"):
        installed.import_pack(archive)
    assert installed_dir_contents() == []


def test_leftovers_of_interrupted_installs_are_swept(user_dirs, tiny_pack_int8):
    packs = paths.user_packs_dir()
    stale, young, legacy, old = (packs / n for n in (".staging-dead", ".staging-live", ".import-x", ".old-1234-p"))
    for folder in (stale, young, legacy, old):
        folder.mkdir(parents=True)
        (folder / "shared.bin").write_bytes(b"x")
    an_hour_ago = time.time() - unpack.STALE_STAGING_S - 60
    for folder in (stale, legacy):
        os.utime(folder, (an_hour_ago, an_hour_ago))
    installed.import_pack(tiny_pack_int8)
    assert installed_dir_contents() == [".staging-live", tiny_pack_int8.name]
