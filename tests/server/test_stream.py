"""The SSE stream: pieces as decided, which join into exactly what Translator.translate gives."""

from __future__ import annotations

import json

import requests

from fanyi.engine.options import DecodeOptions


def events(body: str) -> list[tuple[str, dict]]:
    """(event name, data) of each server-sent event; unnamed events are "message"."""
    found = []
    for block in body.strip().split("\n\n"):
        name, data = "message", None
        for line in block.splitlines():
            field, _, value = line.partition(": ")
            if field == "event":
                name = value
            elif field == "data":
                data = json.loads(value)
        found.append((name, data))
    return found


def test_stream_pieces_join_into_the_translation(serve, tiny_pack, tiny_translator):
    """zh-Hant: the pack's Simplified converted by OpenCC (Taiwan's words) as it streams; a rewind takes
    back what the engine decodes again or what a later character changes (干 then 净: 乾淨)."""
    server = serve([tiny_pack])
    text = "Where is the station? Thank you very much.\n\nThe weather is fine today."
    answer = requests.post(
        server.address + "/stream", json={"q": text, "source": "en", "target": "zh-Hant"}, stream=True, timeout=120
    )
    assert answer.status_code == 200 and answer.headers["content-type"].startswith("text/event-stream")
    got = events(answer.text)
    expected = tiny_translator.translate(text, DecodeOptions(target="cmn_Hans", convert="zh-TW"))
    assert got[0] == ("start", {"source": "en", "target": "zh-Hant"})
    pieces = [data["text"] for name, data in got if name == "message"]
    assert len(pieces) > 3  # streamed, not one piece at the end
    shown = ""  # what a client shows: a sentence found degenerate is taken back (the random model loops)
    for name, data in got:
        if name == "message":
            shown += data["text"]
        elif name == "rewind":
            shown = shown[: -data["chars"]]
    assert shown == expected
    failures = tiny_translator.translate_results([text], DecodeOptions(target="cmn_Hans", convert="zh-TW"))[0].failures
    done = {"translatedText": expected}
    if failures:  # the tiny random model loops on some sentence: the done event lists what the events said
        done["untranslated"] = [{"source": f.source, "reason": f.reason} for f in failures]
        assert [data for name, data in got if name == "untranslated"] == done["untranslated"]
    assert got[-1] == ("done", done)


def test_stream_over_get_for_event_source(serve, tiny_pack, tiny_translator):
    server = serve([tiny_pack])
    answer = requests.get(server.address + "/stream", params={"q": "Good morning.", "target": "zh"}, timeout=120)
    assert events(answer.text)[-1] == (
        "done",
        {"translatedText": tiny_translator.translate("Good morning.", DecodeOptions(target="cmn_Hans"))},
    )
