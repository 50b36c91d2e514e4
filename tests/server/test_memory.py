"""The server's translations run in whichever of the line's threads holds the model: the process must
not keep a malloc arena of freed memory per thread (it grew to 2.1 GiB under load; see
benchmarks/README.md, "Local API under load")."""

from __future__ import annotations

import subprocess
import sys

import pytest

ARENAS = """
import ctypes, os, sys, tempfile, threading
from fanyi.engine.allocator import few_arenas
if sys.argv[1] == "few":
    assert few_arenas()
start = threading.Barrier(16)
def work():
    start.wait()
    blocks = [bytearray(100_000) for _ in range(50)]  # below the mmap threshold: from an arena
    start.wait()
threads = [threading.Thread(target=work) for _ in range(16)]
for t in threads: t.start()
for t in threads: t.join()
libc = ctypes.CDLL("libc.so.6")
libc.fopen.restype = ctypes.c_void_p
path = tempfile.mktemp()
fp = libc.fopen(path.encode(), b"w")
libc.malloc_info(0, ctypes.c_void_p(fp))
libc.fclose(ctypes.c_void_p(fp))
print(open(path).read().count("<heap nr="))
os.unlink(path)
"""


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's arenas")
def test_threads_share_two_arenas():
    def heaps(mode: str) -> int:
        return int(
            subprocess.run(
                [sys.executable, "-c", ARENAS, mode], capture_output=True, text=True, check=True, timeout=120
            ).stdout
        )

    assert heaps("few") <= 2 < heaps("default")


def test_the_server_asks_for_few_arenas_before_its_threads_start(monkeypatch, serve, tiny_pack):
    calls = []
    monkeypatch.setattr("fanyi.server.run.few_arenas", lambda: calls.append(True) or True)
    serve([tiny_pack])
    assert calls == [True]
