"""Debian's archive through its own tools: `apt-get download` brings a package's .deb (never installed), and
`dpkg-deb -x` unpacks it into a folder of ours. Each failure is one line (ArchiveError) naming the package."""

from __future__ import annotations

import os
import shutil
import subprocess
import tempfile
from pathlib import Path


class ArchiveError(Exception):
    """A package that could not be brought or unpacked; the message is one line."""


def _run(command: list[str], cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(command, cwd=cwd, capture_output=True, text=True, check=False)
    except FileNotFoundError as error:
        raise ArchiveError(f"{command[0]} is not on this machine (a Debian or Ubuntu system has it)") from error


def _last_error(result: subprocess.CompletedProcess[str]) -> str:
    lines = [line for line in (result.stderr + result.stdout).splitlines() if line.startswith("E:")]
    text = lines[-1] if lines else (result.stderr.strip().splitlines() or [f"exit status {result.returncode}"])[-1]
    return text.strip()


class Archive:
    """Brings .deb files into `debs` (kept: a second run downloads nothing). The package lists are refreshed
    (`apt-get update`, as root) once, the first time a package is unknown to them."""

    def __init__(self, debs: Path) -> None:
        self.debs = debs
        self._updated = False

    def deb(self, package: str, version: str) -> tuple[Path, str]:
        """The .deb of `package`, `version` if the archive still has it, else its current version (the
        caller checks what it takes from it). Returns the file and the version it holds."""
        kept = self._kept(package, version)
        if kept is not None:
            return kept
        self._known(package)
        self.debs.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix=".download-", dir=self.debs) as folder:
            pinned = _run(["apt-get", "download", f"{package}={version}"], cwd=Path(folder))
            if pinned.returncode != 0:
                current = _run(["apt-get", "download", package], cwd=Path(folder))
                if current.returncode != 0:
                    raise ArchiveError(f"{package}: apt-get download failed: {_last_error(pinned)}")
            downloaded = sorted(Path(folder).glob("*.deb"))
            if len(downloaded) != 1:
                raise ArchiveError(f"{package}: apt-get download left {len(downloaded)} .deb files, not one")
            got = self._field(downloaded[0], "Version")
            target = self.debs / f"{package}_{_safe(got)}.deb"
            os.replace(downloaded[0], target)  # the same folder's file system: a reader never sees half a .deb
        return target, got

    def _kept(self, package: str, version: str) -> tuple[Path, str] | None:
        wanted = self.debs / f"{package}_{_safe(version)}.deb"
        if wanted.is_file():
            return wanted, version
        others = sorted(self.debs.glob(f"{package}_*.deb"))
        return (others[-1], self._field(others[-1], "Version")) if others else None

    def _known(self, package: str) -> None:
        if _run(["apt-cache", "show", "--no-all-versions", package]).returncode == 0 or self._updated:
            return
        if os.geteuid() != 0:
            raise ArchiveError(f"{package}: unknown to apt's package lists; run `apt-get update` as root first")
        self._updated = True
        update = _run(["apt-get", "update"])
        if update.returncode != 0:
            raise ArchiveError(f"apt-get update failed: {_last_error(update)}")

    @staticmethod
    def _field(deb: Path, field: str) -> str:
        result = _run(["dpkg-deb", "-f", str(deb), field])
        if result.returncode != 0:
            raise ArchiveError(f"{deb.name}: not a readable .deb: {_last_error(result)}")
        return result.stdout.strip()


def unpack(deb: Path, into: Path) -> None:
    """`dpkg-deb -x`: the package's files under `into`, nothing installed, no maintainer script run."""
    result = _run(["dpkg-deb", "-x", str(deb), str(into)])
    if result.returncode != 0:
        shutil.rmtree(into, ignore_errors=True)
        raise ArchiveError(f"{deb.name}: dpkg-deb -x failed: {_last_error(result)}")


def _safe(version: str) -> str:
    """A version as a file name: an epoch's colon is not allowed everywhere."""
    return version.replace(":", "%3a")
