"""The dictionary (issue 33): convert a 770k-entry file of ECDICT's CSV shape, then time opening and lookups.

    .venv/bin/python benchmarks/dictionary.py                      # generate, convert, measure (~1 min)
    .venv/bin/python benchmarks/dictionary.py --csv ecdict.csv     # ECDICT's own CSV, where it was downloaded
    .venv/bin/python benchmarks/dictionary.py --generate-only out.csv

No network and no data from ECDICT: the generated file has the repository CSV's 13 columns, header and
escaping (``\\n`` in text fields, empty numbers), its row count (770,612 is what public notes count in
ecdict.csv; its README says 76万) and about its size (~65 MB reported for the real file, ~85 bytes a row).
How the fields are filled is an assumption stated in ``SHAPE`` (the real distributions were not measured
here, only the file's size per row): a quarter of the entries are phrases of 2-3 words; half have a
phonetic; every entry has 1-3 lines of Chinese senses with a part-of-speech label; 30 % have an English
definition; a tenth have a frequency rank or word forms. That makes ~85 bytes a row, as the real file has.
Words are made of syllables, so that keys, sw keys and the index behave as with words.

Each timing is the median (and the 99th percentile, and the slowest) of 500 lookups of each kind, taken
after a warm-up of 20 (the file in the OS cache, as it is after the first lookups of a session); "cold" is
the first open of the process (the file just written, so in the OS cache: a first open after a reboot
reads a few pages from the disk more).
"""

from __future__ import annotations

import argparse
import csv
import io
import json
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "app"))

from fanyi.dictionary import Dictionary  # noqa: E402
from fanyi.dictionary.build import convert  # noqa: E402

ENTRIES = 770_612
HEADER = "word,phonetic,definition,translation,pos,collins,oxford,tag,bnc,frq,exchange,detail,audio"
SHAPE = {
    "phrases": 0.25,  # entries of 2-3 words
    "phonetic": 0.50,
    "definition": 0.30,
    "ranked": 0.10,  # bnc and frq ranks
    "forms": 0.10,  # an exchange field
    "tags": 0.03,
    "collins": 0.04,
}
SYLLABLES = [c + v for c in "bcdfghjklmnprstvwz" for v in ("a", "e", "i", "o", "u", "ai", "ou", "ea")] + [
    "str",
    "tion",
    "ing",
    "er",
    "ly",
]
HAN = (
    "的一是在不了有和人这中大为上个国我以要他时来用们生到作地于出就分对成会可主发年动同工也能下过子说产种面而方后多定行学法所民得经十三之进着等部度家电力里如水化高自二理起小物现实加量都两体制机当使点从业本"
    "去把性好应开它合还因由其些然前外天政四日那社义事平形相全表间样与关各重新线内数正心反你明看原又么利比或但质气第向道命此变条只没结解问意建月公无系军很情者最立代想已通并提直题党程展五果料象员革位入常文总"
    "次品式活设及管特件长求老头基资边流路级少图山统接知较将组见计别她手角期根论运农指几九区强放决西被干做必战先回则任取据处队南给色光门即保治北造百规热领七海口东导器压志世金增争济阶油思术极交受联什认六共权"
    "收证改清己美再采转更单风切打白教速花带安场身车例真务具万每目至达走积示议声报斗完类八离华名确才科张信马节话米整空元况今集温传土许步群广石记需段研界拉林律叫且究观越织装影算低持音众书布复容儿须际商非验连"
    "断深难近矿千周委素技备半办青省列习响约支般史感劳便团往酸历市克何除消构府称太准精值号率族维划选标写存候毛亲快效斯院查江型眼王按格养易置派层片始却专状育厂京识适属圆包火住调满县局照参红细引听该铁价严"
)
POS = ("n.", "v.", "vt.", "vi.", "a.", "adv.", "prep.")
FORM_KINDS = ("p", "d", "i", "3", "s")


def _word(rng: random.Random) -> str:
    return "".join(rng.choice(SYLLABLES) for _ in range(rng.choice((1, 2, 2, 3, 3, 4))))


def _senses(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.choice((1, 1, 2, 3))):
        items = ["".join(rng.choice(HAN) for _ in range(rng.choice((1, 2, 2, 3)))) for _ in range(rng.randint(1, 3))]
        lines.append(f"{rng.choice(POS)} {'；'.join(items)}")
    return "\\n".join(lines)


def generate(path: Path, entries: int = ENTRIES, seed: int = 33) -> Path:
    """A CSV of ECDICT's shape with `entries` rows (see the module docstring)."""
    rng = random.Random(seed)
    seen: set[str] = set()
    with open(path, "w", encoding="utf-8", newline="") as f:
        f.write(HEADER + "\r\n")
        writer = csv.writer(f)
        while len(seen) < entries:
            words = [_word(rng) for _ in range(rng.choice((2, 3)) if rng.random() < SHAPE["phrases"] else 1)]
            word = " ".join(words)
            if word.lower() in seen:
                continue
            seen.add(word.lower())
            ranked = rng.random() < SHAPE["ranked"]
            forms = ""
            if rng.random() < SHAPE["forms"] and len(words) == 1:
                forms = "/".join(f"{k}:{word}{s}" for k, s in zip(FORM_KINDS, ("ed", "ed", "ing", "s", "s")))
            writer.writerow(
                [
                    word,
                    "".join(rng.choice("əɪʊæɒʌθðʃʒŋ'abdefgiklmnoprstuvwz") for _ in range(len(word)))
                    if rng.random() < SHAPE["phonetic"]
                    else "",
                    f"n. {' '.join(_word(rng) for _ in range(rng.randint(3, 9)))}"
                    if rng.random() < SHAPE["definition"]
                    else "",
                    _senses(rng),
                    "",
                    rng.randint(1, 5) if rng.random() < SHAPE["collins"] else "",
                    "",
                    " ".join(rng.sample(("zk", "gk", "cet4", "cet6", "ky", "toefl", "ielts", "gre"), 2))
                    if rng.random() < SHAPE["tags"]
                    else "",
                    rng.randint(1, 200_000) if ranked else 0,
                    rng.randint(1, 200_000) if ranked else 0,
                    forms,
                    "",
                    "",
                ]
            )
    return path


def _median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 3)


def measure(csv_path: Path, work: Path) -> dict[str, object]:
    out = work / "ecdict.sqlite"
    started = time.monotonic()
    built = convert(csv_path, out, meta={"id": "ecdict"})
    conversion_s = time.monotonic() - started

    t = time.perf_counter()
    dictionary = Dictionary.open(out)
    cold_open = time.perf_counter() - t
    opens = []
    for _ in range(50):
        t = time.perf_counter()
        Dictionary.open(out)
        opens.append(time.perf_counter() - t)

    rng = random.Random(7)
    with open(csv_path, encoding="utf-8", newline="") as f:
        rows = list(csv.reader(f))[1:]
    words = [r[0] for r in rng.sample(rows, 2000)]
    kinds = {
        "exact (a headword)": words[:500],
        "any case": [w.upper() for w in words[500:1000]],
        "fuzzy (hyphenated)": [w.replace(" ", "-") + "-" for w in words[1000:1500]],
        "not found": [w + "qx" for w in words[1500:2000]],
        "Chinese → English": [r[3].split("\\n")[0].split(" ", 1)[1].split("；")[0] for r in rng.sample(rows, 500)],
    }
    lookups: dict[str, float] = {}
    found: dict[str, int] = {}
    for name, queries in kinds.items():
        for q in queries[:20]:  # warm-up
            dictionary.lookup(q)
        times, cpu = [], []
        hits = 0
        for q in queries:
            t, c = time.perf_counter(), time.thread_time()
            hits += dictionary.lookup(q) is not None
            cpu.append(time.thread_time() - c)
            times.append(time.perf_counter() - t)
        lookups[name] = _median_ms(times)
        lookups[name + " (p99)"] = round(sorted(times)[len(times) * 99 // 100] * 1000, 3)
        lookups[name + " (max)"] = round(max(times) * 1000, 3)
        # CPU time: what the lookup costs, without the waits for a CPU that a busy machine adds to the wall time
        lookups[name + " (CPU p99)"] = round(sorted(cpu)[len(cpu) * 99 // 100] * 1000, 3)
        found[name] = hits
    return {
        "entries": built.entries,
        "csv_bytes": csv_path.stat().st_size,
        "dictionary_bytes": out.stat().st_size,
        "conversion_s": round(conversion_s, 1),
        "open_ms_cold": round(cold_open * 1000, 3),
        "open_ms": _median_ms(opens),
        "lookup_ms": lookups,
        "found": found,
    }


def machine() -> dict[str, str]:
    cpu = platform.processor()
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True, check=True).stdout.splitlines():
            if line.startswith(("Model name", "Flags")):
                key, _, value = line.partition(":")
                if key.startswith("Model name"):
                    cpu = value.strip()
                elif "avx512_vnni" in value:
                    cpu += " (AVX-512 VNNI)"
    except (OSError, subprocess.CalledProcessError):
        pass
    load = " ".join(f"{x:.2f}" for x in os.getloadavg()) if hasattr(os, "getloadavg") else "?"
    return {"cpu": cpu, "cpus": str(os.cpu_count()), "load_before": load, "python": platform.python_version()}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--csv", type=Path, help="convert this ECDICT CSV instead of a generated one")
    parser.add_argument("--entries", type=int, default=ENTRIES)
    parser.add_argument("--generate-only", type=Path, metavar="OUT.csv")
    parser.add_argument("--work", type=Path, help="folder for the files (default: a temporary one)")
    args = parser.parse_args()
    if args.generate_only:
        generate(args.generate_only, args.entries)
        return 0
    with tempfile.TemporaryDirectory(prefix="fanyi-dict-bench-") as tmp:
        work = args.work or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        info = machine()
        source = args.csv or generate(work / "ecdict-shape.csv", args.entries)
        result = {**info, **measure(source, work)}
        result["load_after"] = " ".join(f"{x:.2f}" for x in os.getloadavg())
    out = io.StringIO()
    json.dump(result, out, ensure_ascii=False, indent=2)
    print(out.getvalue())
    return 0


if __name__ == "__main__":
    sys.exit(main())
