"""The runtime tokenizers of mBART-50 (tokenizer.json), M2M100 (SentencePiece + vocab.json) and NLLB-200
(tokenizer.json) against transformers' MBart50TokenizerFast, M2M100Tokenizer and NllbTokenizerFast,
on hard strings, language codes written in the text, unknown pieces and random ids."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from test_tokenizer import HARD_STRINGS, corpus_lines

transformers = pytest.importorskip("transformers")

from fanyi.engine.detok import StreamDecoder  # noqa: E402
from fanyi.engine.json_tokenizer import JsonTokenizer  # noqa: E402
from fanyi.engine.pack import ModelPack  # noqa: E402
from fanyi.engine.tokenizer import M2M100Tokenizer  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
FAMILIES = ("mbart50", "m2m100", "nllb")
SOURCES = {
    "mbart50": ("en_XX", "zh_CN", "fr_XX"),
    "m2m100": ("en", "zh", "ast"),
    "nllb": ("eng_Latn", "zho_Hant", "yue_Hant"),
}
# fmt: off
CODE_STRINGS = [  # language codes and specials written in a text
    "en_XX Hello", "zh_CN你好", "hello zh_CN world", "__en__ Hello", "__fr__", "x__zh__y", "eng_Latn Hello",
    "zho_Hans 你好 zho_Hant", "<mask>", "a <mask> b", "a<mask>b", "<s>", "a </s> b", "<pad><unk>", "en_xx",
    "__xx__", "fr_XX__fr__fra_Latn",
]
# fmt: on


def texts() -> list[str]:
    return HARD_STRINGS + CODE_STRINGS + corpus_lines("en.txt")[:120] + corpus_lines("zh.txt")[:120]


@pytest.fixture(scope="module", params=FAMILIES)
def pair(request, tiny_hf_many, tiny_many_pack):
    family = request.param
    pack = ModelPack.open(tiny_many_pack(family))
    return (
        family,
        pack,
        pack.family.open_tokenizer(pack),
        transformers.AutoTokenizer.from_pretrained(tiny_hf_many(family)),
    )


def test_the_reference_is_the_family_tokenizer(pair):
    family, _, ours, hf = pair
    expected = {"mbart50": "MBart50TokenizerFast", "m2m100": "M2M100Tokenizer", "nllb": "NllbTokenizerFast"}
    assert type(hf).__name__ == expected[family]
    assert type(ours) is (M2M100Tokenizer if family == "m2m100" else JsonTokenizer)


def test_fairseq_ids(pair):
    _, _, _, hf = pair
    assert [hf.convert_tokens_to_ids(t) for t in ("<s>", "<pad>", "</s>", "<unk>")] == [0, 1, 2, 3]


def test_encode_matches_hf_for_every_source_language(pair):
    family, pack, ours, hf = pair
    tokens = pack.language_tokens
    for source in SOURCES[family]:
        hf.src_lang = source
        mismatches = [t for t in texts() if ours.encode(t, tokens[source][0]) != hf(t)["input_ids"]]
        assert not mismatches, (source, mismatches[:3])


def test_hard_strings_reach_unknown_pieces(pair):
    """The encodings above include <unk> (pieces missing from the vocabulary), or they prove less."""
    family, pack, ours, _ = pair
    token = pack.language_tokens[SOURCES[family][0]][0]
    assert any(3 in ours.encode(t, token) for t in texts())


def interesting_ids(pack: ModelPack) -> list[int]:
    vocab = int(pack.architecture["vocab_size"])
    langs = [i for _, i in pack.language_tokens.values()]
    return [0, 1, 2, 3, -1, vocab - 1, vocab, vocab + 5, *langs[:20]]


def random_id_sequences(pack: ModelPack, count: int, seed: int) -> list[list[int]]:
    rng = random.Random(seed)
    special = interesting_ids(pack)
    vocab = int(pack.architecture["vocab_size"])
    return [
        [rng.choice(special) if rng.random() < 0.25 else rng.randrange(vocab) for _ in range(rng.randrange(25))]
        for _ in range(count)
    ]


def test_decode_matches_hf(pair):
    _, pack, ours, hf = pair
    sequences = random_id_sequences(pack, 1500, seed=1) + [ours.encode(t, None) for t in texts()]
    for ids in sequences:
        assert ours.decode(ids) == hf.decode([i for i in ids if i >= 0], skip_special_tokens=True), ids


def test_streaming_pieces_concatenate_to_decode(pair):
    _, pack, ours, _ = pair
    for ids in random_id_sequences(pack, 800, seed=2) + [ours.encode(t, None) for t in texts()]:
        stream = StreamDecoder(ours)
        assert "".join(stream.push([i]) for i in ids) + stream.finish() == ours.decode(ids), ids


def test_decode_with_clean_up_matches_hf(pair, tmp_path):
    _, pack, _, hf = pair
    config = json.loads(pack.file("tokenizer_config.json").read_text(encoding="utf-8"))
    for name in pack.manifest["files"]:
        (tmp_path / name).write_bytes(pack.file(name).read_bytes())
    (tmp_path / "tokenizer_config.json").write_text(json.dumps({**config, "clean_up_tokenization_spaces": True}))
    clean = ModelPack(tmp_path, pack.manifest)
    ours = clean.family.open_tokenizer(clean)  # the same pack with clean-up switched on
    assert ours.clean_up_tokenization_spaces
    sequences = random_id_sequences(pack, 400, seed=3) + [ours.encode(t, None) for t in texts()]
    changed = 0
    for ids in sequences:
        expected = hf.decode([i for i in ids if i >= 0], skip_special_tokens=True, clean_up_tokenization_spaces=True)
        assert ours.decode(ids) == expected, ids
        stream = StreamDecoder(ours)
        assert "".join(stream.push([i]) for i in ids) + stream.finish() == expected, ids
        changed += expected != hf.decode([i for i in ids if i >= 0], skip_special_tokens=True)
    assert changed  # the clean-up had something to do


def test_nllb_legacy_behaviour_puts_the_language_after_eos(tiny_hf_many, tiny_many_pack):
    folder = tiny_hf_many("nllb")
    hf = transformers.NllbTokenizerFast.from_pretrained(folder, legacy_behaviour=True, src_lang="zho_Hans")
    pack = ModelPack.open(tiny_many_pack("nllb"))
    ours = JsonTokenizer(
        pack.file("tokenizer.json"), dict(pack.language_tokens.values()), source_token_position="suffix"
    )
    for text in texts():
        assert ours.encode(text, "zho_Hans") == hf(text)["input_ids"], text


def test_m2m100_folder_without_special_language_tokens(tiny_hf_many, tmp_path, tiny_many_pack):
    """transformers 4.57 saves an M2M100 tokenizer without its language tokens as special tokens;
    "__fr__" in a text is then ordinary text, and decoding keeps it."""
    folder = tiny_hf_many("m2m100")
    hf = transformers.M2M100Tokenizer(
        vocab_file=str(folder / "vocab.json"), spm_file=str(folder / "sentencepiece.bpe.model"), src_lang="fr"
    )
    assert not hf.additional_special_tokens
    pack = ModelPack.open(tiny_many_pack("m2m100"))
    ours = M2M100Tokenizer.from_files(
        folder / "sentencepiece.bpe.model",
        folder / "vocab.json",
        dict(pack.language_tokens.values()),
        languages_are_special=False,
    )
    for text in texts():
        assert ours.encode(text, "__fr__") == hf(text)["input_ids"], text
    for ids in random_id_sequences(pack, 500, seed=4):
        assert ours.decode(ids) == hf.decode([i for i in ids if i >= 0], skip_special_tokens=True), ids


def test_runtime_tokenizers_import_no_transformers():
    code = (
        "import sys; import fanyi.engine.families, fanyi.engine.detok; "
        "bad = {'transformers', 'torch', 'sentencepiece.sentencepiece_model_pb2'} & set(sys.modules); "
        "assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ROOT, env={"PYTHONPATH": str(ROOT / "app")})


def test_a_tokenizer_json_whose_decoding_cannot_be_streamed_exactly_is_refused(tiny_many_pack, tmp_path):
    from fanyi.engine.json_tokenizer import TokenizerFileError

    pack = ModelPack.open(tiny_many_pack("nllb"))
    config = json.loads(pack.file("tokenizer.json").read_text(encoding="utf-8"))
    config["decoder"] = {"type": "ByteLevel", "add_prefix_space": True, "trim_offsets": True, "use_regex": True}
    (tmp_path / "tokenizer.json").write_text(json.dumps(config), encoding="utf-8")
    with pytest.raises(TokenizerFileError, match="'ByteLevel' is not supported"):
        JsonTokenizer(tmp_path / "tokenizer.json", dict(pack.language_tokens.values()))
