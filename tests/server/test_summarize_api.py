"""``POST /summarize``: the summary fanyi.summaries (and ``fanyi summarize``) makes, in JSON fields."""

from __future__ import annotations

import requests

from fanyi import summaries
from fanyi.engine.translator import Translator
from fanyi.paths import assets_dir

TIMEOUT = 120
ENGLISH = [line for line in (assets_dir() / "corpus" / "en.txt").read_text(encoding="utf-8").splitlines() if line]


def test_the_answer_is_the_summary_the_command_line_prints(serve, tiny_bart_pack, tiny_pack, tmp_path):
    import subprocess
    import sys

    bart = tiny_bart_pack("bart-large-cnn")
    server = serve([bart, tiny_pack])
    text = " ".join(ENGLISH[:5])
    english = "".join(Translator.open(bart, threads=1).summary_stream(text))
    got = requests.post(server.address + "/summarize", json={"text": text}, timeout=TIMEOUT)
    assert got.status_code == 200, got.text
    assert got.json() == {
        "summary": english,
        "source_lang": "en",
        "target_lang": "en",
        "model": bart.name,
        "length": "short",
    }
    chinese = requests.post(server.address + "/summarize", json={"text": text, "target_lang": "zh"}, timeout=TIMEOUT)
    body = chinese.json()
    assert body["english"] == english and body["target_lang"] == "zh" and "translated by" in body["note"]
    assert body["summary"] == Translator.open(tiny_pack, threads=1).translate(english, _options(tiny_pack))
    (tmp_path / "a.txt").write_text(text + "\n", encoding="utf-8")
    printed = subprocess.run(
        [sys.executable, "-m", "fanyi", "summarize", "--model", str(bart), str(tmp_path / "a.txt")],
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
        env={**__import__("os").environ, "FANYI_MODELS_DIR": str(tmp_path / "none")},
    )
    assert printed.stdout.strip() == got.json()["summary"]


def _options(pack):
    from fanyi.engine.options import DecodeOptions
    from fanyi.engine.pack import ModelPack

    return DecodeOptions(target=ModelPack.open(pack).default_target)


def test_by_section_and_a_form_body(serve, tiny_bart_pack):
    server = serve([tiny_bart_pack("bart-large-cnn")])
    text = "# First\n\n" + " ".join(ENGLISH[:5]) + "\n\n# Second\n\nToo short."
    got = requests.post(server.address + "/summarize", data={"text": text, "length": "sections"}, timeout=TIMEOUT)
    body = got.json()
    assert [s["title"] for s in body["sections"]] == ["First", "Second"]
    assert body["sections"][1]["summary"] == "Too short." and body["summary"].startswith("## First")


def test_bad_requests_get_one_line_and_a_status(serve, tiny_bart_pack, tiny_pack, monkeypatch):
    server = serve([tiny_pack])
    for body, status, said in [
        ({}, 400, "text is required"),
        ({"text": "   "}, 400, "no text to summarize"),
        ({"text": "An English text.", "length": "long"}, 400, "length must be"),
        ({"text": "An English text, long enough."}, 400, "no installed model can summarize"),
    ]:
        got = requests.post(server.address + "/summarize", json=body, timeout=TIMEOUT)
        assert (got.status_code, said in got.json()["error"]) == (status, True), got.text
    server = serve([tiny_bart_pack("bart-large-cnn")], api_key="secret")
    assert requests.post(server.address + "/summarize", json={"text": "x"}, timeout=TIMEOUT).status_code == 403
    server = serve([tiny_bart_pack("bart-large-cnn")])
    monkeypatch.setattr("fanyi.limits.MAX_SUMMARY_CHARS", 100)
    too_long = requests.post(server.address + "/summarize", json={"text": "word " * 40}, timeout=TIMEOUT)
    assert too_long.status_code == 413 and "at most 100" in too_long.json()["error"]
    japanese = requests.post(server.address + "/summarize", json={"text": "これは日本語の文章です。"}, timeout=TIMEOUT)
    assert japanese.status_code == 400 and "summarizes English only" in japanese.json()["error"]
    assert summaries.LENGTHS == ("short", "sections")


def test_a_document_is_summarized_as_its_text_and_not_kept(serve, tiny_bart_pack, tmp_path):
    server = serve([tiny_bart_pack("bart-large-cnn")])
    text = "# First\n\n" + " ".join(ENGLISH[:5]) + "\n\n# Second\n\nToo short."
    fields = {"length": "sections"}
    files = {"file": ("notes.md", text.encode("utf-8"), "text/markdown")}
    got = requests.post(server.address + "/summarize_file", data=fields, files=files, timeout=TIMEOUT)
    assert got.status_code == 200, got.text
    same = requests.post(server.address + "/summarize", json={"text": text, **fields}, timeout=TIMEOUT)
    assert got.json() == same.json() and [s["title"] for s in got.json()["sections"]] == ["First", "Second"]
    empty = {"file": ("empty.md", b"\n\n", "text/markdown")}
    nothing = requests.post(server.address + "/summarize_file", files=empty, timeout=TIMEOUT)
    assert nothing.status_code == 400 and nothing.json()["error"] == "empty.md has no text to summarize"
    bad = {"file": ("a.exe", b"MZ", "application/octet-stream")}
    refused = requests.post(server.address + "/summarize_file", files=bad, timeout=TIMEOUT)
    assert refused.status_code == 400 and "not a document Fanyi translates" in refused.json()["error"]
    no_file = requests.post(server.address + "/summarize_file", data=fields, timeout=TIMEOUT)
    assert no_file.status_code == 400 and "field named file" in no_file.json()["error"]
    root = server.core.files._root
    assert root is not None and not any(root.iterdir())  # read, summarized and removed: nothing is kept
