"""Bursts on the local API as translation tools send them: 512 one-sentence requests at once, and 100 clients
sending without a pause, against `fanyi serve` of this working tree and of another revision (default: main),
in paired rounds.

    python benchmarks/api_burst.py [--pack DIR] [--work /tmp/fanyi-bench] [--rev main] [--rounds 3]
                                   [--burst 512] [--clients 100] [--seconds 30] [--out FILE]

Run it with the repository's .venv, and for numbers to keep, while holding the benchmark lock
(`flock /work/coord/bench.lock python benchmarks/api_burst.py`). The pack is api_load.py's: the int8 pack of
document_model.py's copying model, opus-mt-en-zh's exact shape and cost per decoder step, which ends a
sentence after as many steps as it has tokens as a real model does (a model of random weights would decode to
the 512-token limit every time). The other revision's `app/` is taken from git into --work and run from there
on the same pack. Each round starts each server in turn (the order reversed every other round), warms it with
five requests, then:

1. burst: --burst connections, opened first, each sends one LibreTranslate request with a sentence no earlier
   request had, all at the same moment: requests answered per second (from the first sent to the last
   answered) and the latency of each answered one (p50, p95);
2. concurrent: --clients clients, each sending such requests one after the other for --seconds (api_load.py's
   crowd, with its /languages probe).

Prints a Markdown report (the median over the rounds, and each round's numbers); --out writes them as JSON.
Linux only (api_load.py reads /proc). It contacts nothing but the servers it starts on 127.0.0.1.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import subprocess
import sys
import tarfile
import threading
import time
from io import BytesIO
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))

from api_load import HOST, Connection, Record, copy_pack, cpu_name, crowd, libre  # noqa: E402

TREE = "this tree"


def app_of(rev: str, work: Path) -> Path:
    """The app/ folder of a git revision, extracted once into work/rev-<sha>/."""
    sha = subprocess.run(["git", "rev-parse", rev], cwd=REPO, capture_output=True, text=True, check=True).stdout
    folder = work / f"rev-{sha.strip()[:12]}"
    if not (folder / "app" / "fanyi").is_dir():
        archive = subprocess.run(["git", "archive", sha.strip(), "app"], cwd=REPO, capture_output=True, check=True)
        with tarfile.open(fileobj=BytesIO(archive.stdout)) as tar:
            tar.extractall(folder, filter="data")
    return folder / "app"


def start(pack: Path, app: Path | None) -> tuple[subprocess.Popen, int]:
    """`fanyi serve` of this tree (app None) or of an extracted app/ folder, on a free port."""
    env = {**os.environ, "PYTHONUNBUFFERED": "1"}
    if app is not None:
        env["PYTHONPATH"] = str(app)
    command = [sys.executable, "-m", "fanyi", "serve", "--model", str(pack), "--host", HOST, "--port", "0"]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=env)
    first = server.stdout.readline()
    if not first.startswith("Fanyi serves http://"):
        server.kill()
        raise SystemExit(f"fanyi serve did not start: {first!r}")
    threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()  # its access log
    return server, int(first.split()[2].rsplit(":", 1)[1])


async def burst(port: int, count: int) -> dict:
    connections = [Connection(port) for _ in range(count)]
    for conn in connections:  # the burst times requests, not TCP handshakes
        conn.reader, conn.writer = await asyncio.open_connection(HOST, port)
    record = Record()

    async def one(conn: Connection) -> None:
        sent = time.perf_counter()
        try:
            status, headers, _ = await libre(conn)
        except (OSError, asyncio.IncompleteReadError):
            record.failures += 1
            return
        finally:
            conn.close()
        record.add(status, headers, time.perf_counter() - sent)

    started = time.perf_counter()
    await asyncio.gather(*(one(conn) for conn in connections))
    elapsed = time.perf_counter() - started
    summary = record.summary(elapsed)
    summary["answered_per_second"] = round(summary["ok"] / elapsed, 1)
    summary["seconds"] = round(elapsed, 2)
    return summary


async def measure(port: int, args: argparse.Namespace) -> dict:
    warm = Connection(port)
    for _ in range(5):
        await libre(warm)
    warm.close()
    return {"burst": await burst(port, args.burst), "concurrent": await crowd(port, args.clients, args.seconds)}


def run(args: argparse.Namespace) -> dict:
    work = Path(args.work)
    pack = Path(args.pack) if args.pack else copy_pack(work)
    servers = {TREE: None, args.rev: app_of(args.rev, work)}
    rounds: dict[str, list[dict]] = {name: [] for name in servers}
    load_before = os.getloadavg()
    for n in range(args.rounds):
        order = list(servers) if n % 2 == 0 else list(reversed(servers))
        for name in order:
            server, port = start(pack, servers[name])
            try:
                rounds[name].append(asyncio.run(measure(port, args)))
            finally:
                server.terminate()
                server.wait(30)
            print(f"round {n + 1}, {name}: {json.dumps(rounds[name][-1]['burst'])}", file=sys.stderr)
    return {
        "cpu": cpu_name(),
        "load_average_before": [round(x, 1) for x in load_before],
        "load_average_after": [round(x, 1) for x in os.getloadavg()],
        "pack": pack.name,
        "rev": args.rev,
        "burst_size": args.burst,
        "clients": args.clients,
        "seconds": args.seconds,
        "rounds": rounds,
    }


def report(results: dict) -> str:
    lines = [
        f"CPU: {results['cpu']}; load average before {results['load_average_before']}, after "
        f"{results['load_average_after']}; pack: {results['pack']}; {len(results['rounds'][TREE])} paired rounds.",
        "",
        f"| server | burst of {results['burst_size']}: answered/s | 2xx | other statuses | no answer | p50 ms | "
        f"p95 ms | {results['clients']} clients, {results['seconds']} s: requests/s | 2xx | other statuses | "
        "p50 ms | p95 ms |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for name, runs in results["rounds"].items():
        b = [r["burst"] for r in runs]
        c = [r["concurrent"]["translate"] for r in runs]

        def med(values: list, key: str) -> object:
            found = [v[key] for v in values if v[key] is not None]
            return round(statistics.median(found), 1) if found else "–"

        def others(values: list) -> str:
            merged: dict[str, int] = {}
            for v in values:
                for status, n in v["statuses"].items():
                    if not 200 <= int(status) < 300:
                        merged[str(status)] = merged.get(str(status), 0) + n
            return ", ".join(f"{n} × {s}" for s, n in sorted(merged.items())) or "none"

        lines.append(
            f"| {name} | {med(b, 'answered_per_second')} | {med(b, 'ok')} | {others(b)} | {med(b, 'failures')} | "
            f"{med(b, 'p50_ms')} | {med(b, 'p95_ms')} | {med(c, 'per_second')} | {med(c, 'ok')} | {others(c)} | "
            f"{med(c, 'p50_ms')} | {med(c, 'p95_ms')} |"
        )
    lines += ["", "Medians over the rounds; other statuses and no-answers summed over them."]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pack", help="a pack folder (default: the copying opus-mt-en-zh-sized int8 pack)")
    parser.add_argument("--work", default="/tmp/fanyi-bench")
    parser.add_argument("--rev", default="main", help="the revision to compare this tree with (default: main)")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--burst", type=int, default=512)
    parser.add_argument("--clients", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=30.0)
    parser.add_argument("--out", help="also write the raw numbers here (JSON)")
    args = parser.parse_args()
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(1))  # a stopped run stops its server too (finally blocks)
    results = run(args)
    print(report(results))
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
