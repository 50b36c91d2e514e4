"""Connections: no Nagle stall on keep-alive, idle and slow sockets cannot lock the server out."""

from __future__ import annotations

import json
import socket
import statistics
import threading
import time
from urllib.parse import urlsplit

import pytest
import requests
from api_helpers import EN, en_zh_gate

from fanyi import limits
from fanyi.server.run import ServerError, bind

TIMEOUT = 60


def test_the_listening_socket_is_tcp_so_asyncio_sets_nodelay():
    sock = bind("127.0.0.1", 0)
    try:
        # asyncio's transports set TCP_NODELAY only when the socket's proto is IPPROTO_TCP (not 0)
        assert sock.proto == socket.IPPROTO_TCP
        with socket.create_connection(sock.getsockname()):
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
        # the server's side of this very connection has Nagle off
        (connection,) = server._server.server_state.connections
        sock = connection.transport.get_extra_info("socket")
        assert sock.getsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY) != 0
    # 40 ms is the stall; a cached answer takes ~1.5 ms on an idle machine (30 ms leaves room for a busy one)
    assert statistics.median(times) < 0.030, f"median {statistics.median(times) * 1000:.1f} ms"


@pytest.mark.parametrize("port", [-1, 65536, 99999])
def test_a_port_out_of_range_is_one_line(port):
    with pytest.raises(ServerError, match=f"port {port}: a port is a number from 0 to 65535"):
        bind("127.0.0.1", port)


def _connect(server) -> socket.socket:
    url = urlsplit(server.address)
    return socket.create_connection((url.hostname, url.port), timeout=TIMEOUT)


def _closed_by_server(sock: socket.socket) -> bool:
    """Whether the server closed the connection (waits for it up to the socket's timeout)."""
    try:
        return sock.recv(1) == b""
    except ConnectionResetError:
        return True


def test_a_socket_that_sends_nothing_is_closed(serve, tiny_pack, monkeypatch):
    monkeypatch.setattr(limits, "API_HEAD_SECONDS", 0.3)
    server = serve([tiny_pack])
    with _connect(server) as idle:
        started = time.monotonic()
        assert _closed_by_server(idle)
        assert time.monotonic() - started < TIMEOUT / 2


def test_a_head_sent_a_byte_at_a_time_is_cut_off(serve, tiny_pack, monkeypatch):
    monkeypatch.setattr(limits, "API_HEAD_SECONDS", 0.5)
    server = serve([tiny_pack])
    with _connect(server) as slow:
        closed = False
        for byte in b"POST /translate HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Padding: " + b"x" * 200:
            try:
                slow.sendall(bytes([byte]))
            except OSError:
                closed = True
                break
            time.sleep(0.02)  # each byte well within the head timeout; all of them not
        assert closed or _closed_by_server(slow)


def test_a_body_sent_a_byte_at_a_time_is_408(serve, tiny_pack, monkeypatch):
    monkeypatch.setattr(limits, "API_BODY_SECONDS", 0.3)
    server = serve([tiny_pack])
    with _connect(server) as slow:
        slow.sendall(
            b"POST /translate HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
            b"Content-Length: 100\r\n\r\n{"
        )
        answer = b""
        while not answer.endswith(b"}") and (chunk := slow.recv(4096)):  # the head and body may come apart
            answer += chunk
    assert answer.startswith(b"HTTP/1.1 408") and b'{"error":"the request\'s body did not arrive' in answer


def test_idle_sockets_cannot_lock_the_server_out(serve, tiny_pack, monkeypatch):
    monkeypatch.setattr(limits, "API_MAX_CONNECTIONS", 5)
    server = serve([tiny_pack])
    idle = [_connect(server) for _ in range(10)]
    try:
        answer = requests.post(server.address + "/translate", json={"q": EN[0], "target": "zh"}, timeout=TIMEOUT)
        assert answer.status_code == 200  # the longest idle sockets were closed to let it in
        assert sum(_closed_by_server(sock) for sock in idle[:6]) == 6
    finally:
        for sock in idle:
            sock.close()


def test_two_hundred_idle_sockets_and_a_request_is_answered(serve, tiny_pack):
    server = serve([tiny_pack])
    idle = [_connect(server) for _ in range(200)]
    try:
        assert requests.get(server.address + "/languages", timeout=TIMEOUT).status_code == 200
        assert (
            requests.post(server.address + "/translate", json={"q": EN[0], "target": "zh"}, timeout=TIMEOUT).status_code
            == 200
        )
    finally:
        for sock in idle:
            sock.close()


def test_when_every_connection_is_busy_a_new_one_gets_503_json(serve, tiny_pack, monkeypatch):
    monkeypatch.setattr(limits, "API_MAX_CONNECTIONS", 2)
    server = serve([tiny_pack])
    gate = en_zh_gate(server)
    answers: list[requests.Response] = []
    with gate.use():
        waiting = [
            threading.Thread(
                target=lambda: answers.append(
                    requests.post(server.address + "/translate", json={"q": EN[0], "target": "zh"}, timeout=TIMEOUT)
                )
            )
            for _ in range(2)
        ]
        for thread in waiting:
            thread.start()
        deadline = time.monotonic() + TIMEOUT
        while server.core.line.count < 2:
            assert time.monotonic() < deadline
            time.sleep(0.01)
        refused = requests.get(server.address + "/languages", timeout=TIMEOUT)
        assert refused.status_code == 503 and refused.headers["Retry-After"] == "1"
        assert refused.headers["content-type"] == "application/json"
        assert refused.json()["code"] == 503 and "too many connections" in refused.json()["message"]
    for thread in waiting:
        thread.join(TIMEOUT)
    assert [a.status_code for a in answers] == [200, 200]


def test_a_request_that_is_not_http_gets_400_json(serve, tiny_pack):
    server = serve([tiny_pack])
    with _connect(server) as sock:
        sock.sendall(b"HELLO THERE\r\n\r\n")
        answer = b""
        while chunk := sock.recv(4096):
            answer += chunk
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 400") and b"application/json" in head
    assert json.loads(body)["error"] == "the request is not valid HTTP/1.1"
