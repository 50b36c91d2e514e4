"""Every page of the real-PDF corpus translated and measured (metrics.py); a table per producer.

    .venv/bin/python benchmarks/pdf_corpus/measure.py run [--set main|held-out] [--only ID ...] [--work DIR]
    .venv/bin/python benchmarks/pdf_corpus/measure.py run --files a.pdf b.pdf       # any PDFs, no manifest
    .venv/bin/python benchmarks/pdf_corpus/measure.py table [--work DIR]            # the table of the last run
    .venv/bin/python benchmarks/pdf_corpus/measure.py pages ID [--work DIR]         # one document, page by page

The documents come from the corpus cache (fetch.py); each is translated by a stand-in that answers at once (two
Han characters a word, as pdf_writer.py does; a pseudo-English word for each Han character of a Chinese document),
so the seconds are the PDF work alone. Results go to WORK/results/ID.json; WORK/renders/ID-pN.png shows a page
before and after, side by side, for the first page and the pages with the most defects.
"""

from __future__ import annotations

import argparse
import json
import re
import statistics
import sys
import tempfile
import traceback
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
sys.path[:0] = [str(ROOT / "app"), str(HERE), str(HERE.parent), str(ROOT / "tests" / "documents" / "pdf")]
# (tests/documents/pdf has a module named corpus of its own: the real-PDF corpus is imported as pdf_corpus.corpus)

import metrics  # noqa: E402
from pdf_writer import HAN, cpu  # noqa: E402
from pdfcheck import hanzi  # noqa: E402

DEFAULT_WORK = Path(tempfile.gettempdir()) / "fanyi-pdf-corpus-run"
RENDERS = 4  # pages rendered a document: its first and the worst


def pseudo_english(text: str) -> str:
    """A Chinese text's stand-in translation: a short Latin word for each Han character, punctuation kept."""
    out = []
    for char in text:
        if "\u3400" <= char <= "\u9fff":
            out.append(" " + "tsa"[ord(char) % 3] + "en"[ord(char) % 2] + "g")
        else:
            out.append(char)
    return "".join(out).strip()


def _chinese(path: Path) -> bool:
    """Whether most of the document's first pages' letters are Han characters."""
    from pdfminer.high_level import extract_text

    sample = extract_text(path, maxpages=3)
    han = len(re.findall(r"[\u3400-\u9fff]", sample))
    return han > len(re.findall(r"[A-Za-z]", sample))


def render(source: Path, out: Path, pages: list[int], into: Path, name: str) -> list[Path]:
    import pypdfium2 as pdfium
    from PIL import Image

    made = []
    before, after = pdfium.PdfDocument(str(source)), pdfium.PdfDocument(str(out))
    for number in pages:
        left = before[number - 1].render(scale=1.5).to_pil()
        right = after[number - 1].render(scale=1.5).to_pil()
        both = Image.new("RGB", (left.width + right.width, max(left.height, right.height)), "white")
        both.paste(left, (0, 0))
        both.paste(right, (left.width, 0))
        path = into / f"{name}-p{number}.png"
        both.save(path)
        made.append(path)
    return made


def run_one(doc_id: str, source: Path, info: dict[str, object], work: Path) -> dict[str, object]:
    (work / "out").mkdir(parents=True, exist_ok=True)
    (work / "results").mkdir(parents=True, exist_ok=True)
    (work / "renders").mkdir(parents=True, exist_ok=True)
    out = work / "out" / f"{doc_id}.pdf"
    chinese = _chinese(source)
    translator = (
        metrics.StandIn(pseudo_english, "zh", "en") if chinese else metrics.StandIn(lambda t: hanzi(t, HAN), "en", "zh")
    )
    try:
        measured = metrics.measure(source, out, translator)
    except Exception as error:  # noqa: BLE001 - a harness error is recorded, the run goes on
        measured = metrics.DocumentMetrics(error=f"harness: {type(error).__name__}: {error}")
        traceback.print_exc()
    record = {**info, "id": doc_id, "chinese": chinese, **measured.as_dict()}
    if not measured.error and measured.page_metrics:
        worst = sorted(
            measured.page_metrics,
            key=lambda p: -(10 * p.overlaps + p.undeclared + 10 * p.code_translated + p.outside),
        )
        chosen = sorted({1, *(p.number for p in worst[: RENDERS - 1] if metrics_bad(p))})
        record["renders"] = [str(p) for p in render(source, out, chosen, work / "renders", doc_id)]
    (work / "results" / f"{doc_id}.json").write_text(json.dumps(record, indent=1, default=str))
    return record


def metrics_bad(page: metrics.PageMetrics) -> bool:
    return bool(page.overlaps or page.undeclared or page.code_translated or page.outside)


def _documents(args: argparse.Namespace) -> list[tuple[str, Path, dict[str, object]]]:
    if args.files:
        out = []
        for name in args.files:
            path = Path(name)
            out.append((path.stem, path, {"producer": _producer(path), "package": "", "set": "files"}))
        return out
    from pdf_corpus.corpus import default_cache, ensure, load_manifest, path_of

    docs = [doc for doc in load_manifest() if doc.set == args.set and (not args.only or doc.id in args.only)]
    cache = Path(args.cache) if args.cache else default_cache()
    for failure in ensure(docs, cache):
        print(f"{failure.doc.id}: missing: {failure.reason}")
        docs.remove(failure.doc)
    return [
        (
            doc.id,
            path_of(doc, cache),
            {"producer": doc.family, "package": doc.package, "set": doc.set, "kind": doc.kind},
        )
        for doc in docs
    ]


def _producer(path: Path) -> str:
    import pikepdf

    with pikepdf.open(path) as pdf:
        info = pdf.docinfo
        return f"{info.get('/Producer', '')} / {info.get('/Creator', '')}"


def run(args: argparse.Namespace) -> None:
    work = Path(args.work)
    print(cpu())
    for doc_id, path, info in _documents(args):
        record = run_one(doc_id, path, info, work)
        pages = record.get("pages") or 0
        seconds = float(record.get("seconds") or 0) / max(1, int(pages))
        summary = _summary([record])
        print(
            f"{doc_id}: {pages} pages, {seconds:.2f} s/page, overlaps {summary['overlaps']}, "
            f"left {summary['left_share']:.1%}, code translated {summary['code_translated']}, "
            f"outside {summary['outside']}, failed units {summary['failed_units']} {record.get('error') or ''}",
            flush=True,
        )


def _summary(records: list[dict]) -> dict[str, float]:
    pages = [p for r in records for p in r.get("page_metrics", [])]
    body = sum(p["body_letters"] for p in pages)
    left = sum(p["undeclared"] for p in pages)
    per_page = [float(r["seconds"]) / r["pages"] for r in records if r.get("pages") and not r["error"]]
    return {
        "documents": len(records),
        "pages": sum(int(r.get("pages") or 0) for r in records),
        "failed_documents": sum(bool(r.get("error")) for r in records),
        "overlaps": sum(p["overlaps"] for p in pages),
        "overlap_pages": sum(bool(p["overlaps"]) for p in pages),
        "left_share": left / body if body else 0.0,
        "declared_share": sum(sum(p["left"].values()) for p in pages) / body - left / body if body else 0.0,
        "code_translated": sum(p["code_translated"] for p in pages),
        "code_lines": sum(p["code_lines"] for p in pages),
        "outside": sum(p["outside"] for p in pages),
        "failed_units": sum(int(r.get("failed_units") or 0) for r in records),
        "seconds": statistics.median(per_page) if per_page else 0.0,
    }


def table(args: argparse.Namespace) -> None:
    records = [json.loads(p.read_text()) for p in sorted((Path(args.work) / "results").glob("*.json"))]
    groups: defaultdict[str, list[dict]] = defaultdict(list)
    for record in records:
        groups[str(record.get("producer") or "?")].append(record)
    print(
        "| producer | documents | pages | failed documents | pages with overlaps (lines) | body prose left "
        "(declared apart) | code lines translated (of) | glyphs outside | units not drawn | s a page (median) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    for name, group in [*sorted(groups.items()), ("**all**", records)]:
        s = _summary(group)
        print(
            f"| {name} | {s['documents']} | {s['pages']} | {s['failed_documents']} | {s['overlap_pages']} "
            f"({s['overlaps']}) | {s['left_share']:.1%} ({s['declared_share']:.1%}) | {s['code_translated']} "
            f"({s['code_lines']}) | {s['outside']} | {s['failed_units']} | {s['seconds']:.2f} |"
        )


def pages(args: argparse.Namespace) -> None:
    record = json.loads((Path(args.work) / "results" / f"{args.id}.json").read_text())
    print(record.get("error") or "", "\n".join(record.get("report") or []))
    for p in record["page_metrics"]:
        if p["overlaps"] or p["undeclared"] or p["code_translated"] or p["outside"]:
            share = p["undeclared"] / p["body_letters"] if p["body_letters"] else 0
            print(
                f"p{p['number']}: overlaps {p['overlaps']} {p['overlap_examples']} left {share:.0%} {p['left']} "
                f"{p['left_examples']} code {p['code_translated']}/{p['code_lines']} {p['code_examples']} "
                f"outside {p['outside']}"
            )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="command", required=True)
    go = sub.add_parser("run")
    go.add_argument("--set", default="main", choices=["main", "held-out"])
    go.add_argument("--only", nargs="*", default=[])
    go.add_argument("--files", nargs="*", default=[])
    go.add_argument("--cache", default="")
    go.add_argument("--work", default=str(DEFAULT_WORK))
    tab = sub.add_parser("table")
    tab.add_argument("--work", default=str(DEFAULT_WORK))
    one = sub.add_parser("pages")
    one.add_argument("id")
    one.add_argument("--work", default=str(DEFAULT_WORK))
    args = parser.parse_args()
    {"run": run, "table": table, "pages": pages}[args.command](args)


if __name__ == "__main__":
    main()
