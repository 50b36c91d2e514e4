"""fsutil: temporaries that are ours, locked while written, swept only when their writer is gone."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
import time

import pytest

from fanyi import fsutil


@pytest.fixture
def umask():
    """Sets the process umask for one test (it is process-wide: restored after)."""
    old = os.umask(0o022)
    yield os.umask
    os.umask(old)


@pytest.mark.skipif(os.name == "nt", reason="POSIX permission bits")
@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o644), (0o002, 0o664), (0o077, 0o600)])
def test_a_written_file_gets_the_permissions_of_any_new_file(tmp_path, umask, mask, mode):
    umask(mask)
    fsutil.atomic_write_text(tmp_path / "out.txt", "hello")
    with fsutil.atomic_write(tmp_path / "new.txt", "w", overwrite=False) as handle:
        handle.write("hello")
    assert stat.S_IMODE((tmp_path / "out.txt").stat().st_mode) == mode
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == mode


@pytest.mark.skipif(os.name == "nt", reason="POSIX permission bits")
@pytest.mark.parametrize("mask", [0o000, 0o022])
def test_a_private_file_is_its_owners_only_whatever_the_umask(tmp_path, umask, mask):
    umask(mask)
    (tmp_path / "secret.json").write_text("old")  # replaced: the old file's permissions do not carry over
    fsutil.atomic_write_text(tmp_path / "secret.json", "key", private=True)
    assert stat.S_IMODE((tmp_path / "secret.json").stat().st_mode) == 0o600


def test_without_overwrite_an_existing_file_is_kept_and_nothing_is_left(tmp_path):
    (tmp_path / "taken.txt").write_text("theirs")
    with pytest.raises(FileExistsError), fsutil.atomic_write(tmp_path / "taken.txt", "w", overwrite=False) as handle:
        handle.write("ours")
    assert (tmp_path / "taken.txt").read_text() == "theirs"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["taken.txt"]


def test_a_failed_publish_can_try_another_name(tmp_path):
    (tmp_path / "a.txt").write_text("theirs")
    with fsutil.staged(tmp_path / "a.txt", "w") as stage:
        stage.file.write("ours")
        with pytest.raises(FileExistsError):
            stage.publish(tmp_path / "a.txt", overwrite=False)
        stage.publish(tmp_path / "b.txt", overwrite=False)
    assert (tmp_path / "a.txt").read_text() == "theirs" and (tmp_path / "b.txt").read_text() == "ours"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "b.txt"]


def test_without_hard_links_the_name_is_claimed_and_released_on_failure(tmp_path, monkeypatch):
    def no_links(*args, **kwargs):
        raise OSError(errno.EPERM, "Operation not permitted")

    monkeypatch.setattr(os, "link", no_links)
    with fsutil.atomic_write(tmp_path / "ok.txt", "w", overwrite=False) as handle:
        handle.write("done")
    assert (tmp_path / "ok.txt").read_text() == "done"
    real_replace = os.replace

    def failing_replace(source, target):
        if os.fspath(target).endswith("fails.txt"):
            raise OSError(errno.EIO, "Input/output error")
        return real_replace(source, target)

    monkeypatch.setattr(os, "replace", failing_replace)
    with (
        pytest.raises(OSError, match="Input/output"),
        fsutil.atomic_write(tmp_path / "fails.txt", "w", overwrite=False) as handle,
    ):
        handle.write("lost")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["ok.txt"]  # no placeholder, no temporary


def _temporary(folder, name="out.txt", age=0.0):
    """A temporary named as ours, with no writer, last written ``age`` seconds ago."""
    path = folder / f".{name}.0123456789ab{fsutil.TEMP_SUFFIX}"
    path.write_text("half a translation")
    if age:
        os.utime(path, (time.time() - age, time.time() - age))
    return path


def test_sweep_removes_only_old_unlocked_temporaries_of_our_naming(tmp_path):
    old = _temporary(tmp_path, "a.txt", age=fsutil.STALE_AFTER + 5)
    fresh = _temporary(tmp_path, "b.txt")
    others = [".a.txt.abcdefgh.part", "a.txt.part", ".a.txt.0123456789ab.part", "notes.fanyi.part", "a.txt"]
    for name in others:
        (tmp_path / name).write_text("not ours")
        os.utime(tmp_path / name, (0, 0))
    assert fsutil.sweep_stale(tmp_path) == [old]
    assert not old.exists() and fresh.exists()
    assert all((tmp_path / name).exists() for name in others)


@pytest.mark.skipif(os.name == "nt", reason="flock")
def test_sweep_keeps_a_temporary_whose_writer_is_alive_however_old(tmp_path):
    with fsutil.staged(tmp_path / "live.txt", "w") as stage:
        stage.file.write("being written")
        os.utime(stage.temp, (0, 0))
        # another process sweeps the folder while this one still writes
        code = "import sys; from fanyi import fsutil; print(len(fsutil.sweep_stale(sys.argv[1])))"
        swept = subprocess.run([sys.executable, "-c", code, str(tmp_path)], capture_output=True, text=True, check=True)
        assert swept.stdout.strip() == "0" and stage.temp.exists()
        stage.publish(tmp_path / "live.txt", overwrite=False)
    assert (tmp_path / "live.txt").read_text() == "being written"


@pytest.mark.skipif(os.name == "nt", reason="kill -9")
def test_a_temporary_of_a_killed_writer_is_swept_once_old(tmp_path):
    code = (
        "import os, sys, time; from fanyi import fsutil\n"
        "with fsutil.staged(sys.argv[1] + '/out.txt', 'w') as stage:\n"
        "    stage.file.write('half'); stage.file.flush(); print(stage.temp, flush=True); time.sleep(600)\n"
    )
    writer = subprocess.Popen([sys.executable, "-c", code, str(tmp_path)], stdout=subprocess.PIPE, text=True)
    try:
        temp = writer.stdout.readline().strip()
        assert temp and os.path.exists(temp)
        os.utime(temp, (0, 0))
        assert fsutil.sweep_stale(tmp_path) == []  # alive: locked
    finally:
        writer.kill()
        writer.wait()
    assert os.path.exists(temp)  # kill -9 leaves it
    assert [str(p) for p in fsutil.sweep_stale(tmp_path)] == [temp]
    assert list(tmp_path.iterdir()) == []
