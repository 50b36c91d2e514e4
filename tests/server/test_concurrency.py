"""Several clients at once, over all three protocols and both packs: every one answered, none mixed up."""

from __future__ import annotations

import threading

import deepl
import requests
from api_helpers import EN, ZH
from libretranslatepy import LibreTranslateAPI

from fanyi.engine.options import DecodeOptions

CLIENTS = 6
ROUNDS = 3


def test_concurrent_clients_each_get_their_own_translation(
    serve, tiny_pack, tiny_pack_zh_en, tiny_translator, tiny_translator_zh_en
):
    server = serve([tiny_pack, tiny_pack_zh_en])
    variants = {
        "ZH-HANS": DecodeOptions(target="cmn_Hans"),
        "ZH-HANT": DecodeOptions(target="cmn_Hans", convert="zh-TW"),
    }  # Taiwan's, by OpenCC

    def ask(client: int, round_: int) -> tuple[str, str]:
        """One request; returns (answer, what the reference translator says for it)."""
        kind = (client + round_) % 4
        if kind == 3:
            text = ZH[(client + round_) % len(ZH)]
            answer = LibreTranslateAPI(server.address).translate(text, "zh", "en")
            return answer, tiny_translator_zh_en.translate(text)
        text = EN[(client * ROUNDS + round_) % len(EN)]
        code = "ZH-HANT" if client % 2 else "ZH-HANS"
        expected = tiny_translator.translate(text, variants[code])
        if kind == 0:
            return LibreTranslateAPI(server.address).translate(text, "en", code.lower()), expected
        if kind == 1:
            return deepl.Translator("k", server_url=server.address).translate_text(
                text, target_lang=code
            ).text, expected
        body = requests.post(
            server.address + "/translate", json={"text": text, "target_lang": code}, timeout=120
        ).json()
        return body["data"], expected

    results: dict[tuple[int, int], tuple[str, str]] = {}
    errors: list[BaseException] = []
    start = threading.Barrier(CLIENTS)

    def client(number: int) -> None:
        try:
            start.wait(60)
            for round_ in range(ROUNDS):
                results[number, round_] = ask(number, round_)
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=client, args=(n,)) for n in range(CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(300)
    assert errors == []
    assert len(results) == CLIENTS * ROUNDS
    mismatched = {key: pair for key, pair in results.items() if pair[0] != pair[1]}
    assert mismatched == {}
