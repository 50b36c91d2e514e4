"""Put the CJK fonts the PDF writer draws translations with into assets/fonts: Noto Sans SC and TC Regular.

    python packaging/cjk_fonts.py [DEST]

They are Google Fonts' static TrueType (glyf) builds of Noto Sans SC and Noto Sans TC, v40, under the SIL Open
Font License 1.1 (copied beside them as OFL.txt), as the npm packages @expo-google-fonts/noto-sans-sc and
@expo-google-fonts/noto-sans-tc 0.4.3 carry them: the npm registry is reachable where Google's font servers and
GitHub may not be, and registry.npmmirror.com (mainland China) serves the same tarballs at the same paths. Each
tarball is checked against the sha512 integrity npm publishes for it (pinned here), and each font against its
pinned sha256, so a different file is refused; only the Regular TrueType of each (10.6 MB and 7.1 MB) and the
licence are taken out of the tarballs (57 MB and 39 MB: nine weights each). Nothing is done for what DEST already
holds. Run by `make install`/`make test` (for running from source) and by `make dist` (the bundle carries them:
packaging/pyinstaller/contents.py); fanyi.documents.pdf.fonts finds them there, and offline it falls back to the
system's CJK fonts.
"""

from __future__ import annotations

import base64
import hashlib
import http.client
import os
import ssl
import sys
import tarfile
import tempfile
import urllib.error
import urllib.request
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEST = ROOT / "assets" / "fonts"
# the official registry first, then its mainland-China mirror (same paths, same tarballs)
REGISTRIES = ("https://registry.npmjs.org", "https://registry.npmmirror.com")
LICENCE = "OFL.txt"
TIMEOUT_S = 60.0
CHUNK = 1 << 20


@dataclass(frozen=True)
class Package:
    """One npm package version, the sha512 its registry states for its tarball, and what to take out of it."""

    name: str  # "@scope/name"
    version: str
    integrity: str  # npm's dist.integrity: "sha512-" and the base64 digest
    files: dict[str, tuple[str, str]]  # file in DEST: (member of the tarball, sha256 of the file)

    def tarball(self, registry: str) -> str:
        """The tarball's address on a registry, as npm's dist.tarball gives it: NAME/-/BASENAME-VERSION.tgz."""
        return f"{registry.rstrip('/')}/{self.name}/-/{self.name.rsplit('/', 1)[-1]}-{self.version}.tgz"


_OFL = ("package/LICENSE_FONT", "1c05c68c34f9708415aada51f17e1b0092d2cea709bf4a94cd38114f9e73d7d9")
PACKAGES = (
    Package(
        "@expo-google-fonts/noto-sans-sc",
        "0.4.3",
        "sha512-9rAwdFTFHbO/u6Cs0gj2jZbW74TGIiaFNQnXYH2s5wA1bzVkwbaviL4t8YUV642eGYjg86eH6DkAEQmfNHDncQ==",
        {
            "NotoSansSC-Regular.ttf": (
                "package/400Regular/NotoSansSC_400Regular.ttf",
                "d45f67f0a7c0ca3f256950777ce6a61cc7ce5f9696d02900cbbaac25f8aa7d16",
            ),
            LICENCE: _OFL,
        },
    ),
    Package(
        "@expo-google-fonts/noto-sans-tc",
        "0.4.3",
        "sha512-69XAOTLPz0WlAxL6qJEKlDMxHsBd4J1M39HjV0gPF2o1xWVALOsVWvDgistnecVockA9wbU/tH5C/gyS2PdnHg==",
        {
            "NotoSansTC-Regular.ttf": (
                "package/400Regular/NotoSansTC_400Regular.ttf",
                "add35d53f70727657b4509531677c4e3712b67df3d54661efdee5d3a0c16d954",
            ),
            LICENCE: _OFL,
        },
    ),
)


class FetchError(Exception):
    """No registry gave the pinned tarball, or a file in it is not the pinned one; ``str()`` says why."""


def sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(CHUNK), b""):
            digest.update(block)
    return digest.hexdigest()


def present(dest: Path, package: Package) -> bool:
    """True when every file of ``package`` is in ``dest`` with its pinned sha256."""
    return all(
        (dest / name).is_file() and sha256(dest / name) == digest for name, (_m, digest) in package.files.items()
    )


def _tls() -> ssl.SSLContext:
    """The operating system's trust store (truststore, a runtime dependency) where it is installed yet."""
    try:
        import truststore
    except ImportError:
        return ssl.create_default_context()
    return truststore.SSLContext(ssl.PROTOCOL_TLS_CLIENT)


def _download(url: str, into: Path) -> str:
    """``url`` into the file ``into``; returns the body's npm-style sha512 integrity."""
    digest = hashlib.sha512()
    request = urllib.request.Request(url, headers={"User-Agent": "fanyi-packaging", "Accept-Encoding": "identity"})
    context = _tls() if url.startswith("https:") else None
    with urllib.request.urlopen(request, timeout=TIMEOUT_S, context=context) as response, into.open("wb") as out:
        length = int(response.headers.get("Content-Length") or 0)
        print(f"CJK fonts: downloading {url}" + (f" ({length / 1e6:.0f} MB)" if length else ""), flush=True)
        received = 0
        while block := response.read(CHUNK):
            digest.update(block)
            out.write(block)
            received += len(block)
    if length and received != length:  # urllib ends a body cut short quietly
        raise OSError(f"the download was cut short ({received:,} of {length:,} bytes)")
    return "sha512-" + base64.b64encode(digest.digest()).decode("ascii")


def _tarball(package: Package, registries: Sequence[str], folder: Path) -> Path:
    """The package's tarball from the first registry that serves the pinned one."""
    path = folder / "package.tgz"
    failures = []
    for registry in registries:
        url = package.tarball(registry)
        try:
            integrity = _download(url, path)
        except urllib.error.HTTPError as exc:
            failures.append(f"{url}: HTTP {exc.code} {exc.reason}")
            continue
        except urllib.error.URLError as exc:  # no answer: refused, unknown host, timed out
            failures.append(f"{url}: {exc.reason}")
            continue
        except (OSError, http.client.HTTPException) as exc:  # cut short, or a broken answer
            failures.append(f"{url}: {exc}")
            continue
        if integrity == package.integrity:
            return path
        failures.append(f"{url}: not the tarball this script pins (sha512 differs)")
    raise FetchError("; ".join(failures))


def _extract(package: Package, tarball: Path, dest: Path) -> None:
    """Check every file first (in DEST as .part files), then move them in: a bad file changes nothing."""
    wanted = {member: (name, digest) for name, (member, digest) in package.files.items()}
    dest.mkdir(parents=True, exist_ok=True)
    parts: list[tuple[Path, Path]] = []
    try:
        with tarfile.open(tarball, "r:gz") as archive:
            for info in archive:
                if info.name not in wanted or not info.isfile():
                    continue
                name, digest = wanted.pop(info.name)
                part = dest / f".{name}.part"
                parts.append((part, dest / name))
                source = archive.extractfile(info)
                assert source is not None, "a regular file's member has a body"
                with source, part.open("wb") as out:
                    while block := source.read(CHUNK):
                        out.write(block)
                if sha256(part) != digest:
                    raise FetchError(f"{info.name} in {package.name}@{package.version} has an unexpected sha256")
        if wanted:
            raise FetchError(f"{', '.join(wanted)} not in {package.name}@{package.version}'s tarball")
        for part, final in parts:
            os.replace(part, final)
    finally:
        for part, _final in parts:
            part.unlink(missing_ok=True)


def fetch(dest: Path, packages: Sequence[Package] = PACKAGES, registries: Sequence[str] = REGISTRIES) -> list[str]:
    """Every package's files into ``dest`` unless they are there already; returns the packages fetched."""
    fetched = []
    for package in packages:
        if present(dest, package):
            continue
        with tempfile.TemporaryDirectory() as tmp:
            _extract(package, _tarball(package, registries, Path(tmp)), dest)
        fetched.append(f"{package.name}@{package.version}")
    return fetched


def main(argv: list[str]) -> int:
    dest = Path(argv[0]) if argv else DEST
    try:
        fetched = fetch(dest, PACKAGES, REGISTRIES)
    except (FetchError, OSError, tarfile.TarError) as exc:
        print(
            f"CJK fonts: could not get Noto Sans SC/TC from the npm registry ({exc}); "
            "translated PDFs are drawn with the system's CJK fonts, if it has any",
            file=sys.stderr,
        )
        return 1
    print(f"CJK fonts: {', '.join(fetched) + ' fetched; ' if fetched else ''}Noto Sans SC and TC are in {dest}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
