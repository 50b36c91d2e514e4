"""One engine's decoding counted in instructions, run by tests/test_speed_guard.py under valgrind.

    valgrind --tool=callgrind --instr-atstart=no ... python tests/speed_guard_worker.py ours PACK
    valgrind --tool=callgrind --instr-atstart=no ... python tests/speed_guard_worker.py ct2 CT2_FOLDER

Both engines get the same source ids and decode exactly NEW_TOKENS tokens per row (end of sequence held
off by a minimum length), one thread, after an uncounted warm-up; each configuration of CONFIGS is one
counted piece of work (instruction_counts.ClientRequests). It prints one JSON line: the instruction sets
its libraries see (numpy reads CPUID as ONNX Runtime and MKL do) and every row's length.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path

from instruction_counts import client_requests

NEW_TOKENS = 10
# Configuration name → (beams, sources per call)
CONFIGS = {"greedy-b1": (1, 1), "beam4-b1": (4, 1), "beam4-batch": (4, 0)}


def ours(pack: Path) -> Callable[[list[list[int]], int], list[list[int]]]:
    from fanyi.engine import DecodeOptions, Translator

    translator = Translator.open(pack, threads=1)
    options = {b: DecodeOptions(beams=b, max_new_tokens=NEW_TOKENS, min_length=NEW_TOKENS + 1) for b in (1, 4)}

    def generate(sources: list[list[int]], beams: int) -> list[list[int]]:
        return translator.generate_ids(sources, options[beams])

    return generate


def ctranslate2_engine(folder: Path, eos: int) -> Callable[[list[list[int]], int], list[list[int]]]:
    import ctranslate2

    tokens = json.loads((folder / "shared_vocabulary.json").read_text(encoding="utf-8"))
    ids = {token: i for i, token in enumerate(tokens)}
    # when the model adds </s> to a source itself, the ids go without theirs (the same source length)
    strip = json.loads((folder / "config.json").read_text(encoding="utf-8")).get("add_source_eos", False)
    model = ctranslate2.Translator(str(folder), device="cpu", compute_type="int8", intra_threads=1, inter_threads=1)

    def generate(sources: list[list[int]], beams: int) -> list[list[int]]:
        results = model.translate_batch(
            [[tokens[i] for i in source if not (strip and i == eos)] for source in sources],
            beam_size=beams,
            max_batch_size=len(sources),
            max_decoding_length=NEW_TOKENS,
            min_decoding_length=NEW_TOKENS,
            return_end_token=True,
        )
        return [[ids[t] for t in r.hypotheses[0]] for r in results]

    return generate


def cpu_seen() -> dict[str, bool]:
    from numpy._core._multiarray_umath import __cpu_features__ as features

    return {name: bool(features.get(name)) for name in ("AVX2", "FMA3", "AVX512F", "AVX512VNNI")}


def main() -> None:
    engine, folder = sys.argv[1], Path(sys.argv[2])
    workload = json.loads(Path(sys.argv[3]).read_text(encoding="utf-8"))
    sources: list[list[int]] = workload["sources"]
    generate = ours(folder) if engine == "ours" else ctranslate2_engine(folder, workload["eos"])
    requests = client_requests()
    for beams in (1, 4):  # warm-up: first-call allocations are no step's cost
        generate(sources[:2], beams)
    lengths = []
    for name, (beams, per_call) in CONFIGS.items():
        calls = [sources[i : i + per_call] for i in range(0, len(sources), per_call)] if per_call else [sources]
        with requests.counting(name):
            outputs = [row for call in calls for row in generate(call, beams)]
        lengths += [len(row) for row in outputs]
    print(json.dumps({"cpu": cpu_seen(), "lengths": lengths, "new_tokens": NEW_TOKENS}))


if __name__ == "__main__":
    main()
