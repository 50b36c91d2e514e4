"""mBART-50 and NLLB-200 folders without tokenizer.json (sentencepiece.bpe.model, tokenizer_config.json,
special_tokens_map.json, as older repositories ship them) convert without torch and transformers into packs that
tokenize as transformers' slow MBart50Tokenizer / NllbTokenizer and decode generate()'s ids."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import pytest
from test_export_torchfree import EXPORT_ALL
from test_many_to_many import LANGS, Reference, sentences
from test_tokenizer import HARD_STRINGS, corpus_lines
from test_tokenizer_families import CODE_STRINGS

from fanyi.engine.detok import StreamDecoder
from fanyi.engine.options import DecodeOptions
from fanyi.engine.pack import ModelPack
from fanyi.engine.tokenizer import M2M100Tokenizer, load_spm
from fanyi.engine.translator import Translator
from fanyi.export.checkpoint_files import needed_files
from fanyi.export.convert import export_pack
from fanyi.export.errors import ExportError
from fanyi.export.tokenizer_info import HfTokenizer

transformers = pytest.importorskip("transformers")

FAMILIES = ("mbart50", "nllb")
SLOW_CLASS = {"mbart50": "MBart50Tokenizer", "nllb": "NllbTokenizer"}
SOURCES = {"mbart50": ("en_XX", "zh_CN", "fr_XX"), "nllb": ("eng_Latn", "zho_Hans", "yue_Hant")}
# <mask> takes the whitespace on its left with it (an AddedToken with lstrip)
MASKS = [
    "a <mask> b",
    "a  <mask>  b",
    "x\u3000\n<mask>y",
    "<mask><mask>",
    "en_XX <mask> zh_CN",
    " <mask> ",
    "你好 <mask>。",
]
UNKNOWN = ["饕餮 ꙮ 𓀀", "Ωmega ☃ snow", "zho_Hans 饕 eng_Latn"]  # characters the tiny SentencePiece model never saw


def texts() -> list[str]:
    return HARD_STRINGS + CODE_STRINGS + MASKS + UNKNOWN + corpus_lines("en.txt")[:80] + corpus_lines("zh.txt")[:80]


def slow_tokenizer(folder: Path):
    return transformers.AutoTokenizer.from_pretrained(folder, use_fast=False)


def without_tokenizer_json(source: Path, dest: Path) -> Path:
    folder = Path(shutil.copytree(source, dest))
    (folder / "tokenizer.json").unlink()
    return folder


@pytest.fixture(scope="module")
def slow_folders(tiny_hf_many, tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("slow-only")
    return {family: without_tokenizer_json(tiny_hf_many(family), root / family) for family in FAMILIES}


@pytest.fixture(scope="module")
def slow_packs(slow_folders, tmp_path_factory) -> dict[str, Path]:
    """Each folder exported in a process where torch and transformers cannot be imported."""
    out = tmp_path_factory.mktemp("slow-packs")
    jobs = [(str(slow_folders[family]), str(out / family), "none") for family in FAMILIES]
    done = subprocess.run(
        [sys.executable, "-c", EXPORT_ALL.format(block=True), json.dumps(jobs)],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return {family: out / family for family in FAMILIES}


@pytest.fixture(scope="module", params=FAMILIES)
def pair(request, slow_folders, slow_packs):
    family = request.param
    pack = ModelPack.open(slow_packs[family])
    return family, pack, pack.family.open_tokenizer(pack), slow_tokenizer(slow_folders[family])


# --- the pack ----------------------------------------------------------------------------------------
def test_the_pack_holds_the_sentencepiece_model_and_the_slow_tokenizers_fairseq_vocabulary(pair):
    family, pack, ours, hf = pair
    assert type(hf).__name__ == SLOW_CLASS[family] and type(ours) is M2M100Tokenizer
    assert pack.manifest["tokenizer"] == "sentencepiece"
    files = set(pack.manifest["files"])
    assert {"sentencepiece.bpe.model", "vocab.json"} <= files and "tokenizer.json" not in files
    vocab = json.loads(pack.file("vocab.json").read_text(encoding="utf-8"))
    assert vocab == hf.get_vocab()
    sp = load_spm(pack.file("sentencepiece.bpe.model"))
    assert [vocab[t] for t in ("<s>", "<pad>", "</s>", "<unk>")] == [0, 1, 2, 3]
    assert all(vocab[sp.id_to_piece(i)] == i + 1 for i in range(3, len(sp)))
    languages = [i for _token, i in pack.language_tokens.values()]
    assert min(languages) > len(sp)  # after the SentencePiece vocabulary
    if family == "mbart50":  # fairseq's: the 52 codes, then <mask>
        assert sorted(languages) == list(range(len(sp) + 1, len(sp) + 53)) and vocab["<mask>"] == len(sp) + 53
    assert pack.manifest["added_tokens"]["<mask>"] == {"lstrip": True, "rstrip": False}
    assert {t.content: i for i, t in hf.added_tokens_decoder.items()} == {
        t: vocab[t] for t in pack.manifest["added_tokens"]
    }


def test_the_pack_has_the_weights_of_the_one_made_with_tokenizer_json_and_the_same_bytes_beside_transformers(
    slow_folders, slow_packs, tiny_many_pack, tmp_path
):
    for family in FAMILIES:
        here = export_pack(slow_folders[family], tmp_path / family)  # transformers is loaded in this process
        for name in ("encoder.onnx", "decoder.onnx", "shared.bin"):
            assert (slow_packs[family] / name).read_bytes() == (tiny_many_pack(family) / name).read_bytes(), name
        for path in here.iterdir():
            assert path.read_bytes() == (slow_packs[family] / path.name).read_bytes(), path.name


# --- tokenizing and decoding ---------------------------------------------------------------------
def test_source_ids_are_the_slow_tokenizers(pair):
    family, pack, ours, hf = pair
    for source in SOURCES[family]:
        hf.src_lang = source
        token = pack.language_tokens[source][0]
        mismatches = [t for t in texts() if ours.encode(t, token) != hf(t)["input_ids"]]
        assert not mismatches, (source, mismatches[:3])
    # the texts reach what the vocabulary decides: unknown pieces, language codes and <mask> written in them
    token = pack.language_tokens[SOURCES[family][0]][0]
    encoded = [ours.encode(t, token)[1:] for t in texts()]
    unk, mask = hf.unk_token_id, hf.convert_tokens_to_ids("<mask>")
    assert all(unk in ours.encode(t, token) for t in UNKNOWN)
    assert any(pack.language_tokens[SOURCES[family][1]][1] in ids for ids in encoded)
    assert sum(mask in ids for ids in encoded) >= len(MASKS)


def test_decoding_is_the_slow_tokenizers_streamed_or_not(pair):
    _, pack, ours, hf = pair
    rng = random.Random(7)
    size = len(hf)
    special = [0, 1, 2, 3, size - 1, *[i for _token, i in pack.language_tokens.values()][:10]]
    sequences = [
        [rng.choice(special) if rng.random() < 0.25 else rng.randrange(size) for _ in range(rng.randrange(25))]
        for _ in range(1500)
    ] + [ours.encode(t, None) for t in texts()]
    for ids in sequences:
        expected = hf.decode(ids, skip_special_tokens=True)
        assert ours.decode(ids) == expected, ids
        stream = StreamDecoder(ours)
        assert "".join(stream.push([i]) for i in ids) + stream.finish() == expected, ids


@pytest.mark.parametrize("family", FAMILIES)
def test_decoding_gives_generates_ids_with_the_same_weights(family, slow_folders, slow_packs):
    source, target = LANGS[family]
    reference = Reference(slow_folders[family], family, source, target, slow=True)
    translator = Translator.open(slow_packs[family], threads=1)
    texts = [*sentences("en", 6), "Hello 饕餮 world <mask> zh_CN!"]
    sources = [reference.ids(t) for t in texts]
    outputs = set()
    for options in (DecodeOptions(beams=1), DecodeOptions(), DecodeOptions(beams=3, length_penalty=0.6)):
        ours = replace(options, source=source, target=target)
        assert [translator.encode(t, ours) for t in texts] == sources
        generated = translator.generate_ids(sources, ours)
        assert generated == reference.generate(texts, options)
        outputs.update(tuple(ids) for ids in generated)
    assert len(outputs) >= 6  # the outputs depend on the input


@pytest.mark.parametrize("family", FAMILIES)
def test_fanyi_validate_checks_the_pack_against_the_slow_tokenizer(family, slow_folders, slow_packs):
    from fanyi.export.validate import validate_pack

    report = validate_pack(slow_packs[family], slow_folders[family], sentences("en", 4))
    assert report.passed, report.text()
    assert report.identical_outputs == report.sentences == 4


# --- other ways of writing the folder ----------------------------------------------------------
def _older_format(folder: Path, config: dict) -> None:  # no added_tokens_decoder: special_tokens_map.json counts
    config.pop("added_tokens_decoder")


def _mask_serialized_without_lstrip(folder: Path, config: dict) -> None:
    config.pop("added_tokens_decoder")
    config["mask_token"] = {"__type": "AddedToken", "content": "<mask>", "lstrip": False, "rstrip": True}


def _no_added_tokens_file(folder: Path, config: dict) -> None:
    config.pop("added_tokens_decoder")
    (folder / "added_tokens.json").unlink(missing_ok=True)


def _no_languages_named(folder: Path, config: dict) -> None:  # the classes' own language lists
    _no_added_tokens_file(folder, config)
    config.pop("additional_special_tokens")
    (folder / "special_tokens_map.json").unlink()


def _whitespace_kept(folder: Path, config: dict) -> None:
    """A SentencePiece model that keeps the whitespace around a text (the tiny ones, as mBART-50's and NLLB's,
    remove it, and then which whitespace <mask> takes with it changes nothing)."""
    from sentencepiece import sentencepiece_model_pb2

    path = folder / "sentencepiece.bpe.model"
    proto = sentencepiece_model_pb2.ModelProto()
    proto.ParseFromString(path.read_bytes())
    proto.normalizer_spec.remove_extra_whitespaces = False
    path.write_bytes(proto.SerializeToString())


def _mask_stripping_on_its_right(folder: Path, config: dict) -> None:
    _whitespace_kept(folder, config)
    for token in config["added_tokens_decoder"].values():
        if token["content"] == "<mask>":
            token.update(lstrip=False, rstrip=True)


def _legacy_behaviour(folder: Path, config: dict) -> None:  # NLLB: the language after </s>
    config["legacy_behaviour"] = True


VARIANTS = [
    _older_format,
    _mask_serialized_without_lstrip,
    _no_added_tokens_file,
    _no_languages_named,
    _whitespace_kept,
    _mask_stripping_on_its_right,
    _legacy_behaviour,
]


def _variant(folder: Path, dest: Path, change) -> Path:
    folder = Path(shutil.copytree(folder, dest))
    config = json.loads((folder / "tokenizer_config.json").read_text(encoding="utf-8"))
    change(folder, config)
    (folder / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    return folder


@pytest.mark.parametrize("change", VARIANTS, ids=lambda change: change.__name__.strip("_"))
@pytest.mark.parametrize("family", FAMILIES)
def test_each_way_of_writing_the_folder_is_read_as_the_slow_tokenizer_reads_it(family, change, slow_folders, tmp_path):
    folder = _variant(slow_folders[family], tmp_path / "folder", change)
    hf = slow_tokenizer(folder)
    slow = HfTokenizer(folder, SLOW_CLASS[family]).slow
    assert slow is not None
    assert slow.ids == hf.get_vocab()
    assert slow.manifest_added_tokens() == {
        t.content: {"lstrip": t.lstrip, "rstrip": t.rstrip} for _, t in sorted(hf.added_tokens_decoder.items())
    }
    tokenizer = _runtime_tokenizer(folder, export_pack(folder, tmp_path / "pack"))
    for source in SOURCES[family][:2]:
        hf.src_lang = source
        mismatches = [t for t in HARD_STRINGS + CODE_STRINGS + MASKS if tokenizer(t, source) != hf(t)["input_ids"]]
        assert not mismatches, (source, mismatches[:3])


@pytest.mark.parametrize("family", FAMILIES)
def test_mask_takes_the_whitespace_on_its_left_with_it(family, slow_folders, tmp_path):
    folder = _variant(slow_folders[family], tmp_path / "folder", _whitespace_kept)
    encode = _runtime_tokenizer(folder, export_pack(folder, tmp_path / "pack"))
    source = SOURCES[family][0]
    hf = slow_tokenizer(folder)
    hf.src_lang = source
    assert encode("a <mask>", source) == encode("a<mask>", source) == hf("a <mask>")["input_ids"]
    assert encode("a <s>", source) != encode("a<s>", source) == hf("a<s>")["input_ids"]


def _runtime_tokenizer(folder: Path, pack_path: Path):
    pack = ModelPack.open(pack_path)
    tokenizer = pack.family.open_tokenizer(pack)
    return lambda text, source: tokenizer.encode(text, pack.language_tokens[source][0])


def _not_special(folder: Path, config: dict) -> None:
    config["added_tokens_decoder"]["5000"] = {"content": "hello_world", "special": False}


def _single_word(folder: Path, config: dict) -> None:
    for token in config["added_tokens_decoder"].values():
        if token["content"] == "<mask>":
            token["single_word"] = True


@pytest.mark.parametrize(
    ("change", "message"),
    [(_not_special, "'hello_world' is not a special token"), (_single_word, "'<mask>' is single_word")],
)
def test_a_vocabulary_the_runtime_cannot_reproduce_is_refused_in_one_line(slow_folders, tmp_path, change, message):
    folder = _variant(slow_folders["nllb"], tmp_path / "folder", change)
    with pytest.raises(ExportError, match=message) as err:
        export_pack(folder, tmp_path / "pack")
    assert "\n" not in str(err.value)
    assert not (tmp_path / "pack").exists()


def test_a_repository_without_tokenizer_json_downloads_what_the_export_reads(slow_folders):
    for folder in slow_folders.values():
        present = {p.name for p in folder.iterdir()}  # all of it read by the export
        assert "sentencepiece.bpe.model" in present
        assert set(needed_files(present | {"README.md", "flax_model.msgpack"}, lambda _name: b"")) == present
