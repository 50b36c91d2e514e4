"""What a translated PDF costs besides the translation: time per page to read and to write, and the output's size.

    .venv/bin/python benchmarks/pdf_writer.py                     # 20-page paper and 200-page manual, 3 rounds
    .venv/bin/python benchmarks/pdf_writer.py --rounds 5 --work /tmp/fanyi-pdf-bench

The documents come from pdf_documents.py (made once in --work). A stand-in translator answers at once with
Chinese of a realistic length and variety (two Han characters a word, from GB 2312's 3,755 common ones), so
the times are the PDF work alone: reading (pdfminer's interpretation, the layout into paragraphs) and writing
(removing the text, fitting and drawing the translation, subsetting the font, saving). The two documents are
timed in turn, round after round, in one process: a slower minute of the machine falls on both. Printed: the
machine, then per document the median seconds a page of each phase over the rounds, and the output's size
against the input's, with the embedded font's subset counted apart.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent / "app"), str(HERE), str(HERE.parent / "tests" / "documents" / "pdf")]

# GB 2312's first level, the 3,755 most used Han characters: a translation of many pages uses a few thousand
HAN = "".join(
    bytes([high, low]).decode("gb2312")
    for high in range(0xB0, 0xD8)
    for low in range(0xA1, 0xFF)
    if (high, low) < (0xD7, 0xFA)
)


def cpu() -> str:
    name = platform.processor() or platform.machine()
    flags = ""
    try:
        info = Path("/proc/cpuinfo").read_text()
        name = next(
            (line.split(":", 1)[1].strip() for line in info.splitlines() if line.startswith("model name")), name
        )
        found = set(next((line.split(":", 1)[1].split() for line in info.splitlines() if line.startswith("flags")), []))
        flags = "AVX-512 VNNI" if "avx512_vnni" in found else "AVX2" if "avx2" in found else ""
    except OSError:
        pass
    return f"{name} ({flags}), {os.cpu_count()} CPUs, load {os.getloadavg()[0]:.2f}"


def measure(path: Path, out: Path) -> dict[str, float]:
    import pikepdf

    from fanyi.documents.pdf.document import PdfDocument

    began = time.perf_counter()
    document = PdfDocument(path)
    read = time.perf_counter() - began
    from pdfcheck import hanzi  # the tests' stand-in translator

    translations = iter([hanzi(unit.text, HAN) if unit.keep is None else None for unit in document.units()])
    began = time.perf_counter()
    with out.open("wb") as handle:
        document.write(handle, translations, bilingual=False, target_lang="zh")
    written = time.perf_counter() - began
    with pikepdf.open(out) as pdf:
        font = next(
            (len(obj.read_raw_bytes()) for obj in pdf.objects if isinstance(obj, pikepdf.Stream) and "/Length1" in obj),
            0,
        )
    pages = len(document.pages)
    return {
        "pages": pages,
        "read": read / pages,
        "write": written / pages,
        "input": path.stat().st_size,
        "output": out.stat().st_size,
        "font": font,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "fanyi-pdf-bench")
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    import pdf_documents

    documents = {
        "paper (20 pages, two columns)": args.work / "paper.pdf",
        "manual (200 pages)": args.work / "manual.pdf",
    }
    if not all(path.is_file() for path in documents.values()):
        pdf_documents.main(["--out", str(args.work)])
    print(cpu())
    results: dict[str, list[dict[str, float]]] = {name: [] for name in documents}
    for _ in range(args.rounds):
        for name, path in documents.items():
            results[name].append(measure(path, args.work / f"{path.stem}.zh.pdf"))
    print("| document | read, s a page | write, s a page | input | output | font subset | output − font / input |")
    print("|---|---|---|---|---|---|---|")
    for name, runs in results.items():
        read = statistics.median(r["read"] for r in runs)
        write = statistics.median(r["write"] for r in runs)
        last = runs[-1]
        ratio = (last["output"] - last["font"]) / last["input"]
        print(
            f"| {name} | {read:.3f} | {write:.3f} | {last['input'] / 1e6:.2f} MB | {last['output'] / 1e6:.2f} MB "
            f"| {last['font'] / 1e6:.2f} MB | {ratio:.2f}× |"
        )


if __name__ == "__main__":
    main()
