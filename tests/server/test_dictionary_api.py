"""``GET /dictionary?q=word`` and ``POST /dictionary``: the installed dictionary's entry, for other tools."""

from __future__ import annotations

import pytest
import requests
from dictionary_data import write_csv

from fanyi import paths
from fanyi.dictionary import Dictionary
from fanyi.dictionary.build import convert
from fanyi.server.dictionary import NOT_INSTALLED

TIMEOUT = 60


@pytest.fixture(scope="module")
def ecdict(tmp_path_factory) -> Dictionary:
    folder = tmp_path_factory.mktemp("api-dictionary")
    return Dictionary.open(
        convert(write_csv(folder / "ecdict.csv"), folder / "ecdict.sqlite", meta={"id": "ecdict"}).path
    )


def test_a_word_its_lemma_and_a_chinese_word(serve, tiny_pack, ecdict):
    server = serve([tiny_pack], dictionary=lambda: ecdict)
    went = requests.get(server.address + "/dictionary", params={"q": "went"}, timeout=TIMEOUT)
    assert went.status_code == 200 and went.headers["content-type"] == "application/json"
    body = went.json()
    assert (body["query"], body["match"], body["form_of"], body["dictionary"]) == ("went", "lemma", "p", "ecdict")
    go = body["entries"][0]
    assert go["word"] == "go" and go["phonetic"] == "gәu" and go["forms"]["p"] == "went"
    assert go["senses"][0] == {"label": "v.", "text": "去；走；离开；变成"} and go["tags"][:2] == ["zk", "gk"]
    assert (go["collins"], go["oxford"], go["bnc"], go["frq"]) == (5, True, 33, 45)
    apple = requests.post(server.address + "/dictionary", json={"q": "苹果"}, timeout=TIMEOUT).json()
    assert apple["match"] == "chinese" and [e["word"] for e in apple["entries"]] == ["apple", "pomme"]
    form = requests.post(server.address + "/dictionary", data={"q": "took off"}, timeout=TIMEOUT).json()
    assert form["match"] == "phrase" and form["entries"][0]["word"] == "take off"


def test_nothing_found_is_an_empty_answer_and_no_word_is_400(serve, tiny_pack, ecdict):
    server = serve([tiny_pack], dictionary=lambda: ecdict)
    none = requests.get(server.address + "/dictionary", params={"q": "zzyzx"}, timeout=TIMEOUT)
    assert none.status_code == 200 and none.json() == {
        "query": "zzyzx",
        "match": None,
        "form_of": "",
        "entries": [],
        "dictionary": "ecdict",
    }
    sql = requests.get(server.address + "/dictionary", params={"q": "'; DROP TABLE entries; --"}, timeout=TIMEOUT)
    assert sql.status_code == 200 and sql.json()["entries"] == []  # a value, never SQL: nothing has that word
    for q in ("x" * 65, "one two three four five six", "go\x07", "中华人民共和国万岁"):
        refused = requests.post(server.address + "/dictionary", json={"q": q}, timeout=TIMEOUT)
        assert refused.status_code == 400 and "no word or short phrase" in refused.json()["error"]
    missing = requests.get(server.address + "/dictionary", timeout=TIMEOUT)
    assert missing.status_code == 400 and "q (a word or a short phrase) is required" in missing.json()["error"]
    assert requests.get(server.address + "/dictionary", params={"q": "go"}, timeout=TIMEOUT).json()["entries"]


def test_the_key_no_dictionary_and_a_damaged_one(serve, tiny_pack, ecdict, tmp_path):
    keyed = serve([tiny_pack], api_key="k", dictionary=lambda: ecdict)
    assert requests.get(keyed.address + "/dictionary", params={"q": "go"}, timeout=TIMEOUT).status_code == 403
    ok = requests.get(keyed.address + "/dictionary", params={"q": "go", "api_key": "k"}, timeout=TIMEOUT)
    assert ok.status_code == 200
    nothing = serve([tiny_pack], dictionary=lambda: None)
    answer = requests.get(nothing.address + "/dictionary", params={"q": "go"}, timeout=TIMEOUT)
    assert answer.status_code == 404 and answer.json() == {"error": NOT_INSTALLED}
    damaged_file = tmp_path / "d.sqlite"
    damaged_file.write_bytes(ecdict.path.read_bytes())
    damaged = Dictionary.open(damaged_file)
    damaged_file.write_bytes(damaged_file.read_bytes()[:4096] + b"\xff" * 8192)
    broken = serve([tiny_pack], dictionary=lambda: damaged)
    failed = requests.get(broken.address + "/dictionary", params={"q": "go"}, timeout=TIMEOUT)
    assert failed.status_code == 500 and "\n" not in failed.json()["error"]


def test_the_server_finds_the_dictionary_installed_while_it_runs(serve, tiny_pack, user_dirs):
    server = serve([tiny_pack])  # no dictionary given: the installed one, asked per request
    assert requests.get(server.address + "/dictionary", params={"q": "go"}, timeout=TIMEOUT).status_code == 404
    folder = paths.dictionaries_dir()
    folder.mkdir(parents=True)
    convert(write_csv(user_dirs / "ecdict.csv"), folder / "ecdict.sqlite", meta={"id": "ecdict"})
    found = requests.get(server.address + "/dictionary", params={"q": "mice"}, timeout=TIMEOUT).json()
    assert found["entries"][0]["word"] == "mouse" and found["dictionary"] == "ecdict"
