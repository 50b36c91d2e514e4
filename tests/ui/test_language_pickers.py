"""Many-to-many packs in the window: source and target pickers (searchable, named in the UI language),
the swap button swaps them, the choice is remembered per pack, translations use the chosen pair."""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from ui_fakes import LOAD_TIMEOUT, TRANSLATE_TIMEOUT

from fanyi.engine.options import DecodeOptions
from fanyi.engine.translator import Translator
from fanyi.ui.settings import load_settings
from fanyi.ui.worker import open_translator


@pytest.fixture
def nllb_pack(tiny_nllb_pack, ui_dirs):
    """The tiny NLLB pack, the only pack installed."""
    pack = tiny_nllb_pack
    link = ui_dirs / "bundled" / pack.name
    link.symlink_to(pack, target_is_directory=True)
    return link


@pytest.fixture
def nllb_window(qtbot, make_app, nllb_pack):
    app = make_app(opener=open_translator)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    return win


def items(picker) -> list[tuple[str, str]]:
    return [(picker.itemText(i), picker.itemData(i)) for i in range(picker.count())]


def wait_translated(qtbot, win, text: str, options: DecodeOptions, reference: Translator) -> None:
    expected = reference.translate(text, options)
    qtbot.waitUntil(lambda: win.stream.req_id is None and win.target.view.text() == expected, timeout=TRANSLATE_TIMEOUT)


def test_pickers_start_from_english_to_chinese_with_taiwans_and_hong_kongs_traditional(nllb_window):
    win = nllb_window
    assert win.source_picker.isVisible() and win.target_picker.isVisible()
    # the pack's own Traditional (zho_Hant) is in the picker; its Simplified converted (OpenCC) in the buttons
    shown = [b.property("variant") for b in win.variant_group.buttons() if b.isVisible()]
    assert shown == ["cmn_Hans", "zh-TW", "zh-HK"]
    assert win.swap_button.isEnabled()
    assert (win.source_picker.code(), win.target_picker.code()) == ("eng_Latn", "zho_Hans")
    assert win.source_picker.count() == win.target_picker.count() == 202
    labels = dict((code, text) for text, code in items(win.target_picker))
    assert labels["zho_Hans"] == "Chinese (Simplified) · zho_Hans"
    assert labels["zho_Hant"] == "Chinese (Traditional) · zho_Hant"
    assert labels["yue_Hant"] == "Cantonese (Traditional) · yue_Hant"  # Chinese scripts: always named
    assert labels["deu_Latn"] == "German · deu_Latn"  # one script only: not named
    assert labels["ace_Arab"] == "Acehnese (Arabic script) · ace_Arab"  # two scripts: named
    assert labels["eng_Latn"] == "English · eng_Latn"
    assert win.pack_box.itemText(0) == f"{nllb_window.packs.current.name}  ·  202 languages"


def test_choosing_languages_translates_with_them_and_is_remembered(qtbot, make_app, nllb_window, nllb_pack):
    win = nllb_window
    reference = Translator.open(nllb_pack, threads=1)
    text = "The weather is nice today."
    win.source.set_text(text)
    wait_translated(qtbot, win, text, DecodeOptions(source="eng_Latn", target="zho_Hans"), reference)

    win.target_picker.setCurrentIndex(win.target_picker.findData("yue_Hant"))
    win.target_picker.activated.emit(win.target_picker.currentIndex())
    wait_translated(qtbot, win, text, DecodeOptions(source="eng_Latn", target="yue_Hant"), reference)
    assert win.direction.options() == DecodeOptions(source="eng_Latn", target="yue_Hant")
    assert load_settings().pack_languages == {"tiny-nllb-none": ["eng_Latn", "yue_Hant"]}

    # a new start of the app shows the same pair for this pack
    again = make_app(opener=open_translator).window
    qtbot.waitUntil(lambda: again.service.model is not None, timeout=LOAD_TIMEOUT)
    assert (again.source_picker.code(), again.target_picker.code()) == ("eng_Latn", "yue_Hant")


def test_swap_swaps_the_languages_and_moves_the_translation(qtbot, nllb_window, nllb_pack):
    win = nllb_window
    reference = Translator.open(nllb_pack, threads=1)
    text = "Good morning."
    win.source.set_text(text)
    wait_translated(qtbot, win, text, DecodeOptions(source="eng_Latn", target="zho_Hans"), reference)
    translation = win.target.view.text()
    qtbot.mouseClick(win.swap_button, Qt.MouseButton.LeftButton)
    assert (win.source_picker.code(), win.target_picker.code()) == ("zho_Hans", "eng_Latn")
    assert win.source.text() == translation
    wait_translated(qtbot, win, translation, DecodeOptions(source="zho_Hans", target="eng_Latn"), reference)


def test_typing_searches_names_and_codes(qtbot, nllb_window):
    picker = nllb_window.source_picker
    completer = picker.completer()
    for typed, expected in (
        ("canto", "Cantonese (Traditional) · yue_Hant"),
        ("yue_", "Cantonese (Traditional) · yue_Hant"),
        ("simplif", "Chinese (Simplified) · zho_Hans"),
    ):
        completer.setCompletionPrefix(typed)
        shown = [completer.completionModel().index(i, 0).data() for i in range(completer.completionCount())]
        assert shown == [expected], typed
    chosen = []
    picker.chosen.connect(chosen.append)
    picker.lineEdit().setText("Cantonese (Traditional) · yue_Hant")
    picker.lineEdit().editingFinished.emit()
    assert chosen == ["yue_Hant"] and picker.code() == "yue_Hant"
    picker.lineEdit().setText("no such language")
    picker.lineEdit().editingFinished.emit()
    assert picker.code() == "yue_Hant" and picker.lineEdit().text() == "Cantonese (Traditional) · yue_Hant"


def test_names_follow_the_ui_language(qtbot, nllb_window):
    win = nllb_window
    win.settings.update(ui_language="zh_CN")
    qtbot.waitUntil(lambda: win.settings_button.text() == "设置")
    labels = dict((code, text) for text, code in items(win.target_picker))
    assert labels["zho_Hans"] == "中文（简体） · zho_Hans"
    assert labels["yue_Hant"] == "粤语（繁体） · yue_Hant"
    assert labels["deu_Latn"] == "德语 · deu_Latn"
    assert win.target_picker.code() == "zho_Hans"  # re-labelling keeps the choice
    assert win.pack_box.itemText(0).endswith("  ·  202 种语言")


def test_marian_packs_keep_the_variant_buttons(window):
    assert not window.source_picker.isVisible() and not window.target_picker.isVisible()
    assert window.variant_box.isVisible()
    assert window.direction.options().source is None


def test_the_top_bar_fits_a_1000_pixel_window_and_the_lists_show_whole_names(nllb_window):
    win = nllb_window
    assert win.minimumSizeHint().width() <= 1000
    for picker in (win.source_picker, win.target_picker, win.pack_box):
        view = picker.view()
        assert view.minimumWidth() >= view.sizeHintForColumn(0)


def test_an_llm_pack_has_the_pickers_and_streams_its_translation(qtbot, make_app, ui_dirs, tiny_llm_pack):
    """A decoder-only pack (HY-MT1.5's architecture) in the window: its card's languages in the pickers,
    English → Chinese at first, the translation as the engine makes it."""
    pack = tiny_llm_pack("hunyuan", "int4")
    (ui_dirs / "bundled" / pack.name).symlink_to(pack, target_is_directory=True)
    app = make_app(opener=open_translator)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    assert win.source_picker.isVisible()
    assert (win.source_picker.code(), win.target_picker.code()) == ("en", "zh")
    # its Simplified can be written in Taiwan's or Hong Kong's Traditional (OpenCC), as any pack's can
    assert [b.property("variant") for b in win.variant_group.buttons() if b.isVisible()] == [
        "cmn_Hans",
        "zh-TW",
        "zh-HK",
    ]
    labels = dict((code, text) for text, code in items(win.target_picker))
    assert len(labels) == 38 and labels["zh-Hant"].startswith("Chinese (Traditional)") and "yue" in labels
    reference = Translator.open(pack, threads=1)
    win.source.set_text("Good morning.")
    win.translate_now()
    wait_translated(qtbot, win, "Good morning.", app.direction.options(), reference)
    assert app.direction.options().source == "en" and app.direction.options().target == "zh"


def test_every_language_an_llm_family_offers_has_a_name_in_both_ui_languages(qapp):
    """HY-MT1.5's Tibetan and Uyghur showed as "bo" and "ug" in the pickers and the model manager."""
    from fanyi.export.loaders import LOADERS
    from fanyi.ui import i18n
    from fanyi.ui.language_names import base_name

    codes = {code for loader in LOADERS.values() for code in getattr(loader, "languages", {})}
    assert {"bo", "ug", "yue", "zh-Hant"} <= codes
    for ui in ("en", "zh_CN"):
        i18n.install(ui)
        assert not [code for code in sorted(codes) if base_name(code) == code], ui
    i18n.install("en")


def test_an_llm_packs_name_is_whole_and_its_language_count_the_same_everywhere(qtbot, make_app, tiny_llm_pack, ui_dirs):
    """The selector read "38 languages · tiny-h…"; the window, the model manager and the API counted 38/22 and
    36/20 for the same packs."""
    from PySide6.QtWidgets import QStyle, QStyleOptionComboBox

    from fanyi import routing
    from fanyi.library import installed
    from fanyi.ui.model_manager import LANGUAGES_COLUMN

    pack = tiny_llm_pack("hunyuan")
    (ui_dirs / "bundled" / pack.name).symlink_to(pack, target_is_directory=True)
    app = make_app(opener=open_translator)
    win = app.window
    win.resize(980, 600)
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    info = installed.find_pack(pack.name)
    count = routing.language_count(info.source_languages, info.languages)
    assert win.pack_box.itemText(0) == f"{pack.name}  ·  {count} languages"
    box = win.pack_box
    option = QStyleOptionComboBox()
    box.initStyleOption(option)
    field = box.style().subControlRect(
        QStyle.ComplexControl.CC_ComboBox, option, QStyle.SubControl.SC_ComboBoxEditField, box
    )
    assert field.width() >= box.fontMetrics().horizontalAdvance(pack.name)  # the name is shown whole
    app.dialogs.show_models()
    manager = app.dialogs.open["models"]
    assert manager.table.item(0, LANGUAGES_COLUMN).text().startswith(f"{count} languages: ")
    with pytest.raises(routing.NoRoute, match=rf"\({count} languages\)"):
        routing.route([info], "en", "xx")
    # pinned, with Chinese typed: the hint and its switch go above the text, the top bar still fits 1000 px
    app.direction.set_auto(False)
    win.source.set_text("请观看关于软件更新的视频。")
    qtbot.waitUntil(lambda: win.switch_button.isVisible(), timeout=TRANSLATE_TIMEOUT)
    assert win.minimumSizeHint().width() <= 1000
