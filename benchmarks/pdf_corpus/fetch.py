"""Fetches the corpus of real PDFs named in manifest.json from Debian's archive into a cache, checks each one's
sha256, and says what is missing. Needs apt-get and dpkg-deb (a Debian or Ubuntu machine that reaches the
archive); installs nothing. Not part of `make test`.

    python benchmarks/pdf_corpus/fetch.py                         # every document, into ~/.cache/fanyi-pdf-corpus
    python benchmarks/pdf_corpus/fetch.py --set main --cache DIR  # the main set only, into DIR
    python benchmarks/pdf_corpus/fetch.py --id acm-sigconf --id r-intro
    python benchmarks/pdf_corpus/fetch.py --check                 # also re-reads each PDF's facts against the manifest

A second run downloads nothing and prints the same; an interrupted run goes on where it stopped. Exit status 1 when
a document could not be had (one line each: which, and why).
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent.parent
sys.path[:0] = [str(REPO / "app"), str(HERE.parent)]

from pdf_corpus.corpus import SETS, Doc, default_cache, ensure, is_ready, load_manifest, path_of  # noqa: E402
from pdf_corpus.facts import read_facts  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=None, help=f"folder of the cache (default: {default_cache()})")
    parser.add_argument("--set", choices=[*SETS, "all"], default="all")
    parser.add_argument("--id", action="append", default=[], help="only this document (repeatable)")
    parser.add_argument("--check", action="store_true", help="compare each PDF's pages, producer and features")
    args = parser.parse_args(argv)
    cache = (args.cache or default_cache()).expanduser().resolve()
    if cache == REPO or REPO in cache.parents:
        print(f"fetch: the cache must be outside the repository, not {cache}", file=sys.stderr)
        return 2
    docs = [doc for doc in load_manifest() if args.set in ("all", doc.set) and (not args.id or doc.id in args.id)]
    unknown = set(args.id) - {doc.id for doc in docs}
    if unknown:
        print(f"fetch: no document {', '.join(sorted(unknown))} in the manifest (set {args.set})", file=sys.stderr)
        return 2
    cache.mkdir(parents=True, exist_ok=True)
    failures = {failure.doc.id: failure.reason for failure in ensure(docs, cache, log=print)}
    problems = 0
    for doc in docs:
        if doc.id in failures or not is_ready(doc, cache):
            print(f"missing  {doc.id}: {failures.get(doc.id, 'not in the cache')}")
            problems += 1
            continue
        differences = _differences(doc, cache) if args.check else []
        problems += bool(differences)
        status = "DIFFERS" if differences else "ready  "
        print(f"{status}  {doc.id:<24} {doc.pages:4d} pages  {doc.family}")
        for difference in differences:
            print(f"         {difference}")
    ready = [doc for doc in docs if doc.id not in failures]
    print(
        f"{len(ready)} of {len(docs)} documents ready ({sum(doc.pages for doc in ready)} pages) in {cache / 'pdf'}; "
        f"{len(docs) - len(ready)} missing"
    )
    return 1 if problems else 0


def _differences(doc: Doc, cache: Path) -> list[str]:
    """What the PDF says about itself that the manifest does not (its sha256 was checked already)."""
    facts = read_facts(path_of(doc, cache).read_bytes())
    found = []
    for name in ("pages", "producer", "creator", "features"):
        if getattr(facts, name) != getattr(doc, name):
            found.append(f"{name}: the PDF says {getattr(facts, name)!r}, the manifest {getattr(doc, name)!r}")
    if facts.engine != "other" and facts.engine not in doc.family:
        found.append(f"family: {doc.family!r} does not name {facts.engine!r}, the producer the PDF names")
    return found


if __name__ == "__main__":
    sys.exit(main())
