"""benchmarks/pdf_corpus: the manifest of real PDFs says what the benchmarks need of it, and fetching takes
only what the manifest names, checked, from a package (a .deb built here with dpkg-deb, never Debian's archive)."""

from __future__ import annotations

import gzip
import hashlib
import importlib
import io
import json
import re
import shutil
import subprocess
from pathlib import Path

import pikepdf
import pytest

BENCHMARKS = Path(__file__).parents[3] / "benchmarks"


@pytest.fixture(scope="module")
def tools():
    with pytest.MonkeyPatch.context() as patch:
        patch.syspath_prepend(str(BENCHMARKS))
        yield {name: importlib.import_module(f"pdf_corpus.{name}") for name in ("corpus", "facts", "survey")}


def test_the_manifest_holds_what_the_benchmarks_were_promised(tools):
    docs = tools["corpus"].load_manifest()
    main = [doc for doc in docs if doc.set == "main"]
    held_out = [doc for doc in docs if doc.set == "held-out"]
    engines = {tools["facts"].engine_of(doc.producer, doc.creator) for doc in main} - {"other"}
    assert len(main) >= 60 and len(engines) >= 8, (len(main), sorted(engines))
    assert len(held_out) >= 15
    assert {doc.lang for doc in docs} == {"en", "zh"}
    for doc in docs:
        assert re.fullmatch(r"[0-9a-f]{64}", doc.sha256) and doc.path.startswith("/") and doc.pages > 0, doc.id
        engine = tools["facts"].engine_of(doc.producer, doc.creator)
        assert engine == "other" or engine in doc.family, (doc.id, engine, doc.family)
        assert doc.licence, doc.id


def _manifest(tmp_path: Path, *entries: dict) -> Path:
    path = tmp_path / "manifest.json"
    path.write_text(json.dumps({"documents": list(entries)}), encoding="utf-8")
    return path


def _entry(**changes) -> dict:
    entry = dict(id="a", set="main", package="p", version="1", path="/a.pdf", sha256="0" * 64, pages=1, producer="",
                 creator="", family="pdfTeX", kind="manual", features=[], lang="en", licence="gpl")  # fmt: skip
    return {**entry, **changes}


def test_a_package_measured_in_both_sets_or_an_id_named_twice_is_refused(tools, tmp_path):
    load = tools["corpus"].load_manifest
    with pytest.raises(ValueError, match="packages in both sets: \\['p'\\]"):
        load(_manifest(tmp_path, _entry(), _entry(id="b", set="held-out")))
    with pytest.raises(ValueError, match="an id is named twice"):
        load(_manifest(tmp_path, _entry(), _entry()))
    assert [doc.id for doc in load(_manifest(tmp_path, _entry(), _entry(id="b", set="held-out", package="q")))] == [
        "a",
        "b",
    ]


@pytest.mark.parametrize(
    ("producer", "creator", "banner", "engine"),
    [  # as the corpus's PDFs write them
        ("LuaHBTeX, Version 1.15.0 (TeX Live 2022)", "LaTeX with acmart", "", "LuaTeX"),
        ("xdvipdfmx (20211117)", "LaTeX with hyperref", "", "XeTeX"),
        ("MiKTeX-dvipdfmx (20080621)", "LaTeX with hyperref package", "", "dvipdfmx"),
        ("Mac OS X 10.6.8 Quartz PDFContext", "Microsoft Word", "", "Word"),
        ("Adobe PDF Library 20.12.80", "Acrobat PDFMaker 20 for Word", "", "Word"),
        ("GPL Ghostscript 10.00.0", "groff version 1.22.4", "", "Ghostscript"),
        ("gropdf version 1.22.4", "groff version 1.22.4", "", "gropdf"),
        ("LibreOffice Vanilla 6.2", "Writer", "", "LibreOffice"),
        ("cairo 1.16.0 (https://cairographics.org)", "", "", "cairo"),
        ("Your Name Here", "Your Name Here", "This is pdfTeX, Version 3.14159265-2.6-1.40.20", "pdfTeX"),
        ("Your Name Here", "Your Name Here", "", "other"),
    ],
)
def test_the_engine_a_pdf_names(tools, producer, creator, banner, engine):
    assert tools["facts"].engine_of(producer, creator, banner) == engine


def test_tex_lives_licence_list_gives_the_longest_folder_that_holds_the_file(tools):
    listing = "Licenses for source package texlive-extra\n\ninner: ofl\ntexmf-dist/doc/latex/outer/inner/*\n"
    listing += "texmf-dist/tex/latex/inner/*\nouter: lppl1.3c\ntexmf-dist/doc/latex/outer/*\nexact: mit\n"
    listing += "texmf-dist/doc/latex/exact/one.pdf\nlast: gpl\ntexmf-dist/doc/latex/*\n"
    licence = tools["survey"].texlive_licence
    assert licence(listing, "/usr/share/doc/texlive-doc/latex/outer/guide.pdf") == "lppl1.3c"
    assert licence(listing, "/usr/share/doc/texlive-doc/latex/outer/inner/sample.pdf") == "ofl"
    assert licence(listing, "/usr/share/doc/texlive-doc/latex/exact/one.pdf") == "mit"
    assert licence(listing, "/usr/share/doc/texlive-doc/latex/exact/two.pdf") == "gpl"
    assert licence(listing, "/usr/share/doc/texlive-doc/generic/two.pdf") == "unknown"
    assert licence(listing, "/usr/share/doc/other/guide.pdf") == "unknown"


def _pdf(pages: int) -> bytes:
    pdf = pikepdf.new()
    for _ in range(pages):
        pdf.add_blank_page()
    out = io.BytesIO()
    pdf.save(out)
    return out.getvalue()


@pytest.fixture
def package(tmp_path):
    """A .deb of package `docs` 1.0 as `apt-get download` would have left it in the cache: two PDFs (one
    gzipped, as Debian's packages often ship them), a symbolic link to one, and the copyright file."""
    if shutil.which("dpkg-deb") is None:
        pytest.skip("dpkg-deb is not on this machine")
    tree = tmp_path / "tree"
    (tree / "DEBIAN").mkdir(parents=True)
    (tree / "DEBIAN" / "control").write_text(
        "Package: docs\nVersion: 1.0\nArchitecture: all\nMaintainer: Nobody <nobody@example.org>\nDescription: d\n"
    )
    doc = tree / "usr" / "share" / "doc" / "docs"
    doc.mkdir(parents=True)
    (doc / "copyright").write_text("License: GPL-2+\n")
    one, two = _pdf(1), _pdf(2)
    (doc / "one.pdf").write_bytes(one)
    (doc / "two.pdf.gz").write_bytes(gzip.compress(two))
    (doc / "link.pdf").symlink_to("/usr/share/doc/docs/one.pdf")
    cache = tmp_path / "cache"
    (cache / "debs").mkdir(parents=True)
    subprocess.run(["dpkg-deb", "-b", "--root-owner-group", str(tree), str(cache / "debs" / "docs_1.0.deb")],
                   check=True, capture_output=True)  # fmt: skip
    return cache, {"one": one, "two": two}


def test_fetching_takes_what_the_manifest_names_checked_and_says_why_not(tools, package):
    corpus = tools["corpus"]
    cache, pdfs = package
    base = corpus.Doc(**{**_entry(package="docs", version="1.0"), "features": ()})

    def doc(name: str, path: str, sha: str):
        return corpus.Doc(**{**base.__dict__, "id": name, "path": path, "sha256": sha})

    one = doc("one", "/usr/share/doc/docs/one.pdf", hashlib.sha256(pdfs["one"]).hexdigest())
    two = doc("two", "/usr/share/doc/docs/two.pdf.gz", hashlib.sha256(pdfs["two"]).hexdigest())
    wrong = doc("wrong", "/usr/share/doc/docs/one.pdf", "1" * 64)
    absent = doc("absent", "/usr/share/doc/docs/absent.pdf", "1" * 64)
    link = doc("link", "/usr/share/doc/docs/link.pdf", one.sha256)
    docs = [one, two, wrong, absent, link]

    failures = {failure.doc.id: failure.reason for failure in corpus.ensure(docs, cache)}
    assert corpus.path_of(one, cache).read_bytes() == pdfs["one"]
    assert corpus.path_of(two, cache).read_bytes() == pdfs["two"]  # unpacked, and checked unpacked
    assert sorted(failures) == ["absent", "link", "wrong"]
    assert "sha256" in failures["wrong"] and "111111111111" in failures["wrong"]
    assert "No such file" in failures["absent"]
    assert "symbolic link to /usr/share/doc/docs/one.pdf" in failures["link"]
    assert all("\n" not in reason for reason in failures.values())
    assert not any(corpus.path_of(d, cache).exists() for d in (wrong, absent, link))
    assert (cache / "licences" / "docs_1.0" / "copyright").read_text() == "License: GPL-2+\n"
    assert sorted(p.name for p in cache.iterdir()) == ["debs", "licences", "pdf"]  # no unpacked package left

    # A second run fetches nothing that is there; a damaged copy is fetched again.
    corpus.path_of(two, cache).write_bytes(b"damaged")
    kept = corpus.path_of(one, cache).stat().st_mtime_ns
    assert {failure.doc.id for failure in corpus.ensure(docs, cache)} == {"absent", "link", "wrong"}
    assert corpus.path_of(one, cache).stat().st_mtime_ns == kept
    assert corpus.path_of(two, cache).read_bytes() == pdfs["two"]
