"""packaging/packs.py: the release pipeline end to end on a tiny local model, the gate, and fetch-default."""

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
from pathlib import Path

import pytest

from fanyi.engine.options import DecodeOptions
from fanyi.engine.pack import ModelPack, file_digest
from fanyi.engine.segment import split_text
from fanyi.engine.translator import Translator
from fanyi.packs import catalog, unpack

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))
import packs  # noqa: E402
from release import archive, reference  # noqa: E402
from release.spec import SpecError, load_specs  # noqa: E402

BASES = ("https://example.org/packs", "https://mirror.example.cn/packs/")
LICENSE = {"name": "Apache-2.0", "url": "https://www.apache.org/licenses/LICENSE-2.0", "commercial_use": True}


def spec(pack_id: str, **changes) -> dict:
    return {"id": pack_id, "version": 3, "display_name": {"en": "English → Chinese", "zh_CN": "英语 → 中文"},
            "model_id": "Helsinki-NLP/opus-mt-en-zh", "commit": "a4193836671069f1f80ce341f9227a850ffb52d4",
            "source_lang": "en", "target_lang": "zh", "license": LICENSE, **changes}


def run(*args: str) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = packs.main(list(args))
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


@pytest.fixture(scope="module")
def release_inputs(tmp_path_factory, tiny_hf_en_zh, tiny_pack, release_reference):
    """packs.json with the tiny en→zh model and an optional pack that cannot export; a 4-sentence test set."""
    root = tmp_path_factory.mktemp("release")
    (root / "packs.json").write_text(json.dumps({"packs": [
        spec("opus-mt-en-zh", default=True),
        spec("broken-zh-en", source_lang="zh", target_lang="en", optional=True),
    ]}), encoding="utf-8")
    (root / "not-a-model").mkdir()
    # the reference translation is the fp32 pack's own: PyTorch and the fp32 pack must score 100
    translator = Translator.open(tiny_pack)
    lines = (ROOT / "assets/corpus/en.txt").read_text(encoding="utf-8").splitlines()
    sources = [line for line in lines if _plain_sentence(translator, line)][:4]
    references = translator.translate_batch(sources)
    (root / "src.txt").write_text("\n".join(sources) + "\n", encoding="utf-8")
    (root / "ref.txt").write_text("\n".join(references) + "\n", encoding="utf-8")
    args = ["build", "--packs", str(root / "packs.json"), "--hf-dir", f"opus-mt-en-zh={tiny_hf_en_zh}",
            "--hf-dir", f"broken-zh-en={root / 'not-a-model'}",
            "--test-set", "en-zh", "corpus sample", str(root / "src.txt"), str(root / "ref.txt"),
            "--base-url", BASES[0], "--base-url", BASES[1], "--catalog-url", BASES[0] + "/catalog.json",
            "--serial", "2026120315", "--min-int8-agreement", "0", "--allow-reference-disagreement"]
    return root, args


@pytest.fixture(scope="module")
def release(release_inputs):
    """One passing build: the random model's int8 copy is far from PyTorch, so the losses allowed are wide."""
    root, args = release_inputs
    out = root / "out"
    code, err = run(*args, "--out", str(out), "--max-bleu-loss", "100", "--max-chrf-loss", "100")
    assert code == 0, err
    return out, err


def test_build_writes_a_catalog_the_app_reads_with_the_archives_true_size_and_sha256(release):
    out, _ = release
    built = catalog.read(out / "catalog.json")
    assert built.serial == 2026120315 and built.catalog_urls == (BASES[0] + "/catalog.json",)
    entry = built.default_entry()
    assert [p.id for p in built.packs] == ["opus-mt-en-zh"] and entry.default and entry.version == 3
    zipped = out / entry.archive.file
    assert entry.archive.file == "opus-mt-en-zh-int8-v3.zip"
    assert (entry.archive.size, entry.archive.sha256) == tuple(file_digest(zipped)[k] for k in ("size", "sha256"))
    assert entry.urls == (f"{BASES[0]}/{zipped.name}", f"{BASES[1].rstrip('/')}/{zipped.name}")
    assert entry.revision == "a4193836671069f1f80ce341f9227a850ffb52d4" and entry.quantization == "int8"
    assert entry.target_tokens == ("cmn_Hans", "cmn_Hant", "yue") and entry.license.name == "Apache-2.0"


def test_scores_compare_pytorch_and_both_packs_on_the_test_set(release):
    out, err = release
    quality = catalog.read(out / "catalog.json").packs[0].quality
    assert quality.test_set == "corpus sample, 4 sentences"
    # the references are the fp32 pack's output, which equals generate()'s token for token (BLEU of a
    # translation shorter than four tokens is 0 even when it is exact; chrF is 100)
    assert quality.bleu.pytorch == quality.bleu.fp32 and quality.chrf.pytorch == quality.chrf.fp32 == 100.0
    assert 0 <= quality.bleu.int8 <= 100 and 0 <= quality.chrf.int8 <= 100
    assert 0 < quality.int8_top1_agreement < 1
    table = (out / "quality.md").read_text(encoding="utf-8")
    row = next(line for line in table.splitlines() if line.startswith("| opus-mt-en-zh |"))
    bleu = f"{quality.bleu.pytorch:.1f}"
    assert row.startswith(f"| opus-mt-en-zh | corpus sample, 4 sentences | {bleu} | {bleu} |")
    assert f"{quality.chrf.int8:.1f}" in row and f"{100 * quality.int8_top1_agreement:.1f} %" in row
    assert f"[opus-mt-en-zh] corpus sample, 4 sentences: BLEU PyTorch {quality.bleu.pytorch:.2f}" in err  # progress on stderr


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
    assert message.startswith("packs.py: release FAILED, no catalog written: opus-mt-en-zh: int8 loses too much")
    assert re.search(r"BLEU [\d.]+ \(PyTorch\) → [\d.]+ \(int8\)", message)
    assert "chrF 100.00 (PyTorch) → " in message
    assert "allowed -101" in message
    assert not (out / "catalog.json").exists() and not (out / "quality.md").exists()


def test_zipping_is_deterministic(tiny_pack_int8, tmp_path):
    first = archive.write_zip(tiny_pack_int8, tmp_path / "a.zip")
    second = archive.write_zip(tiny_pack_int8, tmp_path / "b.zip")
    assert first.sha256 == second.sha256 and first.size == second.size
    assert (tmp_path / "a.zip").read_bytes() == (tmp_path / "b.zip").read_bytes()


def test_the_reference_is_the_first_sentence_on_which_int8_equals_pytorch(tiny_hf_en_zh, tiny_pack_int8,
                                                                         monkeypatch, release_reference):
    sentences = reference.SENTENCES["en"]
    with reference.int8_weights(reference.cpu_path()):
        int8 = Translator.open(tiny_pack_int8)
    ours = [int8.translate(s, DecodeOptions(target="cmn_Hans")) for s in sentences]
    index = next(i for i, text in enumerate(ours) if i >= 1 and text)  # past the first, not empty
    fake = [text if i == index else text + "!" for i, text in enumerate(ours)]
    monkeypatch.setattr(reference, "pytorch_translations", lambda *a, **k: list(fake))
    monkeypatch.setattr(reference, "exact_paths", lambda: (reference.cpu_path(),))
    chosen = reference.choose(tiny_hf_en_zh, tiny_pack_int8)
    assert (chosen.sentence, chosen.pytorch, chosen.output) == (sentences[index], ours[index], ours[index])

    monkeypatch.setattr(reference, "pytorch_translations", lambda *a, **k: [t + "!" for t in ours])
    with pytest.raises(reference.ReferenceMismatch, match="translates none of the reference sentences"):
        reference.choose(tiny_hf_en_zh, tiny_pack_int8)
    allowed = reference.choose(tiny_hf_en_zh, tiny_pack_int8, allow_disagreement=True)
    assert (allowed.sentence, allowed.output, allowed.pytorch) == (sentences[0], ours[0], ours[0] + "!")


def test_the_committed_pack_list_pins_commits_and_has_one_required_default():
    specs = load_specs(ROOT / "packaging" / "packs.json")
    default = next(s for s in specs if s.default)
    from fanyi.packs import library

    assert default.id == library.DEFAULT_PACK and not default.optional
    assert all(len(s.commit) == 40 for s in specs)
    assert {s.id: s.optional for s in specs}["opus-mt-tc-bible-big-zhx-en"] is True


def test_a_local_folder_for_a_pack_that_is_not_listed_is_refused(tmp_path):
    code, err = run("build", "--hf-dir", f"opus-mt-en-zz={tmp_path}", "--base-url", BASES[0], "--out", str(tmp_path))
    assert code == 2 and "--hf-dir: opus-mt-en-zz not in" in err
    assert not (tmp_path / "catalog.json").exists()


@pytest.mark.parametrize("change, message", [
    ({"commit": "main"}, "full 40-digit commit"),
    ({"version": 0}, "at least 1"),
    ({"license": {"name": "MIT", "url": "x"}}, "'commercial_use' is missing"),
    ({"default": False}, "exactly one pack must be the default"),
    ({"optional": True}, "cannot be optional"),
])
def test_a_bad_pack_list_is_refused(tmp_path, change, message):
    path = tmp_path / "packs.json"
    path.write_text(json.dumps({"packs": [spec("p", **{"default": True, **change})]}), encoding="utf-8")
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


def publish(release_out: Path, www: Path, url: str, damage: bool = False) -> bytes:
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
    data = publish(release[0], www, url)
    models, assets = tmp_path / "models", tmp_path / "assets"
    code, err = run("fetch-default", "--catalog-url", f"{url}/catalog.json", "--models", str(models),
                    "--assets", str(assets))
    assert code == 0, err
    pack = ModelPack.open(models / "opus-mt-en-zh")
    assert pack.pack_version == 3 and pack.reference is not None
    assert (assets / "catalog.json").read_bytes() == data
    assert [p.name for p in models.iterdir()] == ["opus-mt-en-zh"]  # no temporary folder left behind
    assert "gone/opus-mt-en-zh-int8-v3.zip: HTTP Error 404" not in err  # the dead mirror was just skipped


def test_fetch_default_refuses_an_archive_that_does_not_match_the_catalog(release, served, tmp_path):
    www, url = served
    publish(release[0], www, url, damage=True)
    code, err = run("fetch-default", "--catalog-url", f"{url}/catalog.json", "--models", str(tmp_path / "models"),
                    "--assets", str(tmp_path / "assets"))
    assert code == 1
    assert "fetch-default FAILED: " in err and "opus-mt-en-zh-int8-v3.zip" in err
    assert "404" in err and "sha256" in err
    assert not (tmp_path / "models" / "opus-mt-en-zh").exists() and not (tmp_path / "assets").exists()
