"""fanyi.engine.tokenizer against transformers.MarianTokenizer on folders from train_marian_tokenizer."""

from __future__ import annotations

import json
import random
import subprocess
import sys
import warnings
from pathlib import Path

import pytest

transformers = pytest.importorskip("transformers")

from tiny_models.spm_files import train_marian_tokenizer  # noqa: E402

from fanyi.engine.tokenizer import Tokenizer  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "assets" / "corpus"
EN_ZH_TARGETS = (">>cmn_Hans<<", ">>cmn_Hant<<", ">>yue<<")
DIRECTIONS = ("en-zh", "zh-en")

# fmt: off
HARD_STRINGS = [
    # empty, whitespace, leading/trailing spaces
    "", " ", "   ", "\t", "\n", "\n\n", " \t\n ", "\u3000", " leading", "trailing ", "  both  ",
    "tabs\tinside\ttext", "line\nbreaks\nhere", "windows\r\nline end", "many     spaces   inside",
    # emoji
    "I love 🐼 and 🍜!", "👨‍👩‍👧‍👦 family", "🏳️‍🌈", "😀😃😄🤖", "🇨🇳🇬🇧", "❤️",
    # CJK punctuation, full-width forms, Traditional, mixed
    "你好，世界！这是“测试”。（括号）《书名》、顿号；分号：冒号？", "「引号」『双引号』……——",
    "ＡＢＣ１２３！？　全角空格", "ｈｅｌｌｏ　ｗｏｒｌｄ", "這是繁體中文。", "Hello世界123", "我用WeChat发了3条消息",
    "Привет мир", "こんにちは", "안녕하세요", "مرحبا", "שלום", "नमस्ते", "ελληνικά", "Ω≈ç√∫",
    # numbers and dates
    "3.14159", "1,000,000", "-42", "1e10", "2024-03-15T14:30:00Z", "+86 138 0013 8000", "½ ¼ ² ³ ①②③", "Ⅻ",
    "$1,234.56 ¥99 €5 £3", "12:30 p.m.",
    # URLs, e-mails, code
    "https://example.com/path?q=1&r=2#frag", "user.name+tag@sub.example.co.uk", "C:\\Users\\x\\a.txt",
    "if (a < b && c > d) { return; }", "<div class=\"x\">hi</div>",
    # very long words
    "a" * 1000, "Supercalifragilistic" * 50, "的" * 1000, "x" + "🐼" * 300,
    # control and zero-width characters
    "a\x00b", "\x01\x02\x03", "bell\x07", "del\x7f", "esc\x1b[31mred\x1b[0m", "\u0085next", "\u2028sep\u2029",
    "zero\u200bwidth", "\u200c\u200d", "\ufeffBOM", "soft\u00adhyphen", "\u2060joiner", "e\u0301 vs é", "ﬁ ligature",
    # special tokens appearing literally
    "a </s> b", "</s>", "</s></s>", "x</s>y", "<unk>", "a<unk>b", "<pad>", "x <pad> y", "<s>", "< /s>", "<</s>>",
    "</s> leading", "trailing </s>", "mixed <unk></s><pad> all",
    # language codes
    ">>cmn_Hant<< Hello", ">>cmn_Hant<<Hello", ">>yue<<", ">>cmn_Hans<<", ">>xx<< unknown code", ">> cmn_Hans<<",
    ">>cmn_Hans<< >>cmn_Hant<< double", " >>cmn_Hans<< leading space", "text >>cmn_Hans<< middle", ">>>>x<<<<",
    ">>no end", "<<>>", ">><<", "</s>>>cmn_Hant<< after eos", ">>cmn_Hant<<</s>", ">>cmn_Hans<<你好",
    # SentencePiece's own symbols and English clean-up material
    "▁", "▁ literal ▁▁ underline", "⁇", "isn't , . ? ! 'm 's 've 're", "rock ' n ' roll", " ' ",
    'He said "don\'t" — it\'s \'fine\'…',
]
# fmt: on

TARGET_TOKENS = [None, "cmn_Hans", ">>cmn_Hant<<", "yue", "xx"]


def corpus_lines(name: str) -> list[str]:
    return (CORPUS / name).read_text(encoding="utf-8").splitlines()


def load_hf(folder: Path):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "Recommended: pip install sacremoses."
        hf = transformers.MarianTokenizer.from_pretrained(str(folder))
    return hf


def ours(folder: Path, **kwargs) -> Tokenizer:
    return Tokenizer.from_files(folder / "source.spm", folder / "target.spm", folder / "vocab.json", **kwargs)


@pytest.fixture(scope="session")
def folders(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("marian_tok")
    en_zh, zh_en = root / "en-zh", root / "zh-en"
    train_marian_tokenizer(en_zh, CORPUS / "en.txt", CORPUS / "zh.txt", target_tokens=EN_ZH_TARGETS)
    train_marian_tokenizer(zh_en, CORPUS / "zh.txt", CORPUS / "en.txt", source_lang="zh", target_lang="en")
    return {"en-zh": en_zh, "zh-en": zh_en}


@pytest.fixture(scope="session", params=DIRECTIONS)
def pair(request, folders):
    folder = folders[request.param]
    return request.param, ours(folder), load_hf(folder)


def all_texts() -> list[str]:
    return HARD_STRINGS + corpus_lines("en.txt") + corpus_lines("zh.txt")


# --- the folder itself ---------------------------------------------------------------------------


def test_vocab_layout(folders):
    vocab = json.loads((folders["en-zh"] / "vocab.json").read_text(encoding="utf-8"))
    assert vocab["</s>"] == 0 and vocab["<unk>"] == 1
    assert [vocab[t] for t in EN_ZH_TARGETS] == [2, 3, 4]
    assert vocab["<pad>"] == len(vocab) - 1
    assert sorted(vocab.values()) == list(range(len(vocab)))
    assert "<s>" not in vocab  # SentencePiece control pieces are not Marian tokens
    hf = load_hf(folders["en-zh"])
    assert (hf.eos_token_id, hf.unk_token_id, hf.pad_token_id) == (0, 1, len(vocab) - 1)
    assert hf.separate_vocabs is False and hf.model_max_length == 512


def test_training_is_deterministic(folders, tmp_path):
    vocab = train_marian_tokenizer(tmp_path, CORPUS / "en.txt", CORPUS / "zh.txt", target_tokens=EN_ZH_TARGETS)
    for name in ("source.spm", "target.spm", "vocab.json", "tokenizer_config.json", "special_tokens_map.json"):
        assert (tmp_path / name).read_bytes() == (folders["en-zh"] / name).read_bytes(), name
    assert vocab == json.loads((tmp_path / "vocab.json").read_text(encoding="utf-8"))


def test_every_corpus_character_has_a_piece(folders):
    tok = ours(folders["en-zh"])
    for line in corpus_lines("zh.txt"):
        assert tok.unk_id not in tok.encode_target(line), line
    tok = ours(folders["zh-en"])
    for line in corpus_lines("en.txt"):
        assert tok.unk_id not in tok.encode_target(line), line


def test_runtime_modules_do_not_import_transformers():
    code = (
        "import sys; import fanyi.engine.tokenizer, fanyi.engine.detok; "
        "bad = {'transformers', 'torch', 'sacremoses'} & set(sys.modules); assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT / "app")})


# --- encoding ------------------------------------------------------------------------------------


def test_special_ids_and_vocab(pair):
    _, tok, hf = pair
    assert (tok.eos_id, tok.unk_id, tok.pad_id) == (hf.eos_token_id, hf.unk_token_id, hf.pad_token_id)
    assert tok.vocab_size == hf.vocab_size
    ids = list(range(-2, hf.vocab_size + 3))
    assert [tok.id_to_piece(i) for i in ids] == [hf._convert_id_to_token(i) for i in ids]
    pieces = list(hf.encoder) + ["not-a-piece", "▁zzzq", ""]
    assert [tok.piece_to_id(p) for p in pieces] == hf.convert_tokens_to_ids(pieces)


def test_encode_matches_hf(pair):
    direction, tok, hf = pair
    mismatches = [t for t in all_texts() if tok.encode(t) != hf(t)["input_ids"]]
    assert not mismatches


@pytest.mark.parametrize("target", TARGET_TOKENS)
def test_encode_with_target_token_matches_hf(folders, target):
    tok, hf = ours(folders["en-zh"]), load_hf(folders["en-zh"])
    prefix = "" if target is None else target if target.startswith(">>") else f">>{target}<<"
    mismatches = [
        t
        for t in HARD_STRINGS + corpus_lines("en.txt")[:80]
        if tok.encode(t, target_token=target) != hf(prefix + t)["input_ids"]
    ]
    assert not mismatches


def test_encode_target_matches_hf(pair):
    _, tok, hf = pair
    mismatches = [t for t in all_texts() if tok.encode_target(t) != hf(text_target=t)["input_ids"]]
    assert not mismatches


def test_source_and_target_models_differ(pair):
    # Otherwise the two tests above could not tell the source and target models apart.
    _, tok, _ = pair
    lines = corpus_lines("en.txt") + corpus_lines("zh.txt")
    assert any(tok.encode(t) != tok.encode_target(t) for t in lines)


# --- decoding ------------------------------------------------------------------------------------


def interesting_ids(tok: Tokenizer, hf) -> list[int]:
    """Specials, language codes, source-only pieces (unknown to target.spm) and ids outside the vocab."""
    target_pieces = {hf.spm_target.id_to_piece(i) for i in range(hf.spm_target.get_piece_size())}
    source_only = [i for t, i in hf.encoder.items() if t not in target_pieces]
    langs = [i for t, i in hf.encoder.items() if t.startswith(">>")]
    return [tok.eos_id, tok.unk_id, tok.pad_id, -1, tok.vocab_size, tok.vocab_size + 7, *langs, *source_only[:50]]


def random_id_sequences(tok: Tokenizer, hf, count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    special = interesting_ids(tok, hf)
    out = []
    for _ in range(count):
        n = rng.randrange(0, 25)
        out.append([rng.choice(special) if rng.random() < 0.25 else rng.randrange(tok.vocab_size) for _ in range(n)])
    return out


def test_decode_random_ids_matches_hf(pair):
    _, tok, hf = pair
    assert len(interesting_ids(tok, hf)) > 6  # source-only pieces do exist
    for ids in random_id_sequences(tok, hf, 1500, seed=1):
        assert tok.decode(ids) == hf.decode(ids, skip_special_tokens=True), ids


def test_decode_encoded_corpus_matches_hf(pair):
    _, tok, hf = pair
    for text in all_texts():
        for ids in (tok.encode_target(text), tok.encode(text)):
            assert tok.decode(ids) == hf.decode(ids, skip_special_tokens=True), text


def test_clean_up_default_is_hf_default(pair):
    _, tok, hf = pair
    assert tok.clean_up_tokenization_spaces == hf.clean_up_tokenization_spaces


def test_decode_with_clean_up_matches_hf(folders, pair):
    direction, _, hf = pair
    tok = ours(folders[direction], clean_up_tokenization_spaces=True)
    sequences = random_id_sequences(tok, hf, 500, seed=2) + [tok.encode_target(t) for t in all_texts()]
    for ids in sequences:
        assert tok.decode(ids) == hf.decode(ids, skip_special_tokens=True, clean_up_tokenization_spaces=True), ids
    # The clean-up has something to do here, or this test would not test it.
    assert any(tok.decode(ids) != hf.decode(ids, skip_special_tokens=True) for ids in sequences)


def test_piece_text_rebuilds_decode(pair):
    _, tok, hf = pair
    for ids in random_id_sequences(tok, hf, 500, seed=3):
        assert "".join(map(tok.piece_text, ids)).strip() == tok.decode(ids), ids


def test_unusual_vocab_entries_decode_like_hf(folders, tmp_path):
    """vocab.json entries that are SentencePiece control pieces ("<s>") or its own unknown piece
    (here "<unk>", with another string as the Marian unk token) decode as HF decodes them."""
    src = folders["en-zh"]
    for name in ("source.spm", "target.spm"):
        (tmp_path / name).write_bytes((src / name).read_bytes())
    vocab = json.loads((src / "vocab.json").read_text(encoding="utf-8"))
    vocab["<s>"] = len(vocab)
    vocab["<unk2>"] = len(vocab)
    (tmp_path / "vocab.json").write_text(json.dumps(vocab), encoding="utf-8")
    config = json.loads((src / "tokenizer_config.json").read_text(encoding="utf-8"))
    (tmp_path / "tokenizer_config.json").write_text(json.dumps({**config, "unk_token": "<unk2>"}), encoding="utf-8")
    (tmp_path / "special_tokens_map.json").write_text(
        json.dumps({"eos_token": "</s>", "unk_token": "<unk2>", "pad_token": "<pad>"}), encoding="utf-8"
    )
    hf = load_hf(tmp_path)
    tok = ours(tmp_path, unk_token="<unk2>")
    odd = [vocab["<s>"], vocab["<unk>"], vocab["<unk2>"]]
    rng = random.Random(7)
    for _ in range(300):
        ids = [rng.choice(odd) if rng.random() < 0.4 else rng.randrange(len(vocab)) for _ in range(rng.randrange(12))]
        assert tok.decode(ids) == hf.decode(ids, skip_special_tokens=True), ids
        assert "".join(map(tok.piece_text, ids)).strip() == tok.decode(ids), ids
    for text in HARD_STRINGS:
        assert tok.encode(text) == hf(text)["input_ids"], text
