"""packaging/pyinstaller/contents.py: what build.spec keeps in a bundle, on each platform's paths."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "packaging" / "pyinstaller"))
import contents  # noqa: E402


@pytest.mark.parametrize(
    "dest, kept",
    [
        ("PySide6/Qt/plugins/imageformats/libqsvg.so", True),  # the app icon is an SVG
        ("PySide6/Qt/plugins/iconengines/libqsvgicon.so", True),
        ("PySide6/Qt/plugins/platforms/libqxcb.so", True),
        ("PySide6/Qt/plugins/platformthemes/libqxdgdesktopportal.so", True),
        ("PySide6/Qt/translations/qtbase_zh_CN.qm", True),
        ("PySide6\\translations\\qtbase_zh_CN.qm", True),
        ("PySide6/Qt/lib/libQt6Gui.so.6", True),
        ("libglib-2.0.so.0", True),  # QtCore's event loop
        ("onnxruntime/capi/libonnxruntime_providers_shared.so", True),
        ("PySide6/Qt/plugins/imageformats/libqjpeg.so", False),
        ("PySide6\\plugins\\imageformats\\qgif.dll", False),
        ("PySide6/Qt/plugins/platforms/libqeglfs.so", False),
        ("PySide6/Qt/plugins/platformthemes/libqgtk3.so", False),
        ("PySide6\\translations\\qtbase_de.qm", False),
        ("PySide6/Qt/translations/qt_zh_CN.qm", False),
        ("PySide6/Qt/lib/libQt6Network.so.6", True),  # QLocalServer: one instance per user
        ("PySide6\\Qt6Network.dll", True),
        ("PySide6/Qt/plugins/tls/libqopensslbackend.so", False),
        ("PySide6/Qt/plugins/networkinformation/libqnetworklistmanager.so", False),
        ("PySide6\\opengl32sw.dll", False),
        ("libcairo.so.2", False),
        ("libgobject-2.0.so.0", False),
        # OpenCC (fanyi.variants): its module and dictionaries, not its tools, static libraries and headers
        ("opencc/clib/opencc_clib.cpython-311-x86_64-linux-gnu.so", True),
        ("opencc\\clib\\opencc_clib.cp311-win_amd64.pyd", True),
        ("opencc/clib/share/opencc/s2twp.json", True),
        ("opencc/clib/share/opencc/TWPhrases.ocd2", True),
        ("opencc/clib/bin/opencc", False),
        ("opencc\\clib\\bin\\opencc_dict.exe", False),
        ("opencc/clib/lib64/libopencc.a", False),
        ("opencc\\clib\\lib\\opencc.lib", False),
        ("opencc/clib/include/opencc/opencc.h", False),
    ],
)
def test_keep(dest, kept):
    assert contents.keep(dest) is kept


def _pack(models: Path, name: str, mode: str) -> Path:
    pack = models / name
    pack.mkdir(parents=True)
    (pack / "manifest.json").write_text(json.dumps({"quantization": {"mode": mode}}))
    return pack


def test_only_the_int8_default_pack_is_bundled(tmp_path):
    models = tmp_path / "models"
    assert contents.default_pack(models) is None
    _pack(models, "other-en-zh", "int8")
    assert contents.default_pack(models) is None
    fp32 = _pack(models, contents.DEFAULT_PACK, "none")
    assert contents.default_pack(models) is None
    (fp32 / "manifest.json").write_text(json.dumps({"quantization": {"mode": "int8"}}))
    assert contents.default_pack(models) == fp32


def _ocr_models(root: Path) -> list[Path]:
    folder = root / "assets" / "ocr"
    folder.mkdir(parents=True, exist_ok=True)
    files = [folder / name for name in (*contents.OCR_MODELS, "MODEL_LICENSES.md")]
    for path in files:
        path.write_bytes(b"")
    return files


def _cjk_fonts(root: Path) -> list[Path]:
    folder = root / "assets" / "fonts"
    folder.mkdir(parents=True, exist_ok=True)
    files = [folder / name for name in contents.CJK_FONTS]
    for path in files:
        path.write_bytes(b"")
    return files


def _selftest_model(root: Path) -> Path:
    folder = root.joinpath("assets", *contents.SELFTEST_MODEL)
    folder.mkdir(parents=True)
    (folder / "config.json").write_text("{}", encoding="utf-8")
    return folder


def test_datas_hold_the_icon_translations_ocr_models_and_the_pack(tmp_path):
    (tmp_path / "assets" / "icons").mkdir(parents=True)
    checkpoint = _selftest_model(tmp_path)
    (tmp_path / "assets" / "i18n").mkdir()
    (tmp_path / "assets" / "i18n" / "fanyi_zh_CN.qm").write_bytes(b"")
    ocr = _ocr_models(tmp_path)
    (ocr[0].parent / ".PP-OCRv6_rec_small.onnx.part").write_bytes(b"")  # a fetch that was cut short
    fonts = _cjk_fonts(tmp_path)
    (fonts[0].parent / ".NotoSansTC-Regular.ttf.part").write_bytes(b"")
    pack = _pack(tmp_path / "models", contents.DEFAULT_PACK, "int8")
    found = contents.datas(tmp_path)
    assert (str(tmp_path / "assets" / "i18n" / "fanyi_zh_CN.qm"), "assets/i18n") in found
    assert (str(pack), f"models/{contents.DEFAULT_PACK}") in found
    assert any(dest == "assets/icons" for _src, dest in found)
    model = next(Path(src) for src, dest in found if dest == "py3langid/data")
    assert model.is_file() and model.name == "model.npz.xz"  # where py3langid reads it from
    assert sorted(src for src, dest in found if dest == "assets/ocr") == sorted(map(str, ocr))
    assert sorted(src for src, dest in found if dest == "assets/fonts") == sorted(map(str, fonts))
    assert (str(checkpoint / "config.json"), "assets/selftest/tiny-marian") in found


def test_the_self_tests_checkpoint_is_the_apps_small_and_bundled():
    """The model `fanyi --self-test` converts: where the app looks for it, committed, a real repository's files."""
    from fanyi import selftest
    from fanyi.export.checkpoint_files import needed_files

    assert contents.SELFTEST_MODEL == selftest.SELFTEST_MODEL
    folder = ROOT.joinpath("assets", *contents.SELFTEST_MODEL)
    files = {p.name for p in folder.iterdir()}
    assert sum(p.stat().st_size for p in folder.iterdir()) < 200 * 1024
    assert set(needed_files(files, lambda name: (folder / name).read_bytes())) == files


def test_the_converter_and_the_hubs_client_are_bundled_the_validator_is_not():
    # cryptography stays too: pdfminer decrypts encrypted PDFs with it
    assert not {"onnx", "huggingface_hub", "requests", "yaml", "cryptography"} & set(contents.EXCLUDES)
    assert {"torch", "transformers", "hf_xet"} <= set(contents.EXCLUDES)


def test_a_bundle_is_not_built_without_the_ocr_models_the_fonts_or_the_self_tests_checkpoint(tmp_path):
    (tmp_path / "assets" / "i18n").mkdir(parents=True)
    with pytest.raises(FileNotFoundError, match="PP-OCRv6_det_small.onnx, PP-OCRv6_rec_small.onnx not in"):
        contents.datas(tmp_path)
    _ocr_models(tmp_path)
    with pytest.raises(
        FileNotFoundError, match="NotoSansSC-Regular.ttf, NotoSansTC-Regular.ttf, OFL.txt not in .*cjk_fonts"
    ):
        contents.datas(tmp_path)
    _cjk_fonts(tmp_path)
    with pytest.raises(FileNotFoundError, match="the self-test's checkpoint"):
        contents.datas(tmp_path)


def test_ocr_model_names_match_the_app_and_the_fetch_script():
    from fanyi import ocr

    sys.path.insert(0, str(ROOT / "packaging"))
    import ocr_models

    assert contents.OCR_MODELS == (ocr.DET_MODEL, ocr.REC_MODEL)
    assert set(contents.OCR_MODELS) < set(ocr_models.FILES)
    assert ocr.models_dir() == ROOT / "assets" / "ocr" == ocr_models.DEST


def test_the_cjk_fonts_are_the_ones_the_pdf_writer_looks_for_and_the_fetch_script_gets():
    from fanyi import paths
    from fanyi.documents.pdf import fonts

    sys.path.insert(0, str(ROOT / "packaging"))
    import cjk_fonts

    assert set(contents.CJK_FONTS) == {*fonts.BUNDLED.values(), cjk_fonts.LICENCE}
    assert set(contents.CJK_FONTS) == {name for package in cjk_fonts.PACKAGES for name in package.files}
    assert paths.assets_dir() / "fonts" == cjk_fonts.DEST


def test_every_font_table_module_fonttools_imports_by_name_is_bundled():
    """fontTools imports a table's module by name when a font holding it is read: analysis cannot see it."""
    import importlib

    from fontTools.ttLib import getTableModule

    named = [m for m in contents.HIDDEN_IMPORTS if m.startswith("fontTools.ttLib.tables.")]
    for tag in ("glyf", "loca", "CFF ", "cmap", "OS/2", "hmtx", "GSUB", "fvar", "name", "post", "vmtx"):
        assert getTableModule(tag).__name__ in named, tag
    assert all(importlib.import_module(module) for module in named)


def test_the_repositorys_ocr_models_are_the_pinned_ones(ocr_models):
    sys.path.insert(0, str(ROOT / "packaging"))
    import ocr_models as fetch

    assert fetch.present(ocr_models)


def test_default_pack_name_matches_the_library():
    from fanyi.library import installed

    assert contents.DEFAULT_PACK == installed.DEFAULT_PACK


def test_the_release_catalog_is_bundled_into_assets_when_present(tmp_path):
    (tmp_path / "assets" / "i18n").mkdir(parents=True)
    _ocr_models(tmp_path)
    _cjk_fonts(tmp_path)
    _selftest_model(tmp_path)
    shipped = tmp_path / "assets" / "catalog.json"
    assert not any(src == str(shipped) for src, _dest in contents.datas(tmp_path))
    shipped.write_text("{}", encoding="utf-8")
    assert (str(shipped), "assets") in contents.datas(tmp_path)


def test_catalog_name_and_place_match_the_app():
    from fanyi import paths
    from fanyi.library import catalog

    assert contents.CATALOG == catalog.CATALOG_FILE
    assert catalog.bundled_path() == paths.assets_dir() / contents.CATALOG


def test_tls_stays_in_the_bundle_for_pack_downloads():
    assert not {"ssl", "_ssl", "_hashlib", "truststore"} & set(contents.EXCLUDES)


def test_the_server_stacks_modules_named_by_string_exist():
    """uvicorn and anyio load these by name at run time; a rename in an upgrade must fail here, not in the bundle."""
    import importlib.util

    named = [m for m in contents.HIDDEN_IMPORTS if m.split(".")[0] in ("uvicorn", "anyio")]
    assert named and all(importlib.util.find_spec(m) is not None for m in named)


def test_opencc_is_bundled_where_it_reads_its_dictionaries():
    """fanyi.variants converts with OpenCC's s2twp and s2hk (and t2s, s2t when Chinese is written anew), which
    it finds in opencc/clib/share/opencc beside its module: a path kept, and the configurations the app asks
    for are there."""
    import opencc

    from fanyi import variants

    share = Path(opencc.__file__).parent / "clib" / "share" / "opencc"
    for profile, _tag in variants.REWRITE.values():
        assert (share / f"{profile}.json").is_file() and contents.keep(f"opencc/clib/share/opencc/{profile}.json")
    assert "opencc" in contents.HIDDEN_IMPORTS
