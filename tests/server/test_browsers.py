"""Web pages cannot use the server unless the user allowed their origin; DNS rebinding gets 403."""

from __future__ import annotations

import pytest
import requests
from api_helpers import EN

from fanyi.server.browsers import BrowserPolicy, OriginError

TIMEOUT = 60
EXTENSION = "chrome-extension://abcdefghijklmnopabcdefghijklmnop"
FIREFOX_EXTENSION = "moz-extension://0c6b6f0e-7a3c-4d3e-9b1a-2f7e0c9d8a11"
ALLOWED_PAGE = "http://localhost:3000"


@pytest.fixture
def open_server(serve, tiny_pack):
    """Without a key; http://localhost:3000 allowed by the user."""
    server = serve([tiny_pack], browsers=BrowserPolicy.of("127.0.0.1", [ALLOWED_PAGE + "/"], keyed=False))
    return server


def form_post(server, path: str, origin: str | None, **extra) -> requests.Response:
    """What a page's <form method=post> sends: no preflight, the browser reads the answer if CORS allows."""
    headers = {"Origin": origin} if origin else {}
    return requests.post(
        server.address + path,
        data={"q": EN[0], "target": "zh", "text": EN[0], "target_lang": "ZH", **extra},
        headers=headers,
        timeout=TIMEOUT,
    )


@pytest.mark.parametrize("path", ["/translate", "/v2/translate", "/detect", "/stream", "/languages"])
def test_a_web_page_is_refused_without_cors_headers(open_server, path):
    answer = form_post(open_server, path, "https://evil.example")
    assert answer.status_code == 403
    assert "access-control-allow-origin" not in answer.headers
    body = answer.json()  # a shape every protocol's clients read
    assert body["message"].startswith("web pages from https://evil.example may not use this server")
    assert body["code"] == 403 and body["error"] == body["message"]


@pytest.mark.parametrize("origin", ["null", "http://127.0.0.1:3000", "https://localhost:3000"])
def test_pages_that_only_look_local_are_refused(open_server, origin):
    assert form_post(open_server, "/translate", origin).status_code == 403


@pytest.mark.parametrize("origin", [EXTENSION, FIREFOX_EXTENSION, "safari-web-extension://E0A1", ALLOWED_PAGE])
def test_extensions_and_listed_origins_are_answered_with_their_origin(open_server, origin):
    answer = form_post(open_server, "/translate", origin)
    assert answer.status_code == 200 and answer.json()["translatedText"]
    assert answer.headers["access-control-allow-origin"] == origin and "Origin" in answer.headers["vary"]


def test_no_origin_is_a_program_not_a_page(open_server):
    answer = form_post(open_server, "/translate", None)
    assert answer.status_code == 200 and "access-control-allow-origin" not in answer.headers


def test_preflights_only_for_allowed_origins_private_network_included(open_server):
    def preflight(origin: str) -> requests.Response:
        return requests.options(
            open_server.address + "/v2/translate",
            timeout=TIMEOUT,
            headers={
                "Origin": origin,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "authorization, content-type",
                "Access-Control-Request-Private-Network": "true",
            },
        )

    allowed = preflight(ALLOWED_PAGE)
    assert allowed.status_code == 204
    assert allowed.headers["access-control-allow-origin"] == ALLOWED_PAGE
    assert allowed.headers["access-control-allow-private-network"] == "true"
    assert allowed.headers["access-control-allow-headers"] == "authorization, content-type"
    assert "POST" in allowed.headers["access-control-allow-methods"]
    refused = preflight("https://evil.example")
    assert refused.status_code == 403
    assert not {"access-control-allow-origin", "access-control-allow-private-network"} & set(refused.headers)


@pytest.mark.parametrize(
    "host", ["attacker.example", "attacker.example:5000", "127.0.0.1.nip.io", "localhost.attacker.example"]
)
def test_dns_rebinding_gets_403(open_server, host):
    for path in ("/languages", "/translate"):
        answer = requests.post(
            open_server.address + path, data={"q": EN[0], "target": "zh"}, headers={"Host": host}, timeout=TIMEOUT
        )
        assert answer.status_code == 403 and "does not answer for the host" in answer.json()["message"]


@pytest.mark.parametrize(
    "host",
    [
        "127.0.0.1:5000",
        "localhost:5000",
        "LOCALHOST",
        "[::1]:5000",
        "localhost.",
        "fanyi.localhost:5000",
        "192.168.1.20:5000",
    ],
)
def test_addresses_of_this_computer_are_answered(open_server, host):
    answer = requests.get(open_server.address + "/languages", headers={"Host": host}, timeout=TIMEOUT)
    assert answer.status_code == 200


def test_with_a_key_any_page_may_ask_but_needs_the_key(serve, tiny_pack):
    server = serve([tiny_pack], api_key="sekret")  # the default policy: keyed
    answer = form_post(server, "/translate", "https://some.site.example")
    assert answer.status_code == 403 and answer.headers["access-control-allow-origin"] == "*"
    answer = form_post(server, "/translate", "https://some.site.example", api_key="sekret")
    assert answer.status_code == 200 and answer.headers["access-control-allow-origin"] == "*"


def test_a_listed_origin_must_be_an_origin():
    with pytest.raises(OriginError, match="is not an origin"):
        BrowserPolicy.of("127.0.0.1", ["localhost:3000/app"], keyed=False)
    policy = BrowserPolicy.of("0.0.0.0", ["HTTP://LocalHost:3000/"], keyed=False)
    assert policy.origin_allowed("http://localhost:3000")
    assert policy.host_allowed("192.168.1.20") and not policy.host_allowed("evil.example")
