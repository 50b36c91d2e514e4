"""Lists the PDFs a Debian package holds, to choose documents for manifest.json: one tab-separated line each with
its path, pages, size, the producer family its metadata names, /Producer, /Creator, the features its objects show
and, for TeX Live's packages, the licence their list of licences gives for it (other packages: read their
copyright file, kept in the cache's `licences/`). The .deb is kept in the cache like fetch.py's.

    python benchmarks/pdf_corpus/survey.py texlive-publishers-doc winff-doc > /tmp/candidates.tsv
"""

from __future__ import annotations

import argparse
import gzip
import subprocess
import sys
import tempfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent.parent / "app"), str(HERE.parent)]

from pdf_corpus.archive import Archive, ArchiveError, unpack  # noqa: E402
from pdf_corpus.corpus import default_cache  # noqa: E402
from pdf_corpus.facts import read_facts  # noqa: E402

TEXLIVE_DOC = "/usr/share/doc/texlive-doc/"  # Debian's place for TeX Live's texmf-dist/doc/


def texlive_licence(licenses: str, path: str) -> str:
    """The licence TeX Live's list (`Licenses.gz`: a line "package: licence", then the package's paths, a
    folder's files as "folder/*") gives for an installed file; "unknown" when no entry covers it. "folder/*" is
    taken to cover the folder's subfolders too, and the longest matching folder wins: a package's documentation
    folder can hold another package's."""
    if not path.startswith(TEXLIVE_DOC):
        return "unknown"
    wanted = "texmf-dist/doc/" + path[len(TEXLIVE_DOC) :]
    best, licence, current = "", "unknown", "unknown"
    for line in licenses.splitlines():
        if line and not line.startswith(("texmf", " ")) and ":" in line:
            current = line.split(":", 1)[1].strip() or "unknown"
            continue
        pattern = line.strip()
        folder = pattern[:-1] if pattern.endswith("/*") else pattern
        if (wanted == pattern or (pattern.endswith("/*") and wanted.startswith(folder))) and len(folder) > len(best):
            best, licence = folder, current
    return licence


def survey(package: str, archive: Archive, out: list[str]) -> None:
    deb, version = archive.deb(package, _candidate(package))
    with tempfile.TemporaryDirectory(prefix="survey-") as folder:
        root = Path(folder)
        unpack(deb, root)
        licences = root / "usr" / "share" / "doc" / package / "Licenses.gz"
        listing = gzip.decompress(licences.read_bytes()).decode("utf-8", "replace") if licences.is_file() else ""
        for file in sorted(root.rglob("*")):
            if file.is_symlink() or not file.is_file() or not file.name.lower().endswith((".pdf", ".pdf.gz")):
                continue
            path = "/" + str(file.relative_to(root))
            data = file.read_bytes()
            try:
                facts = read_facts(gzip.decompress(data) if path.endswith(".gz") else data)
            except Exception as error:  # noqa: BLE001 - a damaged PDF is listed with its error, the others go on
                out.append(f"{package}\t{version}\t{path}\tunreadable: {error}")
                continue
            row = [package, version, path, facts.pages, len(data) // 1024, facts.engine, facts.producer, facts.creator]
            row += [",".join(facts.features), texlive_licence(listing, path) if listing else "see copyright"]
            out.append("\t".join(str(value).replace("\t", " ") for value in row))


def _candidate(package: str) -> str:
    result = subprocess.run(["apt-cache", "policy", package], capture_output=True, text=True, check=False)
    for line in result.stdout.splitlines():
        if line.strip().startswith("Candidate:"):
            return line.split(":", 1)[1].strip()
    raise ArchiveError(f"{package}: apt knows no candidate version (apt-get update?)")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("packages", nargs="+")
    parser.add_argument("--cache", type=Path, default=None, help="folder of the cache (default: fetch.py's)")
    args = parser.parse_args(argv)
    archive = Archive((args.cache or default_cache()).expanduser() / "debs")
    print("package\tversion\tpath\tpages\tKiB\tengine\tproducer\tcreator\tfeatures\tlicence")
    status = 0
    for package in args.packages:
        rows: list[str] = []
        try:
            survey(package, archive, rows)
        except ArchiveError as error:
            print(f"survey: {error}", file=sys.stderr)
            status = 1
        print("\n".join(rows))
    return status


if __name__ == "__main__":
    sys.exit(main())
