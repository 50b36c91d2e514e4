"""What every test runs in: an empty home of its own, no network, one thread per math library.

- From the start of the session (before anything reads them once and keeps them: Qt's QSettings,
  fontconfig, Hugging Face's cache paths), HOME and the XDG folders point into a temporary folder of this
  process, and every test then gets fresh empty ones (the app's settings, platformdirs, Qt's
  QtProject.conf all land there). Subprocesses inherit them through os.environ. The developer's own
  FANYI_*_DIR, HF_* and TORCH_HOME settings are dropped, and Hugging Face is kept offline.
- isolation_site/isolation_guard.py refuses a write into the real home or a connection to the network, in
  this process and in every Python the tests start; a test that tried fails (at its teardown) with what it
  did, even if the code under test swallowed the error. Comparing the real home before and after the
  session cannot do that on a shared machine: other programs write there at the same time.
- TMPDIR points into that temporary folder too, for this process's Qt (QDir.tempPath: the single-instance
  socket and lock) and for every subprocess: what a test leaves there, a Fanyi it killed included, goes
  with the folder at the end of the session (the suite used to leave /tmp/fanyi-<hash> sockets behind).
  pytest's own folders (tmp_path) are kept only for tests that failed (pyproject.toml).
- OMP_NUM_THREADS=1: torch (the reference the tests compare with) and the BLAS libraries otherwise start
  a thread per core, and on a busy two-core machine their barriers spin: a tiny model's generate() took
  ten times the CPU. ONNX Runtime's threads are set by the code under test, not by this.
Each pytest-xdist worker does all this for itself, keeping the real home its controller was started with.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import sys
import tempfile
from pathlib import Path

import pytest

SITE = Path(__file__).resolve().parent / "isolation_site"
ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(SITE))
import isolation_guard  # noqa: E402

XDG = {
    "XDG_CONFIG_HOME": ".config",
    "XDG_DATA_HOME": ".local/share",
    "XDG_CACHE_HOME": ".cache",
    "XDG_STATE_HOME": ".local/state",
    "XDG_RUNTIME_DIR": "runtime",
}
DROPPED = (
    "FANYI_DATA_DIR",
    "FANYI_CONFIG_DIR",
    "FANYI_MODELS_DIR",
    "FANYI_CATALOG_URL",
    "FANYI_CATALOG_FILE",
    "HF_HOME",
    "HF_HUB_CACHE",
    "HUGGINGFACE_HUB_CACHE",
    "TRANSFORMERS_CACHE",
    "HF_DATASETS_CACHE",
    "TORCH_HOME",
    "XDG_CONFIG_DIRS",
    "XDG_DATA_DIRS",
)
_saved_environ: dict[str, str] = {}
_root: Path | None = None
_reported = 0  # how much of the guard's log has been reported


def home_env(home: Path) -> dict[str, str]:
    """HOME and the XDG folders under ``home`` (made, the runtime folder private as Qt requires)."""
    env = {
        "HOME": str(home),
        "USERPROFILE": str(home),
        "APPDATA": str(home / "AppData" / "Roaming"),
        "LOCALAPPDATA": str(home / "AppData" / "Local"),
    }
    for name, sub in XDG.items():
        env[name] = str(home / sub)
    for path in (home / sub for sub in XDG.values()):
        path.mkdir(parents=True, exist_ok=True)
    (home / XDG["XDG_RUNTIME_DIR"]).chmod(0o700)
    return env


def _real_homes() -> str:
    homes = {os.path.expanduser("~")}
    try:
        import pwd

        homes.add(pwd.getpwuid(os.getuid()).pw_dir)
    except (ImportError, KeyError):  # Windows; a uid without an entry
        pass
    return os.pathsep.join(sorted(h for h in homes if h and h != "/"))


def pytest_configure(config: pytest.Config) -> None:
    global _root
    _saved_environ.update(os.environ)
    _root = Path(tempfile.mkdtemp(prefix="fanyi-tests-"))
    env = os.environ
    env.setdefault(isolation_guard.REAL_HOMES_ENV, _real_homes())  # an xdist worker keeps its controller's
    exempt = [str(ROOT), sys.prefix, sys.base_prefix, sys.exec_prefix, tempfile.gettempdir(), str(_root)]
    env[isolation_guard.EXEMPT_ENV] = os.pathsep.join(dict.fromkeys(exempt))
    env[isolation_guard.LOG_ENV] = str(_root / "guard.log")
    if str(SITE) not in env.get("PYTHONPATH", "").split(os.pathsep):
        env["PYTHONPATH"] = os.pathsep.join(p for p in (str(SITE), env.get("PYTHONPATH")) if p)
    for name in DROPPED:
        env.pop(name, None)
    (_root / "tmp").mkdir()
    env.update(
        home_env(_root / "home"),
        TMPDIR=str(_root / "tmp"),
        OMP_NUM_THREADS="1",
        HF_HUB_OFFLINE="1",
        TRANSFORMERS_OFFLINE="1",
        HF_HUB_DISABLE_TELEMETRY="1",
    )
    isolation_guard.install()


def pytest_unconfigure(config: pytest.Config) -> None:
    os.environ.clear()
    os.environ.update(_saved_environ)
    if _root is not None:
        shutil.rmtree(_root, ignore_errors=True)
    _remove_empty_pytest_root(config)


def _remove_empty_pytest_root(config: pytest.Config) -> None:
    """pytest removes a passing session's folder (tmp_path_retention_policy) but not the pytest-of-<user> it made
    it in, which stayed behind empty in /tmp: removed here when nothing is left in it (rmdir refuses otherwise:
    a failed test's folder, or another session's, stays)."""
    factory = getattr(config, "_tmp_path_factory", None)
    basetemp = getattr(factory, "_basetemp", None)
    if basetemp is None or not basetemp.parent.name.startswith("pytest-of-"):
        return  # none was made, or --basetemp named it (an xdist worker's is inside its controller's)
    with contextlib.suppress(OSError):
        basetemp.parent.rmdir()


def _new_violations() -> list[str]:
    global _reported
    log = Path(os.environ.get(isolation_guard.LOG_ENV) or _root / "guard.log")
    if not log.is_file() or log.stat().st_size == _reported:
        return []
    with log.open("rb") as f:
        f.seek(_reported)
        new = f.read()
    _reported += len(new)
    return new.decode("utf-8", "replace").splitlines()


@pytest.fixture(autouse=True)
def isolated_home(monkeypatch, tmp_path_factory) -> Path:
    """An empty HOME with empty XDG folders for this test; fails it when it (or a session fixture it set
    up) wrote into the real home or reached the network (the guard's log)."""
    home = tmp_path_factory.mktemp("home")
    for name, value in home_env(home).items():
        monkeypatch.setenv(name, value)
    yield home
    if violations := _new_violations():
        pytest.fail("the test did what tests must not:\n  " + "\n  ".join(violations), pytrace=False)


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    """Violations outside any test (collection, an import) fail the session."""
    if _root is not None and (violations := _new_violations()):
        sys.stderr.write("tests did what tests must not:\n  " + "\n  ".join(violations) + "\n")
        session.exitstatus = pytest.ExitCode.TESTS_FAILED
