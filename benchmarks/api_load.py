"""Load on the local API (issue 21): `fanyi serve` on 127.0.0.1 under clients that do not back off.

    python benchmarks/api_load.py [--pack DIR] [--work /tmp/fanyi-bench] [--short] [--mixed-minutes M] [--out FILE]

Run it with a Python that has Fanyi's dev extra (the repository's .venv). Without --pack it builds,
once, the int8 pack of benchmarks/document_model.py's copying model: opus-mt-en-zh's exact shape
and cost per step, which "translates" a sentence in as many steps as it has tokens, as a real model
does (a random model would loop to 512 tokens on every request). It then starts `fanyi serve` on a
free port of 127.0.0.1 (nothing else is contacted) and runs, each bounded in time:

1. single: one client, sequential requests: the time of one request alone;
2. crowd-20: 20 clients sending translations with no pause for 60 s (--short: 20 s), while one more
   client asks /languages every 100 ms;
3. crowd-100: 100 such clients for 30 s (--short: 15 s), the /languages probe again;
4. idle-200: 200 sockets that connect and send nothing, and one real request meanwhile;
5. mixed: 10 minutes (--short: 2) of every endpoint (LibreTranslate, DeepL, DeepLX, /detect, /stream,
   /languages, HTML) from 8 clients, the server's RSS read from /proc every second.

Every translation request carries a sentence no earlier request had (the server's sentence cache
would otherwise answer it). The client is plain asyncio over HTTP/1.1 keep-alive (wrk cannot run the
probe, the idle sockets, the RSS readings and a per-status count with Retry-After in one run); the
model, not the client, bounds the rate here. Prints a Markdown report; --out also writes the raw
numbers as JSON. Linux only (/proc).
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import json
import os
import platform
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
HOST = "127.0.0.1"
_unique = itertools.count(1)


# --- a small HTTP/1.1 client ----------------------------------------------------------------------
class Connection:
    """One keep-alive connection; reconnects when the server closed it."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def request(
        self, method: str, path: str, body: bytes = b"", headers: dict[str, str] | None = None
    ) -> tuple[int, dict[str, str], bytes]:
        for attempt in range(2):  # the server may have closed an idle keep-alive connection
            if self.writer is None:
                self.reader, self.writer = await asyncio.open_connection(HOST, self.port)
            try:
                return await self._exchange(method, path, body, headers or {})
            except (ConnectionError, asyncio.IncompleteReadError):
                self.close()
                if attempt:
                    raise
        raise AssertionError("unreachable")

    async def _exchange(self, method, path, body, headers):
        head = [f"{method} {path} HTTP/1.1", f"Host: {HOST}:{self.port}", f"Content-Length: {len(body)}"]
        head += [f"{name}: {value}" for name, value in headers.items()]
        self.writer.write(("\r\n".join(head) + "\r\n\r\n").encode() + body)
        await self.writer.drain()
        status_line = await self.reader.readuntil(b"\r\n")
        status = int(status_line.split()[1])
        found: dict[str, str] = {}
        while (line := await self.reader.readuntil(b"\r\n")) != b"\r\n":
            name, _, value = line.decode("latin-1").partition(":")
            found[name.strip().lower()] = value.strip()
        if found.get("transfer-encoding") == "chunked":
            chunks = []
            while size := int((await self.reader.readuntil(b"\r\n")).strip(), 16):
                chunks.append(await self.reader.readexactly(size))
                await self.reader.readexactly(2)
            await self.reader.readexactly(2)
            content = b"".join(chunks)
        else:
            content = await self.reader.readexactly(int(found.get("content-length", "0")))
        if found.get("connection") == "close":
            self.close()
        return status, found, content

    def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
        self.reader = self.writer = None


# --- requests -------------------------------------------------------------------------------------
def sentence() -> str:
    n = next(_unique)
    return f"The weather in town number {n} is fine today, and the station is {n % 97} minutes away."


def libre(conn: Connection):
    body = json.dumps({"q": sentence(), "source": "en", "target": "zh"}).encode()
    return conn.request("POST", "/translate", body, {"Content-Type": "application/json"})


MIXED = [
    libre,
    lambda c: c.request(
        "POST",
        "/v2/translate",
        json.dumps({"text": [sentence(), sentence()], "target_lang": "ZH"}).encode(),
        {"Content-Type": "application/json", "Authorization": "DeepL-Auth-Key x"},
    ),
    lambda c: c.request(
        "POST",
        "/translate",
        json.dumps({"text": sentence(), "target_lang": "ZH-HANT"}).encode(),
        {"Content-Type": "application/json"},
    ),
    lambda c: c.request(
        "POST",
        "/translate",
        json.dumps({"q": f"<p>{sentence()} <b>{sentence()}</b></p>", "target": "zh", "format": "html"}).encode(),
        {"Content-Type": "application/json"},
    ),
    lambda c: c.request(
        "POST", "/stream", json.dumps({"q": sentence(), "target": "zh"}).encode(), {"Content-Type": "application/json"}
    ),
    lambda c: c.request(
        "POST", "/detect", json.dumps({"q": sentence()}).encode(), {"Content-Type": "application/json"}
    ),
    lambda c: c.request("GET", "/languages"),
]


@dataclass
class Record:
    latencies: list[float] = field(default_factory=list)  # of answered (2xx) requests, seconds
    statuses: dict[int, int] = field(default_factory=dict)
    without_retry_after: int = 0  # 429/503 answers that lacked Retry-After
    failures: int = 0  # no answer at all (connection errors)

    def add(self, status: int, headers: dict[str, str], seconds: float) -> None:
        self.statuses[status] = self.statuses.get(status, 0) + 1
        if 200 <= status < 300:
            self.latencies.append(seconds)
        elif status in (429, 503) and "retry-after" not in headers:
            self.without_retry_after += 1

    def summary(self, elapsed: float) -> dict:
        ok = sorted(self.latencies)
        answered = sum(self.statuses.values())
        return {
            "requests": answered,
            "per_second": round(answered / elapsed, 1),
            "ok": len(ok),
            "statuses": dict(sorted(self.statuses.items())),
            "failures": self.failures,
            "without_retry_after": self.without_retry_after,
            "p50_ms": _ms(_percentile(ok, 50)),
            "p95_ms": _ms(_percentile(ok, 95)),
            "p99_ms": _ms(_percentile(ok, 99)),
            "max_ms": _ms(ok[-1] if ok else None),
        }


def _percentile(values: list[float], p: float) -> float | None:
    if not values:
        return None
    return values[min(len(values) - 1, round(p / 100 * (len(values) - 1)))]


def _ms(seconds: float | None) -> float | None:
    return None if seconds is None else round(seconds * 1000, 1)


async def _client(port: int, until: float, choose, record: Record, pause: float = 0.0) -> None:
    conn = Connection(port)
    turn = 0
    while time.monotonic() < until:
        make = choose(turn)
        turn += 1
        started = time.perf_counter()
        try:
            status, headers, _ = await make(conn)
        except (OSError, asyncio.IncompleteReadError):
            record.failures += 1
            conn.close()
            await asyncio.sleep(0.05)
            continue
        record.add(status, headers, time.perf_counter() - started)
        if pause:
            await asyncio.sleep(pause)
    conn.close()


async def crowd(port: int, clients: int, seconds: float) -> dict:
    until = time.monotonic() + seconds
    load, probe = Record(), Record()
    started = time.monotonic()
    await asyncio.gather(
        *(_client(port, until, lambda _turn: libre, load) for _ in range(clients)),
        _client(port, until, lambda _turn: lambda c: c.request("GET", "/languages"), probe, 0.1),
    )
    elapsed = time.monotonic() - started
    return {
        "clients": clients,
        "seconds": round(elapsed, 1),
        "translate": load.summary(elapsed),
        "languages_probe": probe.summary(elapsed),
    }


async def single(port: int, count: int) -> dict:
    record = Record()
    conn = Connection(port)
    started = time.monotonic()
    for _ in range(count):
        t = time.perf_counter()
        status, headers, _ = await libre(conn)
        record.add(status, headers, time.perf_counter() - t)
    conn.close()
    return record.summary(time.monotonic() - started)


async def idle_sockets(port: int, count: int) -> dict:
    sockets = [await asyncio.open_connection(HOST, port) for _ in range(count)]
    await asyncio.sleep(1.0)
    record = Record()
    conn = Connection(port)
    for _ in range(5):
        t = time.perf_counter()
        status, headers, _ = await conn.request("GET", "/languages")
        record.add(status, headers, time.perf_counter() - t)
    t = time.perf_counter()
    status, headers, _ = await libre(conn)
    translate_ms = _ms(time.perf_counter() - t)
    conn.close()
    for _, writer in sockets:
        writer.close()
    return {
        "idle_sockets": count,
        "languages": record.summary(1.0),
        "translate_status": status,
        "translate_ms": translate_ms,
    }


async def mixed(port: int, pid: int, seconds: float, clients: int = 8) -> dict:
    until = time.monotonic() + seconds
    record = Record()
    rss: list[tuple[float, int]] = []

    async def sample() -> None:
        start = time.monotonic()
        while time.monotonic() < until:
            rss.append((round(time.monotonic() - start, 1), _rss_kib(pid)))
            await asyncio.sleep(1.0)

    started = time.monotonic()
    await asyncio.gather(
        sample(),
        *(_client(port, until, lambda turn, k=k: MIXED[(turn + k) % len(MIXED)], record) for k in range(clients)),
    )
    elapsed = time.monotonic() - started
    settled = [kib for t, kib in rss if t >= min(30.0, elapsed / 4)]  # after the first requests warmed it up
    return {
        "seconds": round(elapsed, 1),
        "clients": clients,
        "all": record.summary(elapsed),
        "rss_start_mib": round(settled[0] / 1024, 1),
        "rss_end_mib": round(settled[-1] / 1024, 1),
        "rss_max_mib": round(max(settled) / 1024, 1),
        "rss_growth_mib": round((settled[-1] - settled[0]) / 1024, 1),
    }


def _rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


# --- the server and the pack ----------------------------------------------------------------------
def copy_pack(work: Path) -> Path:
    """The int8 pack of the copying opus-mt-en-zh-sized model (built once; prepare.py's stamps)."""
    sys.path.insert(0, str(HERE))
    from document_model import build_copy_folder
    from opus_mt_config import build_opus_mt_sized_folder
    from prepare import COPY_HF, HF, build, exporter_fingerprint, pack_maker, pack_opens, weights_fingerprint

    work.mkdir(parents=True, exist_ok=True)
    copy = build_copy_folder(work / COPY_HF, build_opus_mt_sized_folder(work / HF))
    pack = work / "pack-copy-int8"
    build(
        pack,
        f"{weights_fingerprint(copy)}-{exporter_fingerprint()}",
        pack_maker(copy, "int8", "opus-mt-en-zh-copy"),
        pack_opens,
    )
    return pack


def start_server(pack: Path, threads: int | None) -> tuple[subprocess.Popen, int]:
    command = [sys.executable, "-m", "fanyi", "serve", "--model", str(pack), "--host", HOST, "--port", "0"]
    if threads:
        command += ["--threads", str(threads)]
    server = subprocess.Popen(
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    first = server.stdout.readline()
    if not first.startswith("Fanyi serves http://"):
        server.kill()
        raise SystemExit(f"fanyi serve did not start: {first!r}")
    port = int(first.split()[2].rsplit(":", 1)[1])
    # its access log goes to stdout: read it away so the pipe never fills
    threading.Thread(target=lambda: [None for _ in server.stdout], daemon=True).start()
    return server, port


def cpu_name() -> str:
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=10).stdout
    except OSError:
        return platform.processor() or "unknown"
    fields = dict(line.split(":", 1) for line in out.splitlines() if ":" in line)
    return f"{fields.get('Model name', '?').strip()}, {fields.get('CPU(s)', '?').strip()} CPUs"


# --- the report -----------------------------------------------------------------------------------
def report(results: dict) -> str:
    single_ms = results["single"]["p50_ms"]
    lines = [
        f"CPU: {results['cpu']}; load average at the start: {results['load_average']}; "
        f"pack: {results['pack']}; server threads: {results['threads'] or 'default'}.",
        "",
        f"One request alone (median of {results['single']['requests']}): {single_ms} ms.",
        "",
        "| run | requests/s | answered 2xx | other statuses | no answer | 429/503 without Retry-After | "
        "p50 ms | p95 ms | p99 ms | /languages p99 ms |",
        "|---|---|---|---|---|---|---|---|---|---|",
    ]
    for key in ("crowd-20", "crowd-100"):
        run = results[key]
        t = run["translate"]
        others = {s: n for s, n in t["statuses"].items() if not 200 <= int(s) < 300}
        lines.append(
            f"| {run['clients']} clients, {run['seconds']} s | {t['per_second']} | {t['ok']} | "
            f"{others or '-'} | {t['failures']} | {t['without_retry_after']} | {t['p50_ms']} | "
            f"{t['p95_ms']} | {t['p99_ms']} | {run['languages_probe']['p99_ms']} |"
        )
        bound = 1.5 * run["clients"] * single_ms
        lines.append(f"|  | (target p95 ≤ 1.5 × {run['clients']} × {single_ms} ms = {bound:.0f} ms) | | | | | | | | |")
    idle = results["idle-200"]
    mixed_run = results["mixed"]
    lines += [
        "",
        f"{idle['idle_sockets']} idle sockets open: /languages p99 {idle['languages']['p99_ms']} ms, "
        f"a translation {idle['translate_ms']} ms (status {idle['translate_status']}).",
        "",
        f"Mixed run, {mixed_run['seconds']} s, {mixed_run['clients']} clients over every endpoint: "
        f"{mixed_run['all']['per_second']} requests/s, statuses {mixed_run['all']['statuses']}, "
        f"no answer {mixed_run['all']['failures']}; RSS {mixed_run['rss_start_mib']} → "
        f"{mixed_run['rss_end_mib']} MiB (max {mixed_run['rss_max_mib']}), growth "
        f"{mixed_run['rss_growth_mib']} MiB.",
    ]
    return "\n".join(lines)


async def run_all(port: int, pid: int, short: bool, mixed_minutes: float | None) -> dict:
    results = {"single": await single(port, 20)}
    results["crowd-20"] = await crowd(port, 20, 20 if short else 60)
    results["crowd-100"] = await crowd(port, 100, 15 if short else 30)
    results["idle-200"] = await idle_sockets(port, 200)
    results["mixed"] = await mixed(port, pid, 60 * (mixed_minutes or (2 if short else 10)))
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--pack", help="a pack folder (default: the copying opus-mt-en-zh-sized int8 pack, built in --work)"
    )
    parser.add_argument("--work", default="/tmp/fanyi-bench")
    parser.add_argument("--threads", type=int, help="fanyi serve --threads (default: its own)")
    parser.add_argument("--short", action="store_true", help="20 s, 15 s and 2 min instead of 60 s, 30 s and 10 min")
    parser.add_argument("--mixed-minutes", type=float, help="how long the mixed run lasts (default: 10, --short: 2)")
    parser.add_argument("--out", help="also write the raw numbers here (JSON)")
    args = parser.parse_args()
    pack = Path(args.pack) if args.pack else copy_pack(Path(args.work))
    load_average = " ".join(f"{x:.1f}" for x in os.getloadavg())  # the machine may be busy with other work
    server, port = start_server(pack, args.threads)
    try:
        results = asyncio.run(run_all(port, server.pid, args.short, args.mixed_minutes))
    finally:
        server.terminate()
        server.wait(30)
    results.update(cpu=cpu_name(), load_average=load_average, pack=pack.name, threads=args.threads, short=args.short)
    print(report(results))
    if args.out:
        Path(args.out).write_text(json.dumps(results, indent=2))


if __name__ == "__main__":
    main()
