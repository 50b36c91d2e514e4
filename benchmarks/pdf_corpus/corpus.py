"""The corpus of real PDFs made elsewhere, as the PDF benchmarks use it.

    from pdf_corpus.corpus import default_cache, ensure, load_manifest, path_of    # with benchmarks/ on sys.path

    docs = [d for d in load_manifest() if d.set == "main"]
    failures = ensure(docs, default_cache())          # brings what is missing; [] when every document is there
    for doc in docs:
        pdf = path_of(doc, default_cache())           # the verified PDF (sha256 as the manifest says)

The documents are named in manifest.json (beside this file): a Debian package, its version, the path of the PDF
inside it (a `.pdf.gz` is unpacked), the PDF's sha256, pages, producer and licence. They are fetched into a cache
outside the repository: `apt-get download` (never installed) and `dpkg-deb -x` into a temporary folder, the named
PDFs checked and kept as `pdf/<id>.pdf`, the .deb kept in `debs/` so that a second run downloads nothing, and the
package's copyright files kept in `licences/<package>_<version>/`.
"""

from __future__ import annotations

import gzip
import hashlib
import json
import os
import shutil
import tempfile
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path

from fanyi.fsutil import atomic_write_bytes

from .archive import Archive, ArchiveError, unpack

MANIFEST = Path(__file__).with_name("manifest.json")
SETS = ("main", "held-out")
# Where the copyright of a package's files is told: Debian's copyright file, and for TeX Live's packages the
# per-package list of licences it points to.
_COPYRIGHT_FILES = ("copyright", "Licenses.gz")
_ABANDONED_AFTER = 3600.0  # seconds: a download or an unpacking folder this old belongs to a run that was killed


@dataclass(frozen=True)
class Doc:
    id: str
    set: str  # "main", or "held-out": measured only once the work on the main set is finished
    package: str
    version: str
    path: str  # inside the package; a .pdf.gz is unpacked
    sha256: str  # of the PDF itself (unpacked)
    pages: int
    producer: str  # the PDF's /Producer, as written
    creator: str  # the PDF's /Creator, as written
    family: str  # the producer family ("pdfTeX", "Doxygen (pdfTeX)", "LibreOffice"...)
    kind: str  # "paper, two-column", "thesis", "slides (beamer)", "manual", "reference (tables)"...
    features: tuple[str, ...]  # what its objects show: outline, links, images, math-fonts, monospace-fonts...
    lang: str  # the language of its prose: "en", "zh"
    licence: str  # from the package's copyright files; "unknown" where they do not say


@dataclass(frozen=True)
class Failure:
    doc: Doc
    reason: str  # one line


def default_cache() -> Path:
    return Path(os.environ.get("FANYI_PDF_CORPUS") or Path.home() / ".cache" / "fanyi-pdf-corpus")


def load_manifest(path: Path = MANIFEST) -> list[Doc]:
    entries = json.loads(path.read_text(encoding="utf-8"))["documents"]
    docs = [Doc(**{**entry, "features": tuple(entry["features"])}) for entry in entries]
    ids = [doc.id for doc in docs]
    if len(set(ids)) != len(ids):
        raise ValueError(f"{path.name}: an id is named twice")
    unknown = {doc.set for doc in docs} - set(SETS)
    if unknown:
        raise ValueError(f"{path.name}: unknown set {sorted(unknown)}")
    shared = {doc.package for doc in docs if doc.set == "main"} & {doc.package for doc in docs if doc.set == "held-out"}
    if shared:  # the held-out set measures documents from packages the work never saw
        raise ValueError(f"{path.name}: packages in both sets: {sorted(shared)}")
    return docs


def path_of(doc: Doc, cache: Path) -> Path:
    return cache / "pdf" / f"{doc.id}.pdf"


def is_ready(doc: Doc, cache: Path) -> bool:
    pdf = path_of(doc, cache)
    return pdf.is_file() and hashlib.sha256(pdf.read_bytes()).hexdigest() == doc.sha256


def ensure(docs: Iterable[Doc], cache: Path, log: Callable[[str], None] = lambda line: None) -> list[Failure]:
    """Fetches the documents not yet in the cache (each package downloaded and unpacked once); returns those
    that could not be had, each with its reason. A document already there is checked, not fetched again."""
    _sweep(cache)
    missing: dict[tuple[str, str], list[Doc]] = {}
    for doc in docs:
        if not is_ready(doc, cache):
            missing.setdefault((doc.package, doc.version), []).append(doc)
    archive = Archive(cache / "debs")
    failures: list[Failure] = []
    for (package, version), wanted in missing.items():
        try:
            deb, got = archive.deb(package, version)
        except ArchiveError as error:
            failures += [Failure(doc, str(error)) for doc in wanted]
            continue
        log(f"{package} {got}: unpacking for {len(wanted)} document(s)")
        failures += _take(deb, got, wanted, cache)
    return failures


def _take(deb: Path, version: str, docs: list[Doc], cache: Path) -> list[Failure]:
    failures = []
    with tempfile.TemporaryDirectory(prefix=".unpack-", dir=cache) as folder:
        root = Path(folder) / "root"
        try:
            unpack(deb, root)
        except ArchiveError as error:
            return [Failure(doc, str(error)) for doc in docs]
        _keep_copyright(root, docs[0].package, version, cache)
        for doc in docs:
            try:
                data = _read(root, doc.path)
            except OSError as error:
                failures.append(Failure(doc, f"{doc.package} {version}: {doc.path}: {error.strerror or error}"))
                continue
            digest = hashlib.sha256(data).hexdigest()
            if digest != doc.sha256:
                failures.append(
                    Failure(doc, f"{doc.package} {version}: {doc.path}: sha256 {digest[:12]}…, not {doc.sha256[:12]}…")
                )
                continue
            path_of(doc, cache).parent.mkdir(parents=True, exist_ok=True)
            atomic_write_bytes(path_of(doc, cache), data)
    return failures


def _read(root: Path, path: str) -> bytes:
    file = root / path.lstrip("/")
    if file.is_symlink():  # its target is a path on the machine the package is installed on, not in `root`
        raise OSError(0, f"is a symbolic link to {os.readlink(file)}; name its target in the manifest")
    data = file.read_bytes()
    if path.endswith(".gz"):
        try:
            data = gzip.decompress(data)
        except (OSError, EOFError) as error:
            raise OSError(0, f"not a readable gzip file ({error})") from error
    return data


def _keep_copyright(root: Path, package: str, version: str, cache: Path) -> None:
    into = cache / "licences" / f"{package}_{version.replace(':', '%3a')}"
    into.mkdir(parents=True, exist_ok=True)
    for name in _COPYRIGHT_FILES:
        source = root / "usr" / "share" / "doc" / package / name
        if source.is_file() and not source.is_symlink():
            atomic_write_bytes(into / name, source.read_bytes())


def _sweep(cache: Path) -> None:
    """Removes what a killed run left: its temporary folders (`.unpack-*`, `debs/.download-*`)."""
    for folder in [*cache.glob(".unpack-*"), *cache.glob("debs/.download-*")]:
        try:
            if time.time() - folder.stat().st_mtime > _ABANDONED_AFTER:
                shutil.rmtree(folder, ignore_errors=True)
        except OSError:
            pass  # removed meanwhile by another run
