"""Where a decoder step's time goes: ONNX Runtime's profile of one generate call, by part of the model.

    python benchmarks/profile_step.py [--pack WORK/pack-int8] [--threads 1] [--beams 4] [--batch 20]
    PYTHONPATH=WORK/rev-REV/app python benchmarks/profile_step.py --pack WORK/rev-REV/pack-int8   # before

Runs the workload's sources (run.sh's 20 sentences, exactly 32 new tokens) twice as one batch with
ONNX Runtime's profiler on; the second call is the one reported. Each graph node is put in a part
by the weight it reads (self-attention, cross-attention, feed-forward, output projection) or by what
it does (layer norms; the top ids and log-softmax after the output projection; the embedding); the
nodes that only rescale or quantize a product (Cast, Mul, Add, DynamicQuantizeLinear, …) go with the
part whose weight they serve. "Python" is the call's wall time minus the time ONNX Runtime spent in
its runs: the search's candidate tables, beam bookkeeping and feeding the inputs.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path

import onnx

SEARCH_OPS = {
    "TopK",
    "ReduceMax",
    "GatherND",
    "GatherElements",
    "LogSoftmax",
    "If",
    "Slice",
    "Concat",
    "Squeeze",
    "Min",
    "Sub",
    "Exp",
    "Log",
    "ReduceSum",
    "ReduceLogSumExp",
}


def part_of_weight(name: str) -> str | None:
    if name.startswith("shared.embedding"):
        return "output projection"
    if ".fc1." in name or ".fc2." in name:
        return "feed-forward"
    if ".cross" in name:
        return "cross-attention"
    if any(f".{w}." in name for w in ("q", "k", "v", "self")) or ".qkv" in name:
        return "self-attention"
    return None


def classify(model: onnx.ModelProto) -> dict[str, str]:
    """Node name → part. Nodes are named here (after their first output) when the graph left them unnamed."""
    graph = model.graph
    for node in graph.node:
        node.name = node.name or node.output[0]
    producer = {out: node for node in graph.node for out in node.output}
    parts: dict[str, str] = {}
    for node in graph.node:
        weights = [part_of_weight(i) for i in node.input if i.startswith(("decoder.", "shared.embedding"))]
        if node.op_type == "Gather" and any(i.startswith("shared.") for i in node.input):
            parts[node.name] = "embedding, positions"
        elif node.op_type == "LayerNormalization":
            parts[node.name] = "layer norms"
        elif node.op_type in ("DecoderMaskedMultiHeadAttention", "MultiHeadAttention"):
            parts[node.name] = "self-attention"
        elif any(i.startswith("cross_") for i in node.input):
            parts[node.name] = "cross-attention"
        elif any(i.startswith("past_") for i in node.input):
            parts[node.name] = "self-attention"
        elif weights and weights[0]:
            parts[node.name] = weights[0]
        elif node.op_type in SEARCH_OPS and "output projection" in {
            parts.get(producer[i].name) for i in node.input if i in producer
        }:
            parts[node.name] = "top ids, log-softmax"
    # the rest take the part of what they read from (a product's rescaling) or, failing that, what reads them
    for _ in range(len(graph.node)):
        changed = False
        for node in graph.node:
            if node.name in parts:
                continue
            upstream = [parts[producer[i].name] for i in node.input if i in producer and producer[i].name in parts]
            if upstream:
                part = upstream[0]
                parts[node.name] = (
                    "top ids, log-softmax" if part == "output projection" and node.op_type in SEARCH_OPS else part
                )
                changed = True
        if not changed:
            break
    consumers = defaultdict(list)
    for node in graph.node:
        for i in node.input:
            consumers[i].append(node)
    for node in graph.node:
        if node.name not in parts:
            below = [parts.get(c.name) for out in node.output for c in consumers[out] if parts.get(c.name)]
            parts[node.name] = below[0] if below else "other"
    return parts


def event_part(node: str, op: str, parts: dict[str, str]) -> str | None:
    """The part of a profiled kernel; None for an If, whose branch's kernels are profiled themselves."""
    if op == "If":
        return None
    base = node.split("/")[0]  # ONNX Runtime names a fused node "<first node>/<fusion>/"
    if base in parts:
        return parts[base]
    if "LayerNormalization" in op:
        return "layer norms"
    if op in SEARCH_OPS or op == "LogSoftmax":  # the nodes inside the If's branch
        return "top ids, log-softmax"
    return "other"


def named_copy(pack: Path, tmp: Path) -> dict[str, str]:
    """A copy of the pack whose graphs have every node named (the manifest follows); node name → part."""
    from fanyi.engine.pack import MANIFEST, file_digest

    for item in pack.iterdir():
        if item.is_file():
            shutil.copy(item, tmp / item.name)
    manifest = json.loads((pack / MANIFEST).read_text(encoding="utf-8"))
    parts: dict[str, str] = {}
    for graph in ("encoder.onnx", "decoder.onnx"):
        model = onnx.load(pack / graph, load_external_data=False)
        parts.update(classify(model))
        onnx.save(model, tmp / graph)
        manifest["files"][graph] = file_digest(tmp / graph)
    (tmp / MANIFEST).write_text(json.dumps(manifest), encoding="utf-8")
    return parts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", type=Path, default=Path("/tmp/fanyi-bench"))
    parser.add_argument("--pack", type=Path, help="default WORK/pack-int8")
    parser.add_argument("--threads", type=int, default=1)
    parser.add_argument("--beams", type=int, default=4)
    parser.add_argument("--batch", type=int, default=20, help="sources in the one call (1: the first only)")
    parser.add_argument("--json", type=Path, help="also write the parts' times as JSON")
    args = parser.parse_args()
    pack = args.pack or args.work / "pack-int8"

    import onnxruntime as ort

    from fanyi.engine import sessions
    from fanyi.engine.options import DecodeOptions
    from fanyi.engine.pack import ModelPack
    from fanyi.engine.translator import Translator

    tmp = Path(tempfile.mkdtemp(prefix="fanyi-profile-"))
    parts = named_copy(pack, tmp)
    plain_options = sessions.session_options

    def profiled(*a, **k) -> ort.SessionOptions:
        opts = plain_options(*a, **k)
        opts.enable_profiling = True
        opts.profile_file_prefix = str(tmp / "profile")
        return opts

    sessions.session_options = profiled  # what open_session calls
    translator = Translator(ModelPack.open(tmp), threads=args.threads)
    workload = json.loads((args.work / "workload.json").read_text(encoding="utf-8"))
    sources = workload["sources"][: args.batch]
    new_tokens = 32
    options = DecodeOptions(beams=args.beams, max_new_tokens=new_tokens, min_length=new_tokens + 1)
    translator.generate_ids(sources, options)  # warm-up: the first call's allocations are not a step's cost
    start = time.perf_counter()
    translator.generate_ids(sources, options)
    wall_ms = 1000 * (time.perf_counter() - start)
    runner = translator._runner
    files = [Path(runner.encoder.end_profiling()), Path(runner.decoder.end_profiling())]

    totals: dict[str, float] = defaultdict(float)
    ort_ms = 0.0
    steps = 0
    for index, file in enumerate(files):
        events = json.loads(file.read_text())
        runs = [e for e in events if e.get("name") == "model_run"]
        measured = runs[len(runs) // 2 :]  # the second call's runs
        since = measured[0]["ts"]
        ort_ms += sum(e["dur"] for e in measured) / 1000
        if index == 1:
            steps = len(measured)
        for e in events:
            if e.get("cat") == "Node" and e["name"].endswith("_kernel_time") and e["ts"] >= since:
                part = (
                    "encoder"
                    if index == 0
                    else event_part(e["name"][: -len("_kernel_time")], e["args"].get("op_name", ""), parts)
                )
                if part:
                    totals[part] += e["dur"] / 1000
    kernels = sum(totals.values())
    totals["ONNX Runtime outside the kernels"] = ort_ms - kernels
    totals["Python (search, feeding)"] = wall_ms - ort_ms
    print(
        f"{pack.name}: {len(sources)} source(s), beam {args.beams}, {args.threads} thread(s): "
        f"{wall_ms:,.0f} ms, {steps} decoder steps ({wall_ms / max(steps, 1):.1f} ms per step)"
    )
    for part, ms in sorted(totals.items(), key=lambda kv: -kv[1]):
        print(f"  {part:34s} {ms:8.1f} ms  {100 * ms / wall_ms:5.1f} %")
    if args.json:
        args.json.write_text(json.dumps({"wall_ms": wall_ms, "steps": steps, "parts_ms": totals}, indent=1))


if __name__ == "__main__":
    os.environ.setdefault("ORT_DISABLE_TELEMETRY", "1")
    sys.exit(main())
