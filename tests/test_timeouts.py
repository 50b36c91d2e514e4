"""The suite stays steady on a busy two-core machine: no test hands the code under test a download timeout of less
than two seconds. A server thread starved for half a second by the machine's load looked stalled to a client given
0.5 s (test_a_server_sending_more_than_the_catalog_size_is_refused failed 1 run in 5 with the cores busy); a test
that stalls a server on purpose gives the client seconds (tests/library/test_download.py's STALLS). Timeouts a test
expects to expire (a held gate, a client that never sends) may be short: load only makes them expire later."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
SHORTEST_S = 2.0
TIMEOUT_KEYWORDS = {"list_timeout", "read", "connect"}  # of Timeouts(...) and of the sources' list


def _short_timeouts(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not isinstance(node, ast.Call):
            continue
        name = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        given = [(k.arg, k.value) for k in node.keywords if name == "Timeouts" or k.arg in TIMEOUT_KEYWORDS]
        given += [(f"argument {i + 1}", a) for i, a in enumerate(node.args) if name == "Timeouts"]
        for what, value in given:
            if isinstance(value, ast.Constant) and isinstance(value.value, int | float) and value.value < SHORTEST_S:
                found.append(f"{path.relative_to(TESTS)}:{node.lineno}: {name}({what}={value.value})")
    return found


def test_no_test_gives_a_download_less_than_two_seconds():
    found = [line for path in sorted(TESTS.rglob("*.py")) for line in _short_timeouts(path)]
    assert found == []
