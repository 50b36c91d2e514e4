"""Summaries: Fanyi's BART packs against CTranslate2 int8 on random weights of the real shapes.

    .venv/bin/python benchmarks/summaries.py prepare                  # build the models and packs (once, in --work)
    flock /work/coord/bench.lock .venv/bin/python benchmarks/summaries.py time --rounds 5
    .venv/bin/python benchmarks/summaries.py memory
    flock /work/coord/bench.lock .venv/bin/python benchmarks/summaries.py paper

Runs with the repository's own venv (the dev extra has torch, transformers and ctranslate2 4.8.5). For each of
bart-large-cnn's and distilbart-cnn-12-6's configurations (tests/tiny_models/synthetic_bart.py, with the real
sizes and a vocabulary filled to 50,265 pieces): random weights, whose summaries never end before the bound
(an </s> logit far below the rest), so that every engine decodes the same 141 steps; Fanyi's int8 pack
(fanyi.export, the catalog's conversion) and CTranslate2's (TransformersConverter, quantization int8).

- time: a 1,024-token article summarized with the pack's settings (beam 4, length penalty 2.0, 56 to 142
  tokens, no repeated 3-grams), paired and interleaved rounds (ours, CTranslate2, ours, …), 2 threads each,
  wall time and the process's CPU time (less disturbed by other processes on a shared machine); CTranslate2 is
  given <s> as the target prefix, as BART's forced first token;
- memory: the resident set of a process that has opened the pack (and after one summary), against the pack's
  bytes on disk; CTranslate2's model folder likewise;
- paper: a 20-page paper (~10,000 words, 12 sections) summarized end to end by fanyi.summaries ("short" and
  "sections"), bart-large-cnn's int8 pack, 2 threads: time, chunks.

Prints JSON lines; benchmarks/README.md and docs/measured.md keep the numbers with the CPU they came from.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
KINDS = ("bart-large-cnn", "distilbart-cnn-12-6")
ARTICLE_TOKENS = 1022  # and <s> </s>: the 1,024 positions


def folders(work: Path, kind: str) -> dict[str, Path]:
    return {name: work / f"{name}-{kind}" for name in ("hf", "ours-int8", "ct2-int8")}


def prepare(work: Path) -> None:
    from tiny_models.synthetic_bart import REAL, build_bart_folder

    from fanyi.export.convert import export_pack

    for kind in KINDS:
        f = folders(work, kind)
        if not (f["hf"] / "model.safetensors").exists():
            build_bart_folder(f["hf"], kind, sizes=REAL, fill_to=50_265, eos_bias=-50.0, linear_gain=1.0)
        if not (f["ours-int8"] / "manifest.json").exists():
            export_pack(f["hf"], f["ours-int8"], quantize="int8", name=kind)
        if not (f["ct2-int8"] / "model.bin").exists():
            import ctranslate2

            ctranslate2.converters.TransformersConverter(str(f["hf"])).convert(str(f["ct2-int8"]), quantization="int8")
        print(json.dumps({"prepared": kind}), flush=True)


def article(translator: object) -> str:
    """Corpus text of ARTICLE_TOKENS tokens of the pack's tokenizer (its lines repeated as needed)."""
    lines = [line for line in (ROOT / "assets" / "corpus" / "en.txt").read_text(encoding="utf-8").splitlines() if line]
    text, i = "", 0
    while translator.summary_tokens(text + " " + lines[i % len(lines)]) <= ARTICLE_TOKENS + 2:  # type: ignore[attr-defined]
        text = (text + " " + lines[i % len(lines)]).strip()
        i += 1
    return text


def time_engines(work: Path, rounds: int, threads: int) -> None:
    for kind in KINDS:
        time_kind(kind, folders(work, kind), rounds, threads)


def time_kind(kind: str, f: dict[str, Path], rounds: int, threads: int) -> None:
    import ctranslate2

    from fanyi.engine.options import DecodeOptions
    from fanyi.engine.translator import Translator

    summary = DecodeOptions(summary=True)
    ours = Translator.open(f["ours-int8"], threads=threads)
    ct2 = ctranslate2.Translator(str(f["ct2-int8"]), device="cpu", compute_type="int8", intra_threads=threads)
    text = article(ours)
    ids = ours.encode(text, summary)
    tokens = [ours.tokenizer.id_to_piece(i) for i in ids]
    gen = ours.pack.generation

    def run_ours() -> int:
        return len(ours.generate_ids([ids], summary)[0])

    def run_ct2() -> int:
        result = ct2.translate_batch(
            [tokens],
            target_prefix=[["<s>"]],
            beam_size=gen["num_beams"],
            length_penalty=gen["length_penalty"],
            no_repeat_ngram_size=gen["no_repeat_ngram_size"],
            min_decoding_length=gen["min_length"] - 1,
            max_decoding_length=gen["max_length"] - 1,
        )
        return len(result[0].hypotheses[0])

    run_ours(), run_ct2()  # warm: the first run allocates
    pairs = []
    for _ in range(rounds):
        times = {}
        for name, run in (("ours", run_ours), ("ct2", run_ct2)):
            started, cpu = time.perf_counter(), time.process_time()
            length = run()
            times[name] = (time.perf_counter() - started, length, time.process_time() - cpu)
        pairs.append(times)
    ratio = [p["ours"][0] / p["ct2"][0] for p in pairs]
    cpu_ratio = [p["ours"][2] / p["ct2"][2] for p in pairs]
    print(
        json.dumps(
            {
                "time": kind,
                "source_tokens": len(ids),
                "threads": threads,
                "ours_s": [round(p["ours"][0], 3) for p in pairs],
                "ct2_s": [round(p["ct2"][0], 3) for p in pairs],
                "output_tokens": [(p["ours"][1], p["ct2"][1]) for p in pairs],
                "ratio_median": round(statistics.median(ratio), 3),
                "ratio_each": [round(r, 3) for r in ratio],
                "cpu_ours_s": [round(p["ours"][2], 2) for p in pairs],
                "cpu_ct2_s": [round(p["ct2"][2], 2) for p in pairs],
                "cpu_ratio_median": round(statistics.median(cpu_ratio), 3),
            }
        ),
        flush=True,
    )


RSS_PROBE = """
import json, sys
def rss():
    for line in open("/proc/self/status"):
        if line.startswith("VmRSS"):
            return int(line.split()[1]) * 1024
engine, folder = sys.argv[1], sys.argv[2]
before = rss()
if engine == "ours":
    from fanyi.engine.options import DecodeOptions
    from fanyi.engine.translator import Translator
    t = Translator.open(folder, threads=2)
    loaded = rss()
    "".join(t.summary_stream("A short English article for one summary. " * 20))
else:
    import ctranslate2
    t = ctranslate2.Translator(folder, device="cpu", compute_type="int8", intra_threads=2)
    loaded = rss()
    t.translate_batch([["<s>", "\\u0120A", "</s>"]], beam_size=4, max_decoding_length=141, min_decoding_length=55)
print(json.dumps({"imported": before, "loaded": loaded, "after_summary": rss()}))
"""


def memory(work: Path) -> None:
    for kind in KINDS:
        f = folders(work, kind)
        for engine, folder in (("ours", f["ours-int8"]), ("ct2", f["ct2-int8"])):
            out = subprocess.run(
                [sys.executable, "-c", RSS_PROBE, engine, str(folder)], capture_output=True, text=True, check=True
            )
            probe = json.loads(out.stdout.strip().splitlines()[-1])
            size = sum(p.stat().st_size for p in folder.iterdir() if p.is_file())
            print(
                json.dumps(
                    {
                        "memory": kind,
                        "engine": engine,
                        "model_bytes": size,
                        **probe,
                        "loaded_over_model": round(probe["loaded"] / size, 3),
                        "after_summary_over_model": round(probe["after_summary"] / size, 3),
                    }
                ),
                flush=True,
            )


def paper_text() -> list[str]:
    """A 20-page paper: 12 titled sections of corpus paragraphs, ~10,000 words (~500 a page)."""
    lines = [line for line in (ROOT / "assets" / "corpus" / "en.txt").read_text(encoding="utf-8").splitlines() if line]
    paragraphs, words, i = [], 0, 0
    titles = ["Abstract", "1 Introduction", "2 Related Work", "3 Method", "4 Data", "5 Experiments", "6 Results"]
    titles += ["7 Analysis", "8 Limitations", "9 Discussion", "10 Conclusion", "References"]
    for section, title in enumerate(titles):
        paragraphs.append(title)
        while words < (section + 1) * 10_000 // len(titles):
            paragraph = " ".join(lines[(i + k) % len(lines)] for k in range(5))
            paragraphs.append(paragraph)
            words += len(paragraph.split())
            i += 5
    return paragraphs


def paper(work: Path) -> None:
    from fanyi import summaries
    from fanyi.engine.pack import ModelPack
    from fanyi.engine.translator import Translator
    from fanyi.library.installed import PackInfo

    folder = folders(work, "bart-large-cnn")["ours-int8"]
    pack = PackInfo.of(ModelPack.open(folder, verify=False), bundled=True)
    paragraphs = paper_text()
    translator = Translator.open(folder, threads=2)
    for length in (summaries.SHORT, summaries.SECTIONS):
        plan = summaries.plan([pack], paragraphs[1])
        started = time.perf_counter()
        job = summaries.summarize(paragraphs, plan, lambda _path: translator, length=length)
        steps = 0
        while True:
            try:
                event = next(job)
            except StopIteration as done:
                result = done.value
                break
            steps += isinstance(event, summaries.Progress)
        print(
            json.dumps(
                {
                    "paper": length,
                    "words": sum(len(p.split()) for p in paragraphs),
                    "seconds": round(time.perf_counter() - started, 1),
                    "chunks": result.chunks,
                    "sections": len(result.sections),
                    "summary_words": len(result.text.split()),
                }
            ),
            flush=True,
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", choices=["prepare", "time", "memory", "paper"])
    parser.add_argument("--work", type=Path, default=Path("/tmp/fanyi-summary-bench"))
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--threads", type=int, default=2)
    args = parser.parse_args()
    args.work.mkdir(parents=True, exist_ok=True)
    os.environ.setdefault("OMP_NUM_THREADS", str(args.threads))
    if args.what == "prepare":
        prepare(args.work)
    elif args.what == "time":
        time_engines(args.work, args.rounds, args.threads)
    elif args.what == "memory":
        memory(args.work)
    else:
        paper(args.work)
    return 0


if __name__ == "__main__":
    sys.exit(main())
