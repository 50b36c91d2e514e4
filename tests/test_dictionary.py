"""fanyi.dictionary on a small file of ECDICT's format the tests write: reading ECDICT's CSV and stardict.db,
converting, every lookup rule, hostile lookups, damaged and foreign files."""

from __future__ import annotations

import csv
import sqlite3
import time
from pathlib import Path

import pytest
from dictionary_data import ROWS, write_csv, write_stardict, write_zip

from fanyi.cancel import Cancelled, CancelToken
from fanyi.dictionary import Dictionary, DictionaryError, Entry, Found
from fanyi.dictionary.build import convert
from fanyi.dictionary.ecdict import parse_pairs, read_csv, strip_word
from fanyi.dictionary.entry import reverse_terms, senses
from fanyi.dictionary.lookup import lookup_text


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("dictionary")
    return convert(write_csv(folder / "ecdict.csv"), folder / "ecdict.sqlite").path


@pytest.fixture(scope="module")
def dictionary(built) -> Dictionary:
    return Dictionary.open(built)


def words(found: Found | None) -> list[str]:
    assert found is not None
    return [e.word for e in found.entries]


# --- ECDICT's formats ------------------------------------------------------------------------------
def test_the_csv_is_read_as_ecdicts_dictcsv_reads_it(tmp_path):
    rows = {r.word: r for r in read_csv(write_csv(tmp_path / "e.csv"))}
    hood = rows["'hood"]
    assert hood.translation.splitlines() == [
        "n. 罩；风帽；（布质）面罩",
        "v. 覆盖；用头巾包",
        "[网络] 胡德；兜帽；引擎盖",
    ]
    assert (hood.collins, hood.oxford, hood.bnc, hood.frq) == (0, 0, 0, 0)  # empty numbers are 0
    assert rows["back\\slash"].translation == "n. 反斜线"  # "\\\\" is one backslash
    go = rows["go"]
    assert (go.collins, go.oxford, go.bnc, go.frq, go.tag) == (5, 1, 33, 45, "zk gk cet4 cet6 ky")
    assert go.definition.splitlines()[0] == "v. move or proceed"


def test_the_sw_key_and_the_pair_fields_are_ecdicts():
    # stardict.stripword: letters and digits only, lower case (README: 模糊匹配)
    assert strip_word("long-time") == strip_word("Long Time!") == strip_word("longtime") == "longtime"
    assert strip_word("Café-au-lait") == "caféaulait"
    # exchange_loads: "k:v" items split at "/", at the first ":"; an item without one is left out
    assert parse_pairs("d:perceived/p:perceived/3:perceives/i:perceiving") == {
        "d": "perceived",
        "p": "perceived",
        "3": "perceives",
        "i": "perceiving",
    }
    assert parse_pairs("0:go/1:p") == {"0": "go", "1": "p"}
    assert parse_pairs("n:46/v:54/junk") == {"n": "46", "v": "54"}
    assert parse_pairs("") == {}


def test_an_entry_splits_its_senses_labels_and_forms(tmp_path):
    row = next(r for r in read_csv(write_csv(tmp_path / "e.csv")) if r.word == "go")
    entry = Entry.of(row)
    assert [(s.label, s.text) for s in entry.senses] == [("v.", "去；走；离开；变成"), ("n.", "尝试；轮到的机会")]
    assert entry.forms == {"p": "went", "d": "gone", "i": "going", "3": "goes", "s": "goes"}
    assert entry.pos == (("v", 95), ("n", 5)) and entry.tags == ("zk", "gk", "ky", "cet4", "cet6")
    assert entry.collins == 5 and entry.oxford and (entry.bnc, entry.frq) == (33, 45) and not entry.lemma
    assert [s.label for s in senses("vt. & vi. 走\n[网络] 去\n无标签")] == ["vt. & vi.", "[网络]", ""]
    assert reverse_terms("n. 苹果，苹果树（植物）；[美俚]炸弹\nv. 很长很长很长很长的一个词") == [
        "苹果",
        "苹果树",
        "炸弹",
    ]


# --- conversion ------------------------------------------------------------------------------------
def test_the_csv_the_stardict_db_and_a_zip_of_each_make_the_same_dictionary(tmp_path):
    csv_path = write_csv(tmp_path / "ecdict.csv")
    db_path = write_stardict(tmp_path / "stardict.db")
    sources = {
        "csv": csv_path,
        "db": db_path,
        "csv.zip": write_zip(tmp_path / "csv.zip", csv_path, "ecdict.csv"),
        "db.zip": write_zip(tmp_path / "ecdict-sqlite-28.zip", db_path, "stardict.db"),
    }
    seen = {}
    for name, source in sources.items():
        built = convert(source, tmp_path / f"{name}.sqlite")
        assert built.entries == len(ROWS) - 1  # "GO" repeats "go" in lower case: left out, as ECDICT does
        d = Dictionary.open(built.path)
        seen[name] = [d.lookup(q).as_json() for q in ("went", "苹果", "take off", "back\\slash")]
    assert seen["csv"] == seen["db"] == seen["csv.zip"] == seen["db.zip"]
    assert not list(tmp_path.glob(".*"))  # nothing unpacked or half-written is left behind


def test_the_dictionary_records_what_it_was_made_from(tmp_path):
    built = convert(write_csv(tmp_path / "ecdict.csv"), tmp_path / "d.sqlite", meta={"id": "ecdict", "version": "1"})
    d = Dictionary.open(built.path)
    assert (d.name, d.entries, d.info["version"], d.info["source_file"]) == ("ecdict", len(ROWS) - 1, "1", "ecdict.csv")


# --- the lookup rules ------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "query, match, found, form_of",
    [
        ("go", "exact", ["go"], ""),
        ("Go", "case", ["go"], ""),
        ("APPLE", "case", ["apple"], ""),
        ("'hood", "exact", ["'hood"], ""),
        # a form whose own entry only says so ("go的过去式"): its lemma, and which form it is
        ("went", "lemma", ["go"], "p"),
        # a form ECDICT lists only under its lemma's exchange
        ("mice", "lemma", ["mouse"], "s"),
        ("perceived", "lemma", ["perceive"], "pd"),
        # a form with senses of its own: itself, and its lemma after it
        ("gone", "exact", ["gone", "go"], ""),
        ("take off", "exact", ["take off"], ""),
        ("took off", "phrase", ["take off"], ""),
        ("Take  Off", "case", ["take off"], ""),
        ("long-time", "exact", ["long-time"], ""),
        ("long time", "fuzzy", ["longtime"], ""),  # the more frequent of the two with sw "longtime"
        ("Long_Time", "fuzzy", ["longtime"], ""),
        ("“apple,”", "exact", ["apple"], ""),  # the punctuation around a selection
        ("(mice)", "lemma", ["mouse"], "s"),
        ("苹果", "chinese", ["apple", "pomme"], ""),  # most frequent first; 苹果树 is another word
        (" 苹 果 ", "chinese", ["apple", "pomme"], ""),
        ("老鼠", "chinese", ["mouse"], ""),
    ],
)
def test_each_lookup_rule(dictionary, query, match, found, form_of):
    result = dictionary.lookup(query)
    assert result is not None and (result.match, words(result), result.form_of) == (match, found, form_of)


@pytest.mark.parametrize("query", ["zzyzx", "乱七八糟", "take on", "", "   ", "…", "12345"])
def test_nothing_found_is_none(dictionary, query):
    assert dictionary.lookup(query) is None


def test_a_found_entry_survives_its_json(dictionary):
    found = dictionary.lookup("went")
    again = Found.from_json(found.as_json())
    assert again == found and again.entry.summary() == "/gәu/ v. 去；走；离开；变成 · n. 尝试；轮到的机会"
    for junk in (
        None,
        [],
        {"match": "exact"},
        {"query": "x", "match": "nope", "entries": []},
        {"query": "x", "match": "exact", "entries": [{"word": 3}]},
    ):
        assert Found.from_json(junk) is None
    odd = Entry.from_json(
        {"word": "w", "senses": [{"label": 1}], "collins": 99, "oxford": "yes", "forms": {"x": "y", "p": "wed"}}
    )
    assert odd == Entry("w", collins=5, forms={"p": "wed"})


# --- bounds and hostile lookups --------------------------------------------------------------------
@pytest.mark.parametrize(
    "text",
    [
        "a" * 10_000_000,  # a book pasted whole
        "x" * 65,  # one character past the bound
        "take a walk in the park today",  # a sentence: 7 words
        "中华人民共和国万岁",  # 9 Han characters
        "go\x00",
        "go\x1b[31m",
        "\ud800go",  # a lone surrogate
        "'; DROP TABLE entries; --",
        "go' OR '1'='1",
        "%",
        "_o",
    ],
)
def test_hostile_lookups_are_bounded_and_find_nothing(dictionary, text):
    started = time.perf_counter()
    assert dictionary.lookup(text) is None
    assert time.perf_counter() - started < 5  # bounded: no input reads the table (a scan of 10 MB would not be)
    assert dictionary.lookup("go").entry.word == "go"  # and the file is as it was


def test_what_is_looked_up():
    assert lookup_text("  take\n off  ").candidates == ("take off",)
    assert lookup_text("soft\u00adware").candidates == ("software",)  # a soft hyphen from a web page
    assert lookup_text("“apple,”").candidates == ("“apple,”", "apple")
    assert lookup_text("苹果").chinese and not lookup_text("apple").chinese
    assert lookup_text("Привет") is None  # no Latin letter: the English dictionary has nothing to say


# --- damaged, foreign and hostile files ------------------------------------------------------------
def one_line(exc: BaseException) -> str:
    message = str(exc)
    assert message and "\n" not in message and "Traceback" not in message
    return message


def test_a_file_that_is_no_dictionary_is_refused_in_one_line(tmp_path, built):
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"\x00garbage" * 1000)
    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as db:
        db.execute("CREATE TABLE history (id INTEGER)")
    newer = tmp_path / "newer.sqlite"
    newer.write_bytes(built.read_bytes())
    with sqlite3.connect(newer) as db:
        db.execute("PRAGMA user_version = 99")
    for path, said in (
        (junk, "damaged or not a Fanyi dictionary"),
        (other, "not a Fanyi dictionary"),
        (newer, "format 99"),
    ):
        with pytest.raises(DictionaryError) as failure:
            Dictionary.open(path)
        assert said in one_line(failure.value)
    with pytest.raises(DictionaryError, match="does not exist"):
        Dictionary.open(tmp_path / "missing.sqlite")


def test_a_dictionary_damaged_after_it_was_opened_fails_in_one_line(tmp_path, built):
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(built.read_bytes())
    d = Dictionary.open(copy)
    data = bytearray(copy.read_bytes())
    data[4096:] = b"\xff" * (len(data) - 4096)  # every page after the first overwritten
    copy.write_bytes(bytes(data))
    with pytest.raises(DictionaryError) as failure:
        d.lookup("apple")
    assert "cannot be read" in one_line(failure.value)


@pytest.mark.parametrize(
    "content, said",
    [
        (b"word,meaning\napple,x\n", "not ECDICT data"),
        (b"PK\x03\x04 not really a zip", "not a readable .zip"),
        (
            "word,phonetic,definition,translation,pos,collins,oxford,tag,bnc,frq,exchange\nx,\xff\n".encode("latin-1"),
            "not UTF-8",
        ),
        (b"", "not ECDICT data"),
    ],
)
def test_a_foreign_source_is_refused_in_one_line_and_the_installed_one_stays(tmp_path, built, content, said):
    dest = tmp_path / "d.sqlite"
    dest.write_bytes(built.read_bytes())
    bad = tmp_path / "bad.csv"
    bad.write_bytes(content)
    with pytest.raises(DictionaryError) as failure:
        convert(bad, dest)
    assert said in one_line(failure.value)
    assert dest.read_bytes() == built.read_bytes() and sorted(p.name for p in tmp_path.iterdir()) == [
        "bad.csv",
        "d.sqlite",
    ]


def test_foreign_sqlite_zip_and_oversized_sources_are_refused(tmp_path):
    other = tmp_path / "stardict.db"
    with sqlite3.connect(other) as db:  # a view called stardict: not the table, and never run
        db.execute(
            "CREATE VIEW stardict AS WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n) SELECT i FROM n"
        )
    with pytest.raises(DictionaryError, match="not ECDICT's stardict.db"):
        convert(other, tmp_path / "a.sqlite")
    readme = tmp_path / "readme.txt"
    readme.write_text("hello", encoding="utf-8")
    with pytest.raises(DictionaryError, match="holds no ECDICT file"):
        convert(write_zip(tmp_path / "x.zip", readme, "readme.txt"), tmp_path / "b.sqlite")
    long_field = tmp_path / "long.csv"
    write_csv(long_field, [("word", "", "", "x" * 200_000, "", "", "", "", "0", "0", "")])
    with pytest.raises(DictionaryError, match="line 2"):
        convert(long_field, tmp_path / "c.sqlite")
    raised = csv.field_size_limit(1 << 24)  # another part of the process raised csv's bound: still refused
    try:
        with pytest.raises(DictionaryError, match="line 2: a field is longer than the bound"):
            convert(long_field, tmp_path / "c.sqlite")
    finally:
        csv.field_size_limit(raised)
    with pytest.raises(DictionaryError, match="holds 16 entries, ECDICT's data has at least 1000"):
        convert(write_csv(tmp_path / "e.csv"), tmp_path / "d.sqlite", min_entries=1000)
    assert not list(tmp_path.glob("*.sqlite")) and not list(tmp_path.glob(".*"))


def test_a_cancelled_conversion_leaves_nothing(tmp_path, built):
    rows = [(f"word{i}", "", "", "n. 词", "", "", "", "", "0", "0", "") for i in range(20_000)]
    source = write_csv(tmp_path / "big.csv", rows)
    dest = tmp_path / "d.sqlite"
    dest.write_bytes(built.read_bytes())
    token = CancelToken()
    with pytest.raises(Cancelled):
        convert(source, dest, progress=lambda done, total: token.cancel(), cancel=token)
    assert dest.read_bytes() == built.read_bytes()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["big.csv", "d.sqlite"]
