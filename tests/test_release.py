"""packaging/publish.py: the release pipeline end to end on a tiny local model, the gate, and fetch-default."""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import http.server
import io
import json
import re
import shutil
import sys
import threading
import zipfile
from itertools import islice
from pathlib import Path

import pytest

from fanyi.engine.options import DecodeOptions
from fanyi.engine.pack import ModelPack, file_digest
from fanyi.engine.segment import split_text
from fanyi.engine.translator import Translator
from fanyi.export.loaders.qwen3 import LANGUAGES as QWEN3_LANGUAGES
from fanyi.library import catalog, memory, unpack

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))
import publish  # noqa: E402
from release import archive, notices, reference, report, traditional  # noqa: E402
from release.spec import SpecError, dictionary_recipes, load_specs, recipes_catalog  # noqa: E402
from release.traditional import PROFILES  # noqa: E402

BASES = ("https://example.org/packs", "https://mirror.example.cn/packs/")
LICENSE = {"name": "Apache-2.0", "url": "https://www.apache.org/licenses/LICENSE-2.0", "commercial_use": True}
LLM_LICENSE = {
    "name": "Tencent HY Community License",
    "url": "https://example.org/License.txt",
    "commercial_use": True,
    "excluded_territories": ["EU", "GB", "KR"],
    "max_monthly_active_users": 100_000_000,
    "restrictions": {
        "en": ["Not licensed in the European Union, the United Kingdom or South Korea."],
        "zh_CN": ["不适用于欧盟、英国和韩国。"],
    },
    "notice": "Tencent HY is licensed under the Tencent HY Community License Agreement.",
    "ask_before_download": True,
}
LLM_DIRECTIONS = [["en", "zh"], ["zh", "en"]]


def spec(pack_id: str, **changes) -> dict:
    return {
        "id": pack_id,
        "version": 3,
        "display_name": {"en": "English → Chinese", "zh_CN": "英语 → 中文"},
        "architecture": "marian",
        "sources": {
            "huggingface": {
                "repo": "Helsinki-NLP/opus-mt-en-zh",
                "revision": "a4193836671069f1f80ce341f9227a850ffb52d4",
            },
            "modelscope": {"repo": "Helsinki-NLP/opus-mt-en-zh", "revision": "master"},
        },
        "convert": {"quantize": "int8"},
        "download_size": 310_000_000,
        "pack_size": 80_000_000,
        "source_lang": "en",
        "target_lang": "zh",
        "license": LICENSE,
        **changes,
    }


def llm_spec(pack_id: str, **changes) -> dict:
    return {
        "id": pack_id,
        "version": 2,
        "display_name": {"en": "Tiny translation LLM"},
        "architecture": "qwen3",
        "sources": {"huggingface": {"repo": "Qwen/Qwen3-1.7B", "revision": "d3e258980a49b060055ea9038dad99d75923f7c4"}},
        "convert": {"quantize": "int4"},
        "download_size": 4_000_000_000,
        "pack_size": 1_100_000_000,
        "languages": list(QWEN3_LANGUAGES),
        "score": LLM_DIRECTIONS,
        "license": LLM_LICENSE,
        **changes,
    }


def run(*args: str) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = publish.main(list(args))
    return code, err.getvalue()


def _plain_sentence(translator: Translator, line: str) -> bool:
    """One sentence (the packs split sentences, PyTorch does not) that the random model does not loop on
    (the packs decode a degenerate sentence again with a guard; generate() has none)."""
    pieces = [p for p in split_text(line, source_lang="en") if p.translate]
    if len(pieces) != 1 or pieces[0].text != line.strip():
        return False
    source = translator.encode(line)
    ids = translator.generate_ids([source])[0]
    return translator.sentence_check(source).verdict(ids, translator.tokenizer.decode(ids)) is None


def _greedy_as_is(translator: Translator, line: str, options: DecodeOptions) -> bool:
    """A paragraph whose translation is the LLM's own greedy output: the degenerate-output guard, which
    generate() has not, leaves it alone."""
    ids = translator.generate_ids([translator.encode(line, options)], options)[0]
    raw = translator.tokenizer.decode(ids)
    return bool(raw) and translator.translate(line, options) == raw


def _read_lines(path: str) -> list[str]:
    return Path(path).read_text(encoding="utf-8").splitlines()


def _write_test_set(root: Path, name: str, sources: list[str], references: list[str]) -> tuple[str, str]:
    (root / f"{name}.src").write_text("\n".join(sources) + "\n", encoding="utf-8")
    (root / f"{name}.ref").write_text("\n".join(references) + "\n", encoding="utf-8")
    return str(root / f"{name}.src"), str(root / f"{name}.ref")


@pytest.fixture(scope="module")
def release_inputs(tmp_path_factory, tiny_hf_en_zh, tiny_pack, tiny_hf_llm, release_reference):
    """recipes.json with the tiny en→zh model, a tiny Qwen3 translation LLM (with a licence file, as the
    real repositories have) and an optional pack that cannot export; 4-sentence test sets en→zh and zh→en."""
    root = tmp_path_factory.mktemp("release")
    (root / "recipes.json").write_text(
        json.dumps(
            {
                "packs": [
                    spec("opus-mt-en-zh", default=True),
                    spec("broken-zh-en", source_lang="zh", target_lang="en", optional=True),
                    llm_spec("tiny-llm"),
                ]
            }
        ),
        encoding="utf-8",
    )
    (root / "not-a-model").mkdir()
    llm_hf = root / "hf-tiny-llm"
    shutil.copytree(tiny_hf_llm("qwen3"), llm_hf)
    (llm_hf / "LICENSE").write_text("The tiny model's licence.\n", encoding="utf-8")
    # Qwen3's released generation_config.json sets no length: a random model loops long before the 512 new
    # tokens a pack then allows, and the guard rewrites nearly every output, so a few dozen are allowed here
    generation = json.loads((llm_hf / "generation_config.json").read_text(encoding="utf-8"))
    (llm_hf / "generation_config.json").write_text(json.dumps({**generation, "max_new_tokens": 40}), encoding="utf-8")
    # en→zh: references are the Marian fp32 pack's own (PyTorch and that pack must score 100), on sentences
    # both models translate plainly
    from fanyi.export.convert import export_pack

    marian, llm = Translator.open(tiny_pack), Translator.open(export_pack(llm_hf, root / "tiny-llm-pack"))
    en_zh, zh_en = DecodeOptions(source="en", target="zh"), DecodeOptions(source="zh", target="en")
    lines = (ROOT / "assets/corpus/en.txt").read_text(encoding="utf-8").splitlines()
    sources = list(
        islice((line for line in lines if _plain_sentence(marian, line) and _greedy_as_is(llm, line, en_zh)), 4)
    )
    en_files = _write_test_set(root, "en-zh", sources, marian.translate_batch(sources))
    # zh→en: references are the LLM's fp32 pack's own
    lines = (ROOT / "assets/corpus/zh.txt").read_text(encoding="utf-8").splitlines()
    sources = list(islice((line for line in lines if line.strip() and _greedy_as_is(llm, line, zh_en)), 4))
    zh_files = _write_test_set(root, "zh-en", sources, llm.translate_batch(sources, zh_en))
    # en→繁體: the Marian pack's Simplified as Taiwan writes it (OpenCC), for quality.md's 繁體 table
    hant_refs = traditional.convert(marian.translate_batch(_read_lines(en_files[0])), "s2twp")
    hant_files = _write_test_set(root, "en-zh-Hant", _read_lines(en_files[0]), hant_refs)
    args = [
        "build",
        "--recipes",
        str(root / "recipes.json"),
        "--hf-dir",
        f"opus-mt-en-zh={tiny_hf_en_zh}",
        "--hf-dir",
        f"broken-zh-en={root / 'not-a-model'}",
        "--hf-dir",
        f"tiny-llm={llm_hf}",
        "--test-set",
        "en-zh",
        "corpus sample",
        *en_files,
        "--test-set",
        "zh-en",
        "corpus sample",
        *zh_files,
        "--test-set",
        "en-zh-Hant",
        "corpus sample",
        *hant_files,
        "--llm-limit",
        "3",
        "--base-url",
        BASES[0],
        "--base-url",
        BASES[1],
        "--catalog-url",
        BASES[0] + "/catalog.json",
        "--serial",
        "2026120315",
        "--min-int8-agreement",
        "0",
        "--min-int4-agreement",
        "0",
        "--allow-reference-disagreement",
    ]
    return root, args


@pytest.fixture(scope="module")
def release(release_inputs):
    """One passing build: the random models' int8 and int4 copies are far from PyTorch, so the losses
    allowed are wide."""
    root, args = release_inputs
    out = root / "out"
    code, err = run(
        *args,
        "--out",
        str(out),
        "--max-bleu-loss",
        "101",
        "--max-chrf-loss",
        "101",
        "--max-int4-bleu-loss",
        "101",
        "--max-int4-chrf-loss",
        "101",
    )
    assert code == 0, err
    return out, err


def test_build_writes_a_catalog_the_app_reads_with_the_archives_true_size_and_sha256(release):
    out, _ = release
    built = catalog.read(out / "catalog.json")
    assert built.serial == 2026120315 and built.catalog_urls == (BASES[0] + "/catalog.json",)
    entry = built.default_entry()
    assert [p.id for p in built.packs] == ["opus-mt-en-zh", "tiny-llm"] and entry.default and entry.version == 3
    zipped = out / entry.archive.file
    assert entry.archive.file == "opus-mt-en-zh-int8-v3.zip"
    assert (entry.archive.size, entry.archive.sha256) == tuple(file_digest(zipped)[k] for k in ("size", "sha256"))
    assert entry.urls == (f"{BASES[0]}/{zipped.name}", f"{BASES[1].rstrip('/')}/{zipped.name}")
    assert entry.revision == "a4193836671069f1f80ce341f9227a850ffb52d4" and entry.quantization == "int8"
    assert entry.target_tokens == ("cmn_Hans", "cmn_Hant", "yue") and entry.license.name == "Apache-2.0"
    assert entry.family_title == "MarianMT" and entry.kv_cache_bytes > 0
    assert entry.modelscope == catalog.Repository("Helsinki-NLP/opus-mt-en-zh", "master")


def test_the_published_recipe_pins_every_file_and_the_converted_files(release, tiny_hf_en_zh):
    """The release writes what it measured into the recipe: each file of the model with its size and sha256, the
    conversion validation chose, and the sha256 of the converted files, which the app checks its own against."""
    out, _ = release
    entry = catalog.read(out / "catalog.json").default_entry()
    assert set(entry.files) == {p.name for p in tiny_hf_en_zh.iterdir()}
    for name, pin in entry.files.items():
        digest = file_digest(tiny_hf_en_zh / name)
        assert (pin.size, pin.sha256) == (digest["size"], digest["sha256"])
    assert entry.download_size == sum(pin.size for pin in entry.files.values())
    assert entry.convert.quantize == "int8" and entry.convert.embeddings in ("int8", "fp32")
    from fanyi import __version__

    assert entry.converted.fanyi == __version__
    assert {"encoder.onnx", "decoder.onnx", "shared.bin", "vocab.json"} <= set(entry.converted.files)
    assert "MODEL_LICENSE.txt" not in entry.converted.files  # the release adds it after converting
    with zipfile.ZipFile(out / entry.archive.file) as zf:  # the published pack holds exactly those files
        published = json.loads(zf.read("manifest.json"))["files"]
    assert {n: published[n]["sha256"] for n in entry.converted.files} == entry.converted.files
    assert entry.pack_size == sum(published[n]["size"] for n in entry.converted.files)


def test_a_pack_made_from_the_published_recipe_is_the_one_the_release_validated(
    release, tiny_hf_en_zh, user_dirs, monkeypatch
):
    """The app makes the pack from the model's own files (a Hub on this computer serving them) and its converted
    files equal the release's hashes; a recipe whose hashes differ installs nothing."""
    from fanyi.library import install, installed
    from fanyi.library.errors import LibraryError
    from fanyi.library.sources.localhub import LocalHub
    from fanyi.library.sources.order import Preference

    monkeypatch.delenv("HF_HUB_OFFLINE")
    out, _ = release
    entry = catalog.read(out / "catalog.json").default_entry()
    recipe_only = dataclasses.replace(entry, archive=None, urls=())
    with LocalHub() as hub:
        hub.add("Helsinki-NLP/opus-mt-en-zh", tiny_hf_en_zh)
        hub.repos["Helsinki-NLP/opus-mt-en-zh"].refs[entry.revision] = hub.repos["Helsinki-NLP/opus-mt-en-zh"].commit
        here = Preference("url", hub.endpoint)
        tampered = dataclasses.replace(
            recipe_only,
            converted=catalog.Converted(entry.converted.fanyi, {**entry.converted.files, "shared.bin": "0" * 64}),
        )
        with pytest.raises(LibraryError, match=r"not the one the release validated \(shared.bin differ"):
            install.install(tampered, source=here)
        assert installed.list_packs() == []
        pack = install.install(recipe_only, source=here)
    files = json.loads((pack.path / "manifest.json").read_text(encoding="utf-8"))["files"]
    assert {n: files[n]["sha256"] for n in entry.converted.files} == entry.converted.files
    assert pack.pack_version == entry.version


def test_scores_compare_pytorch_and_both_packs_on_the_test_set(release):
    out, err = release
    quality = catalog.read(out / "catalog.json").packs[0].quality
    assert quality.test_set == "corpus sample, 4 sentences" and (quality.source, quality.target) == ("en", "zh")
    # the references are the fp32 pack's output, which equals generate()'s token for token (BLEU of a
    # translation shorter than four tokens is 0 even when it is exact; chrF is 100)
    assert quality.bleu.pytorch == quality.bleu.fp32 and quality.chrf.pytorch == quality.chrf.fp32 == 100.0
    assert 0 <= quality.bleu.int8 <= 100 and 0 <= quality.chrf.int8 <= 100 and quality.bleu.int4 is None
    assert 0 < quality.top1_agreement < 1
    table = (out / "quality.md").read_text(encoding="utf-8")
    # the catalog's numbers: all 4 sentences
    row = next(line for line in table.splitlines() if line.startswith("| opus-mt-en-zh |"))
    bleu = f"{quality.bleu.pytorch:.1f}"
    assert row == (
        f"| opus-mt-en-zh | en→zh | corpus sample, 4 sentences | {bleu} | {quality.bleu.int8:.1f} "
        f"| 100.0 | {quality.chrf.int8:.1f} |"
    )
    assert f"[opus-mt-en-zh] corpus sample, 4 sentences (en→zh): BLEU PyTorch {quality.bleu.pytorch:.2f}" in err


def test_quality_md_compares_every_pack_in_one_table_on_the_same_sentences(release):
    """The LLM translated 3 sentences (--llm-limit 3): OPUS-MT is scored again on those 3 beside it."""
    out, _ = release
    lines = (out / "quality.md").read_text(encoding="utf-8").splitlines()
    start = lines.index(report.HEADER.splitlines()[0])
    rows = [line.split(" | ") for line in lines[start + 2 :] if line.startswith("| ")]
    rows = rows[: next(i for i, r in enumerate(rows) if r[0] == "| pack")]  # up to the catalog's table
    three = "corpus sample, 3 sentences"
    assert [(r[0], r[1], r[2], r[3]) for r in rows] == [
        ("| en→zh", three, "opus-mt-en-zh", "int8"),
        ("| en→zh", three, "tiny-llm", "int4"),
        ("| zh→en", three, "tiny-llm", "int4"),
    ]
    for r in rows:  # the fp32 packs are generate() exactly, on these sentences too
        assert r[4] == r[5] and r[7] == r[8], r
    assert rows[2][7] == "100.0"  # zh→en: the references are the LLM's fp32 translations


def test_quality_md_scores_the_models_own_traditional_against_opencc_for_packs_writing_chinese(release):
    out, _ = release
    text = (out / "quality.md").read_text(encoding="utf-8")
    tables: dict[str, list[list[str]]] = {}
    for line in text[text.index("## 繁體") :].splitlines():
        if line.startswith("| ") and not line.startswith(("| the", "| Simplified")):
            rows = tables.setdefault(line.split(" | ")[0][2:], [])
        elif line.startswith(("| the", "| Simplified")):
            rows.append(line.strip("| ").split(" | "))
    assert list(tables) == ["opus-mt-en-zh, corpus sample, 4 sentences", "tiny-llm, corpus sample, 3 sentences"]
    for pack, rows in tables.items():
        # the pack's own Traditional (OPUS-MT's >>cmn_Hant<<, the LLM's zh-Hant) beside each OpenCC profile
        assert [r[0] for r in rows] == [
            "the model's own Traditional",
            *(f"Simplified + {label}" for label in PROFILES.values()),
        ]
        assert all(0 <= float(r[1]) <= 100 and 0 <= float(r[2]) <= 100 for r in rows)
        assert all(r[3].endswith(f"of {pack.split(', ')[-1].split()[0]}") for r in rows), rows


def test_the_archive_holds_exactly_the_manifest_and_its_files_and_opens_verified(release, tmp_path):
    out, _ = release
    entry = catalog.read(out / "catalog.json").packs[0]
    with zipfile.ZipFile(out / entry.archive.file) as zf:
        infos = zf.infolist()
        manifest = json.loads(zf.read("manifest.json"))
    assert [i.filename for i in infos] == sorted(["manifest.json", *manifest["files"]])
    assert {(i.date_time, i.compress_type) for i in infos} == {((1980, 1, 1, 0, 0, 0), zipfile.ZIP_DEFLATED)}
    assert entry.archive.unpacked_size == sum(i.file_size for i in infos)

    pack = unpack.install(out / entry.archive.file, packs_dir=tmp_path / "packs")  # the app's own, verifying every file
    assert pack.name == "opus-mt-en-zh" and pack.quantization == "int8" and pack.pack_version == 3
    ref = pack.reference
    assert ref.sentence in reference.SENTENCES["en"] and ref.target == "cmn_Hans" and ref.output
    assert ref.int8_weights and set(ref.int8_weights) <= {"full", "reduced"}
    assert Translator.open(pack.path).translate(ref.sentence, DecodeOptions(target=ref.target)) == ref.output


def test_a_translation_llm_is_published_in_int4_with_both_directions_scored_against_pytorch(release):
    out, err = release
    entry = catalog.read(out / "catalog.json").find("tiny-llm")
    assert (entry.architecture, entry.family_title, entry.quantization) == ("qwen3", "Qwen3", "int4")
    assert entry.archive.file == "tiny-llm-int4-v2.zip" and entry.version == 2
    assert entry.source_langs == entry.target_langs == tuple(QWEN3_LANGUAGES) and entry.target_tokens == ()
    assert entry.license.excluded_territories == ("EU", "GB", "KR") and entry.license.must_ask
    assert entry.license.summary("zh_CN") == ("不适用于欧盟、英国和韩国。",)
    assert [(q.source, q.target, q.test_set) for q in entry.qualities] == [
        ("en", "zh", "corpus sample, 3 sentences"),
        ("zh", "en", "corpus sample, 3 sentences"),
    ]
    for q in entry.qualities:
        # exact: the fp32 pack is generate() on the same chat-template prompt
        assert q.bleu.pytorch == q.bleu.fp32 and q.chrf.pytorch == q.chrf.fp32
        assert q.bleu.int4 is not None and q.chrf.int4 is not None and q.bleu.int8 is None
        assert 0 <= q.top1_agreement <= 1
    assert entry.qualities[1].chrf.pytorch == 100.0
    assert "[tiny-llm] corpus sample, 3 sentences (zh→en): BLEU PyTorch" in err and ", int4 " in err
    # blocks of 128 (faster) were judged against blocks of 32, and one of the two was kept
    assert "validating the pack (int8 embeddings, blocks of 128)" in err
    assert "validating the pack (int8 embeddings, blocks of 32)" in err


def test_the_llm_archive_carries_its_licence_notice_and_a_reference_with_its_direction(release, tmp_path):
    out, _ = release
    entry = catalog.read(out / "catalog.json").find("tiny-llm")
    with zipfile.ZipFile(out / entry.archive.file) as zf:
        names = zf.namelist()
        notice = zf.read(notices.NOTICE).decode("utf-8")
        assert zf.read(notices.LICENSE_COPY) == b"The tiny model's licence.\n"
    assert "decoder.onnx" in names and "chat_template.jinja" in names
    assert notice.startswith(LLM_LICENSE["notice"] + "\n\nThis pack holds Qwen/Qwen3-1.7B at commit d3e2589")
    pack = unpack.install(out / entry.archive.file, packs_dir=tmp_path / "packs")  # every file verified
    assert pack.quantization == "int4" and pack.pack_version == 2
    ref = pack.reference
    assert (ref.source, ref.target, ref.int8_weights) == ("en", "zh", ()) and ref.sentence in reference.SENTENCES["en"]
    options = DecodeOptions(source=ref.source, target=ref.target)
    assert Translator.open(pack.path).translate(ref.sentence, options) == ref.output
    # the catalog's memory estimate of the entry is the converted pack's (the release adds the licence files)
    installed = memory.memory_needed(pack.manifest)
    licence_files = sum((pack.path / name).stat().st_size for name in (notices.NOTICE, notices.LICENSE_COPY))
    assert entry.kv_cache_bytes == memory.kv_cache_bytes(pack.manifest) > 0
    assert 0 <= installed - memory.memory_needed(entry) <= licence_files * memory.WEIGHTS_FACTOR + 1


def test_an_optional_pack_that_fails_is_left_out_with_a_warning(release):
    out, err = release
    assert "[broken-zh-en] WARNING: optional pack skipped:" in err and "config.json is missing" in err
    assert catalog.read(out / "catalog.json").find("broken-zh-en") is None
    assert "- broken-zh-en: " in (out / "quality.md").read_text(encoding="utf-8")


def test_the_gate_fails_the_release_and_writes_no_catalog(release_inputs):
    root, args = release_inputs
    out = root / "gated"
    out.mkdir()
    (out / "catalog.json").write_text("{}", encoding="utf-8")  # an earlier run's must not survive a failure
    # no score can beat PyTorch's by 101 points: the gate must fail
    code, err = run(*args, "--out", str(out), "--max-bleu-loss", "-101", "--max-chrf-loss", "-101")
    assert code == 1
    message = err.strip().splitlines()[-1]
    assert message.startswith("publish.py: release FAILED, no catalog written: opus-mt-en-zh: int8 loses too much")
    assert re.search(r"BLEU [\d.]+ \(PyTorch\) → [\d.]+ \(int8\)", message)
    assert "chrF 100.00 (PyTorch) → " in message
    assert "allowed -101" in message
    assert not (out / "catalog.json").exists() and not (out / "quality.md").exists()


def test_zipping_is_deterministic(tiny_pack_int8, tmp_path):
    first = archive.write_zip(tiny_pack_int8, tmp_path / "a.zip")
    second = archive.write_zip(tiny_pack_int8, tmp_path / "b.zip")
    assert first.sha256 == second.sha256 and first.size == second.size
    assert (tmp_path / "a.zip").read_bytes() == (tmp_path / "b.zip").read_bytes()


def test_the_reference_is_the_first_sentence_on_which_int8_equals_pytorch(
    tiny_hf_en_zh, tiny_pack_int8, monkeypatch, release_reference
):
    sentences = reference.SENTENCES["en"]
    with reference.int8_weights(reference.cpu_path()):
        int8 = Translator.open(tiny_pack_int8)
    ours = [int8.translate(s, DecodeOptions(target="cmn_Hans")) for s in sentences]
    index = next(i for i, text in enumerate(ours) if i >= 1 and text)  # past the first, not empty
    fake = [text if i == index else text + "!" for i, text in enumerate(ours)]
    monkeypatch.setattr(reference, "reference_translations", lambda *a, **k: list(fake))
    monkeypatch.setattr(reference, "exact_paths", lambda: (reference.cpu_path(),))
    chosen = reference.choose(tiny_hf_en_zh, tiny_pack_int8)
    assert (chosen.sentence, chosen.pytorch, chosen.output) == (sentences[index], ours[index], ours[index])

    monkeypatch.setattr(reference, "reference_translations", lambda *a, **k: [t + "!" for t in ours])
    with pytest.raises(reference.ReferenceMismatch, match="translates none of the reference sentences"):
        reference.choose(tiny_hf_en_zh, tiny_pack_int8)
    allowed = reference.choose(tiny_hf_en_zh, tiny_pack_int8, allow_disagreement=True)
    assert (allowed.sentence, allowed.output, allowed.pytorch) == (sentences[0], ours[0], ours[0] + "!")


def test_the_committed_pack_list_pins_commits_and_has_one_required_default():
    specs = load_specs(ROOT / "packaging" / "release" / "recipes.json")
    default = next(s for s in specs if s.default)
    from fanyi.library import installed

    assert default.id == installed.DEFAULT_PACK and not default.optional
    # a commit everywhere but where its files were found to be pickled only: there a safetensors ref
    assert {s.id for s in specs if not s.huggingface.pinned} == {"opus-mt-en-zh"}
    assert default.huggingface.revision == "refs/pr/26" and all(s.comment for s in specs)
    assert {s.id: s.optional for s in specs}["opus-mt-tc-bible-big-zhx-en"] is True
    by_id = {s.id: s for s in specs}
    hy, qwen, gemma = by_id["hy-mt1.5-1.8b"], by_id["qwen3-1.7b"], by_id["translategemma-4b"]
    assert (hy.model_id, qwen.model_id, gemma.model_id) == (
        "tencent/HY-MT1.5-1.8B",
        "Qwen/Qwen3-1.7B",
        "google/translategemma-4b-it",
    )
    assert not hy.optional and not qwen.optional and gemma.optional
    assert hy.license.excluded_territories == ("EU", "GB", "KR") and hy.license.max_monthly_active_users == 100_000_000
    assert hy.license.must_ask and gemma.license.must_ask and not qwen.license.must_ask
    assert hy.huggingface.revision in hy.license.url and qwen.huggingface.revision in qwen.license.url
    assert (hy.modelscope.repo, qwen.modelscope.repo) == ("Tencent-Hunyuan/HY-MT1.5-1.8B", "Qwen/Qwen3-1.7B")
    assert gemma.huggingface.gated and not hy.huggingface.gated
    assert [s.convert.quantize for s in (default, hy, qwen, gemma)] == ["int8", "int4", "int4", "int4"]
    assert hy.license.notice and gemma.license.notice and qwen.license.notice is None
    for s in (hy, qwen, gemma):
        assert s.directions == (("en", "zh"), ("zh", "en")) and not s.fp32_pack
        # what the app shows before the download, in both UI languages
        assert len(s.license.restrictions.get("en", ())) == len(s.license.restrictions.get("zh_CN", ()))
    # the languages the families offer: the exported pack is checked against these
    from fanyi.export.loaders import gemma3, hunyuan, qwen3

    assert hy.languages == tuple(hunyuan.LANGUAGES) and qwen.languages == tuple(qwen3.LANGUAGES)
    assert gemma.languages == tuple(gemma3.LANGUAGES)


def test_the_shipped_catalog_is_the_recipes_with_their_dictionaries():
    recipes = ROOT / "packaging" / "release" / "recipes.json"
    shipped = (ROOT / "assets" / catalog.CATALOG_FILE).read_text(encoding="utf-8")
    assert catalog.to_json(recipes_catalog(recipes)) == shipped, "run: python packaging/publish.py recipes"
    assert [d.id for d in dictionary_recipes(recipes)] == ["ecdict", "ecdict-full"]


def test_a_bad_dictionary_recipe_is_refused(tmp_path):
    path = tmp_path / "recipes.json"
    bad = {"id": "ecdict", "version": 1, "display_name": {"en": "x"}, "source": {"github": {"repo": "a/b"}}}
    path.write_text(json.dumps({"packs": [], "dictionaries": [bad]}), encoding="utf-8")
    with pytest.raises(SpecError, match="dictionary 1 \\(ecdict\\): 'download_size' is missing"):
        dictionary_recipes(path)


def test_a_local_folder_for_a_pack_that_is_not_listed_is_refused(tmp_path):
    code, err = run("build", "--hf-dir", f"opus-mt-en-zz={tmp_path}", "--base-url", BASES[0], "--out", str(tmp_path))
    assert code == 2 and "--hf-dir: opus-mt-en-zz not in" in err
    assert not (tmp_path / "catalog.json").exists()


@pytest.mark.parametrize(
    "change, message",
    [
        ({"sources": {"huggingface": {"repo": "no-owner", "revision": "main"}}}, "repo' as owner/name"),
        ({"sources": {"modelscope": {"repo": "a/b", "revision": "master"}}}, "'huggingface' is missing"),
        ({"convert": {"quantize": "int3"}}, "unknown quantize"),
        ({"version": 0}, "at least 1"),
        ({"license": {"name": "MIT", "url": "x"}}, "'commercial_use' is missing"),
        ({"default": False}, "exactly one pack must be the default"),
        ({"optional": True}, "cannot be optional"),
        ({"languages": ["en", "zh"]}, "either 'source_lang' and 'target_lang' or 'languages'"),
        ({"license": {**LICENSE, "excluded_territories": ["Europe"]}}, "ISO 3166-1 codes and EU"),
        ({"license": {**LICENSE, "restrictions": {"zh_CN": ["x"]}}}, "need an 'en' list"),
    ],
)
def test_a_bad_pack_list_is_refused(tmp_path, change, message):
    path = tmp_path / "recipes.json"
    path.write_text(json.dumps({"packs": [spec("p", **{"default": True, **change})]}), encoding="utf-8")
    with pytest.raises(SpecError, match=message):
        load_specs(path)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"score": []}, "names the directions to 'score'"),
        ({"score": ["en-zh"]}, r"\[source, target\] pairs"),
        ({"score": [["en", "xx"]]}, "direction en-xx is not between its 'languages'"),
    ],
)
def test_a_bad_translation_llm_entry_is_refused(tmp_path, change, message):
    path = tmp_path / "recipes.json"
    path.write_text(json.dumps({"packs": [spec("p", default=True), llm_spec("l", **change)]}), encoding="utf-8")
    with pytest.raises(SpecError, match=message):
        load_specs(path)


# --- fetch-default: what the installers' workflow runs -----------------------------------------------
@pytest.fixture()
def served(tmp_path):
    """A local HTTP server over tmp_path/www (only 127.0.0.1: the tests use no network)."""
    www = tmp_path / "www"
    www.mkdir()
    handler = functools.partial(http.server.SimpleHTTPRequestHandler, directory=str(www))
    handler.log_message = lambda *a: None
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield www, f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def serve_release(release_out: Path, www: Path, url: str, damage: bool = False) -> bytes:
    """The release's archive and catalog on the local server; the first URL of the archive is dead."""
    built = catalog.read(release_out / "catalog.json")
    entry = built.packs[0]
    shutil.copy(release_out / entry.archive.file, www / entry.archive.file)
    if damage:
        with open(www / entry.archive.file, "r+b") as f:
            f.seek(100)
            f.write(b"\0" * 16)
    moved = dataclasses.replace(entry, urls=(f"{url}/gone/{entry.archive.file}", f"{url}/{entry.archive.file}"))
    data = catalog.to_json(dataclasses.replace(built, packs=(moved,))).encode("utf-8")
    (www / "catalog.json").write_bytes(data)
    return data


def test_fetch_default_installs_the_verified_default_pack_and_the_catalog(release, served, tmp_path):
    www, url = served
    data = serve_release(release[0], www, url)
    models, assets = tmp_path / "models", tmp_path / "assets"
    code, err = run(
        "fetch-default", "--catalog-url", f"{url}/catalog.json", "--models", str(models), "--assets", str(assets)
    )
    assert code == 0, err
    pack = ModelPack.open(models / "opus-mt-en-zh")
    assert pack.pack_version == 3 and pack.reference is not None
    assert (assets / "catalog.json").read_bytes() == data
    assert [p.name for p in models.iterdir()] == ["opus-mt-en-zh"]  # no temporary folder left behind
    assert "gone/opus-mt-en-zh-int8-v3.zip: HTTP Error 404" not in err  # the dead mirror was just skipped


def test_fetch_default_refuses_an_archive_that_does_not_match_the_catalog(release, served, tmp_path):
    www, url = served
    serve_release(release[0], www, url, damage=True)
    code, err = run(
        "fetch-default",
        "--catalog-url",
        f"{url}/catalog.json",
        "--models",
        str(tmp_path / "models"),
        "--assets",
        str(tmp_path / "assets"),
    )
    assert code == 1
    assert "fetch-default FAILED: " in err and "opus-mt-en-zh-int8-v3.zip" in err
    assert "404" in err and "sha256" in err
    assert not (tmp_path / "models" / "opus-mt-en-zh").exists() and not (tmp_path / "assets").exists()
