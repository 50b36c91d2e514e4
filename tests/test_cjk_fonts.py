"""packaging/cjk_fonts.py against a local registry: an npm-style tarball the test builds, served at the path the
npm registry (and its mirror) serve tarballs at; no network."""

from __future__ import annotations

import base64
import hashlib
import io
import sys
import tarfile
from pathlib import Path

import pytest
from packserver import Route, closed_port_url

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))
import cjk_fonts  # noqa: E402

FONT = b"\x00\x01\x00\x00 a TrueType font's bytes" * 100
LICENCE = b"SIL OPEN FONT LICENSE Version 1.1\n"


def _tarball(members: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as archive:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))
    return out.getvalue()


def _integrity(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


TARBALL = _tarball(
    {
        "package/package.json": b"{}",
        "package/LICENSE_FONT": LICENCE,
        "package/400Regular/TestSansSC_400Regular.ttf": FONT,
        "package/700Bold/TestSansSC_700Bold.ttf": b"bold" * 1000,
    }
)
PACKAGE = cjk_fonts.Package(
    "@test-fonts/test-sans-sc",
    "1.2.3",
    _integrity(TARBALL),
    {
        "TestSansSC-Regular.ttf": ("package/400Regular/TestSansSC_400Regular.ttf", _sha256(FONT)),
        "OFL.txt": ("package/LICENSE_FONT", _sha256(LICENCE)),
    },
)
PATH = "/@test-fonts/test-sans-sc/-/test-sans-sc-1.2.3.tgz"


def _base(url: str) -> str:
    return url.split("/", 3)[0] + "//" + url.split("/", 3)[2]


def test_tarball_addresses_are_the_registries_own():
    """As `npm view @expo-google-fonts/noto-sans-sc@0.4.3 dist.tarball` gives it; registry.npmmirror.com serves
    the same path (lockfiles resolved there read https://registry.npmmirror.com/@scope/name/-/name-1.0.0.tgz)."""
    sc = cjk_fonts.PACKAGES[0]
    assert sc.tarball(cjk_fonts.REGISTRIES[0]) == (
        "https://registry.npmjs.org/@expo-google-fonts/noto-sans-sc/-/noto-sans-sc-0.4.3.tgz"
    )
    assert sc.tarball(cjk_fonts.REGISTRIES[1] + "/") == (
        "https://registry.npmmirror.com/@expo-google-fonts/noto-sans-sc/-/noto-sans-sc-0.4.3.tgz"
    )
    assert cjk_fonts.DEST == ROOT / "assets" / "fonts"


def test_the_regular_font_and_its_licence_are_taken_out_of_the_tarball(server, tmp_path):
    server.routes[PATH] = Route(TARBALL)
    dest = tmp_path / "fonts"
    assert cjk_fonts.fetch(dest, [PACKAGE], [_base(server.url("/"))]) == ["@test-fonts/test-sans-sc@1.2.3"]
    assert sorted(p.name for p in dest.iterdir()) == ["OFL.txt", "TestSansSC-Regular.ttf"]
    assert (dest / "TestSansSC-Regular.ttf").read_bytes() == FONT and (dest / "OFL.txt").read_bytes() == LICENCE
    assert cjk_fonts.present(dest, PACKAGE)
    # a second run finds them and asks nothing
    assert cjk_fonts.fetch(dest, [PACKAGE], [_base(server.url("/"))]) == []
    assert len(server.requests) == 1


def test_the_mirror_serves_when_the_registry_does_not(server, tmp_path):
    server.routes[PATH] = Route(TARBALL)
    server.routes["/down" + PATH] = Route(b"", status=503)
    server.routes["/cut" + PATH] = Route(TARBALL, drop_after=100)  # the connection drops mid-tarball
    dest = tmp_path / "fonts"
    registries = [_base(closed_port_url()), server.url("/down"), server.url("/cut"), _base(server.url("/"))]
    assert cjk_fonts.fetch(dest, [PACKAGE], registries) == ["@test-fonts/test-sans-sc@1.2.3"]
    assert cjk_fonts.present(dest, PACKAGE)
    server.routes["/cut" + PATH] = Route(TARBALL, drop_after=100)
    with pytest.raises(cjk_fonts.FetchError, match=r"/cut/.*cut short \(100 of .* bytes\).*/down/.*503"):
        cjk_fonts.fetch(tmp_path / "other", [PACKAGE], [server.url("/cut"), server.url("/down")])


def test_a_different_tarball_is_refused_and_changes_nothing(server, tmp_path):
    other = _tarball({"package/LICENSE_FONT": LICENCE, "package/400Regular/TestSansSC_400Regular.ttf": b"evil"})
    server.routes[PATH] = Route(other)
    dest = tmp_path / "fonts"
    with pytest.raises(cjk_fonts.FetchError, match="sha512 differs"):
        cjk_fonts.fetch(dest, [PACKAGE], [_base(server.url("/"))])
    assert not dest.exists() or list(dest.iterdir()) == []


def test_a_file_in_the_pinned_tarball_that_is_not_the_pinned_one_is_refused(server, tmp_path):
    """The tarball's sha512 matches but a file's pinned sha256 does not: no file and no .part is left."""
    wrong = cjk_fonts.Package(PACKAGE.name, PACKAGE.version, PACKAGE.integrity, {**PACKAGE.files})
    wrong.files["TestSansSC-Regular.ttf"] = (PACKAGE.files["TestSansSC-Regular.ttf"][0], "0" * 64)
    server.routes[PATH] = Route(TARBALL)
    dest = tmp_path / "fonts"
    dest.mkdir()
    (dest / "OFL.txt").write_bytes(b"an older licence text")
    with pytest.raises(cjk_fonts.FetchError, match="unexpected sha256"):
        cjk_fonts.fetch(dest, [wrong], [_base(server.url("/"))])
    assert [p.name for p in dest.iterdir()] == ["OFL.txt"] and (
        dest / "OFL.txt"
    ).read_bytes() == b"an older licence text"
    missing = cjk_fonts.Package(PACKAGE.name, PACKAGE.version, PACKAGE.integrity, {"X.ttf": ("package/X.ttf", "0")})
    with pytest.raises(cjk_fonts.FetchError, match="package/X.ttf not in"):
        cjk_fonts.fetch(dest, [missing], [_base(server.url("/"))])


def test_offline_the_script_says_so_in_one_line_and_fails(monkeypatch, tmp_path, capsys):
    monkeypatch.setattr(cjk_fonts, "REGISTRIES", (_base(closed_port_url()),))
    assert cjk_fonts.main([str(tmp_path / "fonts")]) == 1
    out, err = capsys.readouterr()
    assert out == "" and len(err.splitlines()) == 1 and "could not get Noto Sans SC/TC" in err


def test_make_install_fetches_the_fonts_and_goes_on_without_them():
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "install: $(VENV)/.installed ocr-models fonts\n" in makefile
    assert "install-dev: $(VENV)/.installed-dev ocr-models fonts\n" in makefile
    assert '@$(BIN)/python packaging/cjk_fonts.py || echo "continuing without the bundled CJK fonts"' in makefile


def test_the_repositorys_fonts_are_the_pinned_ones(bundled_fonts):
    assert bundled_fonts == cjk_fonts.DEST
    assert all(cjk_fonts.present(bundled_fonts, package) for package in cjk_fonts.PACKAGES)
