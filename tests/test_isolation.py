"""The tests' own isolation (tests/isolation.py): a temporary home for every test, and a guard that fails a
test writing into the real home or reaching the network, in the test process and in its subprocesses."""

from __future__ import annotations

import getpass
import os
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import isolation
import isolation_guard
import pytest

REAL_HOME = Path(os.environ[isolation_guard.REAL_HOMES_ENV].split(os.pathsep)[0])
PROBE = REAL_HOME / ".fanyi-tests-isolation-probe"


@pytest.fixture
def probe():
    """The real home's probe file, which the guard must keep from being made (removed if it was)."""
    assert not PROBE.exists()
    yield PROBE
    if PROBE.exists():
        PROBE.unlink()
        pytest.fail(f"{PROBE} was written")


def test_every_test_has_its_own_empty_home(isolated_home):
    import platformdirs

    from fanyi import paths

    assert Path.home() == isolated_home and not [p for p in isolated_home.rglob("*") if not p.is_dir()]
    for folder in (
        paths.user_config_dir(),
        paths.user_data_dir(),
        Path(platformdirs.user_cache_dir("Fanyi")),
        Path(platformdirs.user_state_dir("Fanyi")),
        Path(platformdirs.user_runtime_dir("Fanyi")),
    ):
        assert folder.is_relative_to(isolated_home), folder


def test_qt_keeps_its_files_in_a_temporary_home(tmp_path_factory):
    """Qt settles its folders once per process (QtProject.conf): they must be temporary ones (the session's,
    or pytest's: an xdist worker's TMPDIR is its controller's session folder, its pytest folder elsewhere)."""
    from PySide6.QtCore import QSettings, QStandardPaths

    temporary = [p.resolve() for p in (isolation._root, tmp_path_factory.getbasetemp())]
    qt_project = QSettings(QSettings.Format.IniFormat, QSettings.Scope.UserScope, "QtProject").fileName()
    config = QStandardPaths.writableLocation(QStandardPaths.StandardLocation.ConfigLocation)
    for path in (Path(qt_project).resolve(), Path(config).resolve()):
        assert any(path.is_relative_to(t) for t in temporary) and not path.is_relative_to(REAL_HOME), path


def test_temporary_files_of_qt_and_of_subprocesses_go_with_the_sessions_folder():
    """The single-instance socket and lock (QDir.tempPath) of the apps the tests start, killed ones included,
    were left in /tmp as fanyi-<hash> files."""
    from PySide6.QtCore import QDir

    from fanyi.ui.instance import SingleInstance

    root = isolation._root.resolve()
    assert Path(QDir.tempPath()).resolve().is_relative_to(root)
    told = subprocess.run(
        [sys.executable, "-c", "import tempfile; print(tempfile.gettempdir())"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert Path(told.stdout.strip()).resolve().is_relative_to(root)
    instance = SingleInstance("fanyi-isolation-check")
    assert instance.claim()
    try:
        assert (Path(QDir.tempPath()) / "fanyi-isolation-check.lock").exists()
    finally:
        instance.release()


def test_pytest_keeps_the_folders_of_failed_tests_only(pytestconfig):
    """A passing session left 241 MB in /tmp/pytest-of-<user> (the last three sessions' tiny models)."""
    assert pytestconfig.getini("tmp_path_retention_policy") == "failed"
    assert int(pytestconfig.getini("tmp_path_retention_count")) <= 1


def test_a_write_into_the_real_home_is_refused_and_noted(probe):
    with pytest.raises(PermissionError, match="tests must not write into the real home"):
        probe.write_text("x")
    with pytest.raises(PermissionError, match="tests must not change the real home"):
        (REAL_HOME / ".fanyi-tests-isolation-folder").mkdir()
    noted = isolation._new_violations()  # taken, so that this test passes
    assert len(noted) == 2 and str(probe) in noted[0]


def test_python_caches_and_temporary_folders_stay_writable(tmp_path):
    (tmp_path / "__pycache__").mkdir()
    (tmp_path / "__pycache__" / "x.pyc").write_bytes(b"")
    assert not isolation._new_violations()


def test_the_network_is_refused_but_loopback_is_not():
    with pytest.raises(PermissionError, match="tests must not reach the network"):
        socket.getaddrinfo("example.org", 443)
    with pytest.raises(PermissionError, match="tests must not reach the network"), socket.socket() as s:
        s.connect(("192.0.2.1", 80))  # TEST-NET-1: never routed
    assert len(isolation._new_violations()) == 2
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen()
        socket.create_connection(server.getsockname(), timeout=5).close()
    assert socket.getaddrinfo("localhost", 80)
    assert not isolation._new_violations()


def test_a_subprocess_inherits_the_home_and_the_guard(isolated_home, probe):
    code = f"import pathlib; print(pathlib.Path.home()); pathlib.Path({str(probe)!r}).write_text('x')"
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert result.stdout.strip() == str(isolated_home)
    assert result.returncode == 1
    assert "PermissionError: tests must not write into the real home" in result.stderr
    assert [str(probe) in line for line in isolation._new_violations()] == [True]


def test_a_test_that_writes_into_the_real_home_fails_even_if_the_error_is_swallowed(tmp_path, probe):
    (tmp_path / "test_careless.py").write_text(
        textwrap.dedent(f"""
        import pathlib, socket

        def test_careless():
            try:
                pathlib.Path({str(probe)!r}).write_text("settings")
            except OSError:
                pass  # as an app that only logs a failed save

        def test_online():
            try:
                socket.create_connection(("example.org", 443), timeout=1)
            except OSError:
                pass
    """)
    )
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([str(Path(__file__).parent), os.environ["PYTHONPATH"]]))
    command = [sys.executable, "-m", "pytest", "-q", "-p", "isolation", "-p", "no:cacheprovider", "test_careless.py"]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 1, result.stdout
    assert "2 passed, 2 errors" in result.stdout, result.stdout
    assert f"write into the real home: open({str(probe)!r}) for writing" in result.stdout
    assert "reach the network: socket.getaddrinfo 'example.org'" in result.stdout


def test_a_passing_session_leaves_no_empty_pytest_folder_in_the_temporary_root(tmp_path):
    """`make test` left an empty /tmp/pytest-of-<user> behind (pytest removes the session's folder only)."""
    (tmp_path / "test_quiet.py").write_text("def test_quiet(tmp_path):\n    (tmp_path / 'a').write_text('a')\n")
    root = tmp_path / "temproot"
    root.mkdir()
    env = dict(
        os.environ,
        PYTHONPATH=os.pathsep.join([str(Path(__file__).parent), os.environ["PYTHONPATH"]]),
        PYTEST_DEBUG_TEMPROOT=str(root),  # where pytest makes pytest-of-<user>, instead of the system's
    )
    command = [sys.executable, "-m", "pytest", "-q", "-p", "isolation", "-p", "no:cacheprovider", "test_quiet.py"]
    command += ["-o", "tmp_path_retention_policy=failed"]
    result = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)
    assert result.returncode == 0, result.stdout
    assert list(root.iterdir()) == []
    (tmp_path / "test_failing.py").write_text("def test_failing(tmp_path):\n    assert False\n")
    command[-3] = "test_failing.py"
    failed = subprocess.run(command, cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)
    assert failed.returncode == 1
    assert [p.name for p in root.iterdir()] == [f"pytest-of-{getpass.getuser()}"]  # a failed test's folder is kept
