"""fanyi.library.catalog: a catalog of recipes is validated as a whole, round-trips, and the newest copy wins;
the catalog the app ships is packaging/release/recipes.json's recipes and needs no file hosted by this project."""

from __future__ import annotations

import copy
import json
import logging
from pathlib import Path

import pytest

from fanyi.library import catalog
from fanyi.library.catalog import CatalogError

ENTRY = {
    "id": "opus-mt-en-zh",
    "version": 1,
    "default": True,
    "display_name": {"en": "English → Chinese", "zh_CN": "英语 → 中文"},
    "architecture": "marian",
    "source_langs": ["en"],
    "target_langs": ["zh"],
    "target_tokens": ["cmn_Hans", "cmn_Hant", "yue"],
    "sources": {
        "huggingface": {"repo": "Helsinki-NLP/opus-mt-en-zh", "revision": "a4193836671069f1f80ce341f9227a850ffb52d4"},
        "modelscope": {"repo": "Helsinki-NLP/opus-mt-en-zh", "revision": "master"},
    },
    "files": {
        "config.json": {"size": 1394, "sha256": "cd" * 32},
        "model.safetensors": {"size": 310_000_000},
    },
    "convert": {"quantize": "int8", "embeddings": "fp32"},
    "converted": {"fanyi": "0.1.0", "files": {"encoder.onnx": "ef" * 32, "shared.bin": "12" * 32}},
    "download_size": 312_000_000,
    "pack_size": 82_000_000,
    "format_version": 2,
    "archive": {
        "file": "opus-mt-en-zh-int8-v1.zip",
        "size": 81_000_000,
        "sha256": "ab" * 32,
        "unpacked_size": 82_000_000,
    },
    "urls": ["https://example.org/a/opus-mt-en-zh-int8-v1.zip", "https://mirror.example.cn/opus-mt-en-zh-int8-v1.zip"],
    "license": {"name": "Apache-2.0", "url": "https://www.apache.org/licenses/LICENSE-2.0", "commercial_use": True},
    "quality": {
        "test_set": "FLORES-200 devtest",
        "bleu": {"pytorch": 31.2, "fp32": 31.2, "int8": 30.9},
        "chrf": {"pytorch": 28.0, "fp32": 28.0, "int8": 27.7},
        "int8_top1_agreement": 0.97,
    },
}


def doc(serial: int = 5, **entry_changes) -> dict:
    entry = copy.deepcopy(ENTRY)
    entry.update(entry_changes)
    return {
        "schema": 2,
        "serial": serial,
        "generated": "2026-12-03T00:00:00Z",
        "catalog_urls": ["https://example.org/catalog.json"],
        "packs": [entry],
    }


def test_parse_reads_every_field_and_round_trips():
    cat = catalog.parse(json.dumps(doc()), "test")
    entry = cat.find("opus-mt-en-zh")
    assert entry is cat.default_entry()
    assert entry.archive.sha256 == "ab" * 32 and entry.urls[1].startswith("https://mirror")
    assert entry.quality.bleu.int8 == 30.9 and entry.license.commercial_use
    # catalogs before int4 packs named the agreement after int8; a one-way pack's quality is one object
    assert entry.quality.top1_agreement == 0.97 and entry.quality.bleu.of("int8") == 30.9
    assert entry.family_title == "MarianMT" and entry.kv_cache_bytes is None and not entry.license.must_ask
    assert entry.title("zh_CN") == "英语 → 中文" and entry.title("fr") == "English → Chinese"
    # the recipe: where the model is, its files, how it is converted and what the conversion must give
    assert (entry.model_id, entry.revision) == (
        "Helsinki-NLP/opus-mt-en-zh",
        "a4193836671069f1f80ce341f9227a850ffb52d4",
    )
    assert entry.huggingface.pinned and not entry.modelscope.pinned and not entry.gated
    assert (
        entry.files["config.json"] == catalog.Pin(1394, "cd" * 32) and entry.files["model.safetensors"].sha256 is None
    )
    assert entry.convert == catalog.Conversion("int8", "fp32", 32) and entry.quantization == "int8"
    assert entry.converted.files["shared.bin"] == "12" * 32 and entry.converted.fanyi == "0.1.0"
    assert (entry.download_size, entry.pack_size) == (312_000_000, 82_000_000)
    again = catalog.parse(catalog.to_json(cat), "again")
    assert again.packs == cat.packs and again.serial == 5 and again.catalog_urls == cat.catalog_urls


def test_a_recipe_needs_no_archive_and_no_project_hosted_file():
    """Without an archive the entry is the recipe alone: the pack is made from the model's own files."""
    raw = doc()
    for key in ("archive", "urls", "format_version", "converted", "files"):
        del raw["packs"][0][key]
    entry = catalog.parse(json.dumps(raw), "test").packs[0]
    assert entry.archive is None and entry.urls == () and entry.converted is None and entry.files == {}
    assert catalog.parse(catalog.to_json(catalog.parse(json.dumps(raw), "t")), "again").packs == (entry,)


@pytest.mark.parametrize(
    "change, message",
    [
        ({"version": "1"}, "'version' has the wrong type"),
        ({"version": True}, "'version' has the wrong type"),
        ({"id": "../evil"}, "invalid id"),
        ({"archive": {**ENTRY["archive"], "file": "../x.zip"}}, "invalid archive file name"),
        ({"archive": {**ENTRY["archive"], "sha256": "00"}}, "64 hex digits"),
        ({"archive": {**ENTRY["archive"], "size": 10**13}}, "out of range"),
        ({"urls": []}, "non-empty list"),
        ({"urls": ["file:///etc/passwd"]}, "http(s) URLs"),
        ({"convert": {"quantize": "INT 4"}}, "invalid quantize"),
        ({"convert": {"quantize": "int4", "block_size": 7}}, "invalid block_size"),
        ({"convert": {"quantize": "int4", "embeddings": "int3"}}, "invalid embeddings"),
        ({"sources": {}}, "names no repository"),
        ({"sources": {"huggingface": {"repo": "no-owner", "revision": "main"}}}, "is not owner/name"),
        ({"sources": {"huggingface": {"repo": "a/b", "revision": "../../etc"}}}, "is not a commit, branch or tag"),
        ({"files": {"../x": {"size": 1}}}, "invalid file entry"),
        ({"files": {"config.json": {"size": 1, "sha256": "xyz"}}}, "64 hex digits"),
        ({"files": {"config.json": {"size": 0}}}, "out of range"),
        ({"converted": {"fanyi": "0.1.0", "files": {"a.onnx": "no"}}}, "converted files must map"),
        ({"download_size": 0}, "download_size 0 is out of range"),
        ({"architecture": "../t5"}, "invalid architecture"),
        ({"kv_cache_bytes": -1}, "kv_cache_bytes is out of range"),
        ({"quality": [{"test_set": "x", "source": "English"}]}, "must be language codes"),
        ({"license": {**ENTRY["license"], "excluded_territories": ["Europe"]}}, "invalid values"),
        ({"license": {**ENTRY["license"], "restrictions": {"zh_CN": ["仅限"]}}}, "need an 'en' list"),
        ({"license": {**ENTRY["license"], "restrictions": {"en": ["x" * 2001]}}}, "1 to 2000 characters"),
        ({"license": {**ENTRY["license"], "restrictions": {"en": "not a list"}}}, "lists of at most 16"),
        ({"license": {**ENTRY["license"], "max_monthly_active_users": 0}}, "must be positive"),
        ({"source_langs": ["English"]}, "invalid values"),
        ({"display_name": {"zh_CN": "中文"}}, "'en' name"),
    ],
)
def test_a_bad_entry_is_refused_with_its_reason(change, message):
    with pytest.raises(CatalogError, match=message.replace("(", r"\(").replace(")", r"\)")):
        catalog.parse(json.dumps(doc(**change)), "test")


def test_unknown_schema_duplicate_ids_and_garbage_are_refused():
    # schema 1 (prebuilt archives only) was never published: nothing reads it
    with pytest.raises(CatalogError, match="schema 1 is not supported"):
        catalog.parse(json.dumps({**doc(), "schema": 1}), "test")
    twice = doc()
    twice["packs"].append(twice["packs"][0])
    with pytest.raises(CatalogError, match="share an id"):
        catalog.parse(json.dumps(twice), "test")
    with pytest.raises(CatalogError, match="not a readable catalog"):
        catalog.parse(b"\x89PNG\r\n", "test")


def test_load_prefers_the_newest_copy_and_ignores_a_damaged_cache(user_dirs, monkeypatch):
    bundled = user_dirs / "bundle" / "assets" / "catalog.json"
    monkeypatch.delenv("FANYI_CATALOG_FILE")
    monkeypatch.setattr("fanyi.paths.assets_dir", lambda: bundled.parent)
    assert catalog.load() is None
    catalog.save(catalog.parse(json.dumps(doc(serial=5)), "b"), bundled)
    assert catalog.load().serial == 5
    catalog.save(catalog.parse(json.dumps(doc(serial=7)), "c"), catalog.cached_path())
    assert catalog.load().serial == 7
    catalog.cached_path().write_text("{broken", encoding="utf-8")
    assert catalog.load().serial == 5
    monkeypatch.setenv("FANYI_CATALOG_FILE", str(user_dirs / "other.json"))  # a catalog file given instead
    catalog.save(catalog.parse(json.dumps(doc(serial=6)), "d"), user_dirs / "other.json")
    assert catalog.load().serial == 6


def test_many_to_many_packs_are_listed_like_any_other():
    """mBART-50, M2M100 and NLLB entries: their architectures, the models' own language codes, and
    NLLB-200's non-commercial licence."""
    nllb = dict(
        id="nllb-200-distilled-600m",
        architecture="nllb",
        source_langs=["eng_Latn", "zho_Hans", "yue_Hant"],
        target_langs=["eng_Latn", "zho_Hans", "zho_Hant", "yue_Hant"],
        target_tokens=[],
        sources={"huggingface": {"repo": "facebook/nllb-200-distilled-600M", "revision": "main"}},
        default=False,
        license={
            "name": "CC-BY-NC-4.0",
            "url": "https://creativecommons.org/licenses/by-nc/4.0/",
            "commercial_use": False,
        },
    )
    mbart = dict(
        id="mbart-large-50-mmt",
        architecture="mbart50",
        source_langs=["en_XX", "zh_CN"],
        target_langs=["zh_CN"],
        target_tokens=[],
        default=False,
    )
    m2m = dict(
        id="m2m100-418m",
        architecture="m2m100",
        source_langs=["en", "ast"],
        target_langs=["zh"],
        target_tokens=[],
        default=False,
    )
    raw = doc()
    raw["packs"] += [{**copy.deepcopy(ENTRY), **entry} for entry in (nllb, mbart, m2m)]
    cat = catalog.parse(json.dumps(raw), "test")
    entry = cat.find("nllb-200-distilled-600m")
    assert entry.architecture == "nllb" and not entry.license.commercial_use
    assert entry.target_langs == ("eng_Latn", "zho_Hans", "zho_Hant", "yue_Hant")
    assert cat.find("mbart-large-50-mmt").source_langs == ("en_XX", "zh_CN")
    assert catalog.parse(catalog.to_json(cat), "again").packs == cat.packs
    for bad in ({"target_langs": ["zh_cn"]}, {"target_langs": ["zho_HANS"]}):
        broken = doc(**bad)
        with pytest.raises(CatalogError, match="invalid values"):
            catalog.parse(json.dumps(broken), "test")


LLM = dict(
    id="hy-mt1.5-1.8b",
    architecture="hunyuan",
    convert={"quantize": "int4", "embeddings": "int8", "block_size": 128},
    sources={
        "huggingface": {"repo": "tencent/HY-MT1.5-1.8B", "revision": "dbad03788f49709801014c95d481a514c272ca52"},
        "modelscope": {"repo": "Tencent-Hunyuan/HY-MT1.5-1.8B", "revision": "master"},
    },
    default=False,
    source_langs=["zh", "en", "zh-Hant", "yue"],
    target_langs=["zh", "en", "zh-Hant", "yue"],
    target_tokens=[],
    kv_cache_bytes=268_435_456,
    license={
        "name": "Tencent HY Community License",
        "url": "https://example.org/License.txt",
        "commercial_use": True,
        "excluded_territories": ["EU", "GB", "KR"],
        "max_monthly_active_users": 100_000_000,
        "restrictions": {
            "en": ["Not licensed in the EU, the UK or South Korea."],
            "zh_CN": ["不适用于欧盟、英国和韩国。"],
        },
        "notice": "Tencent HY is licensed under the Tencent HY Community License Agreement.",
        "ask_before_download": True,
    },
    quality=[
        {
            "test_set": "FLORES-200 devtest, 300 sentences",
            "source": "en",
            "target": "zh",
            "bleu": {"pytorch": 40.1, "int4": 39.5},
            "chrf": {"pytorch": 35.0, "int4": 34.6},
            "top1_agreement": 0.93,
        },
        {
            "test_set": "FLORES-200 devtest, 300 sentences",
            "source": "zh",
            "target": "en",
            "bleu": {"pytorch": 30.2, "int4": 29.9},
            "chrf": {"pytorch": 58.0, "int4": 57.7},
            "top1_agreement": 0.93,
        },
    ],
)


def test_a_translation_llm_entry_carries_its_family_languages_licence_terms_memory_and_both_directions():
    raw = doc()
    raw["packs"].append({**copy.deepcopy(ENTRY), **copy.deepcopy(LLM)})
    cat = catalog.parse(json.dumps(raw), "test")
    entry = cat.find("hy-mt1.5-1.8b")
    assert entry.family_title == "HY-MT (HunYuan)" and entry.quantization == "int4"
    assert entry.source_langs == ("zh", "en", "zh-Hant", "yue") and entry.kv_cache_bytes == 268_435_456
    lic = entry.license
    assert lic.excluded_territories == ("EU", "GB", "KR") and lic.max_monthly_active_users == 100_000_000
    assert lic.must_ask and lic.summary("zh_CN") == ("不适用于欧盟、英国和韩国。",)
    assert lic.summary("fr") == ("Not licensed in the EU, the UK or South Korea.",)
    assert lic.notice.startswith("Tencent HY")
    assert [(q.source, q.target) for q in entry.qualities] == [("en", "zh"), ("zh", "en")]
    assert entry.quality is entry.qualities[0] and entry.quality.bleu.of("int4") == 39.5
    assert entry.quality.bleu.int8 is None and entry.quality.top1_agreement == 0.93
    text = catalog.to_json(cat)
    assert catalog.parse(text, "again").packs == cat.packs
    written = {p["id"]: p for p in json.loads(text)["packs"]}
    # one direction stays an object, as older Fanyis read it; two are a list
    assert isinstance(written["opus-mt-en-zh"]["quality"], dict) and len(written["hy-mt1.5-1.8b"]["quality"]) == 2


def test_an_entry_of_a_family_or_quantization_this_fanyi_does_not_run_is_left_out_not_fatal(caplog):
    """A catalog published for a newer Fanyi still offers this one the packs it can run."""
    caplog.set_level(logging.INFO, logger="fanyi.library.catalog")
    raw = doc()
    raw["packs"] += [
        {**copy.deepcopy(ENTRY), "id": "future-model", "architecture": "mamba9"},
        {**copy.deepcopy(ENTRY), "id": "future-quant", "convert": {"quantize": "int2"}},
    ]
    cat = catalog.parse(json.dumps(raw), "test")
    assert [p.id for p in cat.packs] == ["opus-mt-en-zh"]
    assert cat.skipped == (
        "future-model: architecture 'mamba9' needs a newer Fanyi",
        "future-quant: quantization 'int2' needs a newer Fanyi",
    )
    assert "future-model" in caplog.text
    # still checked as a whole: a broken entry of an unknown family fails like any other
    raw["packs"][1]["urls"] = []
    with pytest.raises(CatalogError, match="future-model.*urls"):
        catalog.parse(json.dumps(raw), "test")


def test_the_shipped_catalog_is_the_release_s_recipes_and_lists_the_five_packs_from_their_authors():
    """assets/catalog.json is what `publish.py recipes` writes from packaging/release/recipes.json (regenerate it
    after an edit), and it gets every pack from the Hub or ModelScope: no file hosted by this project."""
    import sys

    root = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(root / "packaging"))
    from release.spec import recipes_catalog

    shipped = root / "assets" / "catalog.json"
    assert shipped.read_text(encoding="utf-8") == catalog.to_json(
        recipes_catalog(root / "packaging" / "release" / "recipes.json")
    )
    cat = catalog.read(shipped)
    wanted = {"opus-mt-en-zh", "opus-mt-zh-en", "qwen3-1.7b", "hy-mt1.5-1.8b", "translategemma-4b"}
    assert wanted <= {p.id for p in cat.packs} and cat.default_entry().id == "opus-mt-en-zh"
    for entry in cat.packs:
        assert entry.archive is None and entry.urls == () and cat.catalog_urls == ()
        assert entry.huggingface is not None and entry.comment
    assert cat.find("hy-mt1.5-1.8b").license.must_ask and cat.find("hy-mt1.5-1.8b").modelscope.repo == (
        "Tencent-Hunyuan/HY-MT1.5-1.8B"
    )
    gemma = cat.find("translategemma-4b")
    assert gemma.gated and gemma.license.must_ask and "Settings → Downloads" in gemma.license.summary("en")[-1]
    assert cat.find("qwen3-1.7b").modelscope.repo == "Qwen/Qwen3-1.7B"
    assert [e.convert.quantize for e in (cat.find("opus-mt-en-zh"), cat.find("qwen3-1.7b"))] == ["int8", "int4"]


def test_each_llm_recipe_offers_the_languages_its_family_offers_and_says_how_many():
    """A recipe's languages are what the pack converted from it will offer (the family's, checked against its chat
    template at export): the model manager and its name must not promise others (TranslateGemma listed Qwen3's)."""
    from fanyi.export.loaders import LOADERS

    cat = catalog.read(Path(__file__).resolve().parents[2] / "assets" / "catalog.json")
    llms = [e for e in cat.packs if LOADERS[e.architecture].decoder_only]
    assert {e.id for e in llms} >= {"qwen3-1.7b", "hy-mt1.5-1.8b", "translategemma-4b"}
    for entry in llms:
        offered = list(LOADERS[entry.architecture].languages)
        assert list(entry.source_langs) == offered == list(entry.target_langs), entry.id
        assert f"{len(offered)} languages" in entry.title("en") and f"{len(offered)} 种语言" in entry.title("zh_CN")
