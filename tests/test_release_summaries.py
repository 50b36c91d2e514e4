"""The release pipeline's gate for summarization packs (BART): the int8 pack's mean KL(PyTorch || pack) of the
teacher-forced distributions at most 0.05 (validation), its summaries' ROUGE-L against PyTorch's at least the
bound; the output projection kept in int8 or fp32 by the measured KL; no BLEU, no reference translation."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import sys
from pathlib import Path

import pytest

from fanyi.engine.translator import Translator
from fanyi.library import catalog

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging"))
import publish  # noqa: E402
from release import summary_gate  # noqa: E402
from test_release import spec  # noqa: E402

BART = {
    "id": "tiny-bart",
    "version": 1,
    "display_name": {"en": "English summaries"},
    "architecture": "bart",
    "sources": {"huggingface": {"repo": "facebook/bart-large-cnn", "revision": "0" * 40}},
    "convert": {"quantize": "int8"},
    "download_size": 1_630_000_000,
    "pack_size": 415_000_000,
    "source_lang": "en",
    "target_lang": "en",
    "license": {"name": "MIT", "url": "https://opensource.org/licenses/MIT", "commercial_use": True},
}


def build(root: Path, folder: Path, out: Path, min_rouge_l: float) -> tuple[int, str]:
    args = ["build", "--recipes", str(root / "recipes.json"), "--only", "tiny-bart", "--hf-dir", f"tiny-bart={folder}"]
    args += ["--min-summary-rouge-l", str(min_rouge_l), "--base-url", "https://example.org/packs", "--out", str(out)]
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        code = publish.main(args)
    return code, err.getvalue()


@pytest.fixture(scope="module")
def calm_bart(tmp_path_factory):
    """A tiny bart-large-cnn whose layers mix less than the parity tests' (its int8 pack stays near PyTorch, as
    a trained model's does; the parity tests' is made to flip on every rounding)."""
    from tiny_models.synthetic_bart import build_bart_folder

    root = tmp_path_factory.mktemp("release-bart")
    (root / "recipes.json").write_text(json.dumps({"packs": [spec("opus-mt-en-zh", default=True), BART]}))
    return root, build_bart_folder(root / "hf", "bart-large-cnn", linear_gain=1.5)


def test_a_summarizer_is_gated_by_kl_and_rouge_l_and_published_without_a_reference(calm_bart, tmp_path):
    root, folder = calm_bart
    # the tiny random model's beam search flips on the least difference (its summaries are byte soup), so its
    # ROUGE-L against PyTorch is ~0.6; the release's default bound (0.8) is for trained models
    code, log = build(root, folder, tmp_path, 0.5)
    assert code == 0, log
    assert "mean KL(PyTorch || pack)" in log and "ROUGE-L against PyTorch's summaries: fp32 1.000" in log
    built = catalog.read(tmp_path / "catalog.json")
    (entry,) = built.packs
    assert entry.id == "tiny-bart" and entry.architecture == "bart" and entry.qualities == ()
    assert entry.convert.output_projection in ("int8", "fp32")
    quality = (tmp_path / "quality.md").read_text(encoding="utf-8")
    assert "## Summarizers" in quality and "| tiny-bart | int8 | 8 | 1.000 |" in quality
    import zipfile

    with zipfile.ZipFile(tmp_path / "tiny-bart-int8-v1.zip") as archive:
        manifest = json.loads(archive.read("manifest.json"))  # the pack's files at the archive's root
        archive.extractall(tmp_path / "unzipped")
    assert "reference" not in manifest and manifest["pack_version"] == 1
    assert manifest["quantization"]["output_projection"] == (entry.convert.output_projection == "int8")
    translator = Translator.open(tmp_path / "unzipped", threads=1)
    assert "".join(translator.summary_stream("A short English article, long enough to summarize it. " * 5))


def test_summaries_too_far_from_pytorchs_fail_the_release(calm_bart, tmp_path):
    root, folder = calm_bart
    code, log = build(root, folder, tmp_path, 0.999)
    assert code == 1 and "summaries lose too much against PyTorch: ROUGE-L" in log
    assert not (tmp_path / "catalog.json").exists()


def test_rouge_l_is_rouge_scores():
    assert summary_gate.rouge_l(["the cat sat on the mat"], ["the cat sat on the mat"]) == 1.0
    assert 0.8 < summary_gate.rouge_l(["the cat sat on the mat"], ["the cat is on the mat"]) < 0.9
    assert (
        summary_gate.failure(summary_gate.SummaryScore("p", "int8", 2, 0.01, {"int8": 0.7}, {}), 0.8)
        == "ROUGE-L 0.700 against PyTorch's summaries is below 0.8"
    )


def test_the_output_projection_can_stay_in_fp32_and_the_catalog_says_so(calm_bart, tmp_path):
    from fanyi.export.convert import export_pack
    from fanyi.export.validate import validate_pack

    _root, folder = calm_bart
    packs = {
        head: export_pack(folder, tmp_path / head, quantize="int8", output_projection=head) for head in ("int8", "fp32")
    }
    manifests = {head: json.loads((p / "manifest.json").read_text()) for head, p in packs.items()}
    assert manifests["int8"]["quantization"]["output_projection"] is True
    assert manifests["fp32"]["quantization"]["output_projection"] is False
    assert manifests["fp32"]["quantization"]["embeddings"] == "fp32"  # one matrix for both, in fp32
    kl = {head: validate_pack(p, folder).mean_kl for head, p in packs.items()}
    assert kl["fp32"] < 0.05 and kl["int8"] < 0.05
    shipped = catalog.read(ROOT / "assets" / "catalog.json")
    by_id = {p.id: p for p in shipped.packs}
    assert by_id["bart-large-cnn"].architecture == "bart" and not by_id["bart-large-cnn"].translates
    assert by_id["distilbart-cnn-12-6"].license.name == "Apache-2.0" and by_id["bart-large-cnn"].license.name == "MIT"
    fp32_head = dataclasses.replace(by_id["bart-large-cnn"].convert, output_projection="fp32")
    again = catalog.parse(
        catalog.to_json(
            dataclasses.replace(shipped, packs=(dataclasses.replace(by_id["bart-large-cnn"], convert=fp32_head),))
        ).encode(),
        "a catalog",
    )
    assert again.packs[0].convert.output_projection == "fp32"
