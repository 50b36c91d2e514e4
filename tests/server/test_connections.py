"""Connections: no Nagle stall on keep-alive, idle and slow sockets cannot lock the server out."""

from __future__ import annotations

import socket
import statistics
import time

import pytest
import requests
from api_helpers import EN

from fanyi.server.run import ServerError, bind

TIMEOUT = 60


def test_the_listening_socket_is_tcp_so_asyncio_sets_nodelay(tmp_path):
    sock = bind("127.0.0.1", 0)
    try:
        # asyncio's transports set TCP_NODELAY only when the socket's proto is IPPROTO_TCP (not 0)
        assert sock.proto == socket.IPPROTO_TCP
        with socket.create_connection(sock.getsockname()) as client:
            accepted, _ = sock.accept()
            with accepted:
                assert accepted.proto == socket.IPPROTO_TCP
    finally:
        sock.close()


def test_keep_alive_answers_do_not_wait_for_delayed_acks(serve, tiny_pack):
    """Without TCP_NODELAY each answer (head and body written apart) waits ~40 ms for the client's ACK."""
    server = serve([tiny_pack])
    with requests.Session() as session:
        body = {"q": EN[0], "source": "en", "target": "zh"}
        assert session.post(server.address + "/translate", json=body, timeout=TIMEOUT).status_code == 200
        times = []
        for _ in range(50):  # one connection, a cached translation
            start = time.perf_counter()
            assert session.post(server.address + "/translate", json=body, timeout=TIMEOUT).status_code == 200
            times.append(time.perf_counter() - start)
    # 40 ms is the stall; a cached answer takes ~1.5 ms on an idle machine (20 ms leaves room for a busy one)
    assert statistics.median(times) < 0.020, f"median {statistics.median(times) * 1000:.1f} ms"


@pytest.mark.parametrize("port", [-1, 65536, 99999])
def test_a_port_out_of_range_is_one_line(port):
    with pytest.raises(ServerError, match=f"port {port}: a port is a number from 0 to 65535"):
        bind("127.0.0.1", port)
