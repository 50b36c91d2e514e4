"""Automatic direction: the window and the popup pick the pack and languages from the text's language
(the choice itself, without windows: tests/test_routing.py)."""

from __future__ import annotations

from pathlib import Path

import pytest
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QApplication
from ui_fakes import LOAD_TIMEOUT, TRANSLATE_TIMEOUT, FakeTranslator

from fanyi.engine.options import DecodeOptions
from fanyi.ui.settings import Settings, load_settings

ENGLISH = "The weather is fine today."
CHINESE = "今天天气很好。"


@pytest.fixture
def both_ways(pack_dir, ui_dirs, tiny_pack_zh_en) -> Path:
    """en→zh (tiny-en-zh) and zh→en (tiny-zh-en) installed."""
    (ui_dirs / "bundled" / "tiny-zh-en").symlink_to(tiny_pack_zh_en, target_is_directory=True)
    return pack_dir


def wait_for(qtbot, win, pack: str, translation: str) -> None:
    qtbot.waitUntil(
        lambda: (
            win.service.model is not None
            and win.service.model.name == pack
            and win.stream.req_id is None
            and win.target.view.text() == translation
        ),
        timeout=TRANSLATE_TIMEOUT,
    )


def test_the_window_turns_round_for_chinese_and_back_for_english(qtbot, make_app, both_ways):
    app = make_app(opener=FakeTranslator.opener(slow=False))
    win = app.window
    win.show()
    assert win.auto_button.isChecked() and win.detected_label.text() == ""
    win.source.set_text(ENGLISH)
    wait_for(qtbot, win, "tiny-en-zh", "THEWEATHERISFINETODAY。")
    assert win.detected_label.text() == "Detected: English"
    win.source.set_text(CHINESE)
    wait_for(qtbot, win, "tiny-zh-en", "今天天气很好。。")
    assert win.detected_label.text() == "Detected: Chinese" and win.pack_box.currentData() == "tiny-zh-en"
    win.source.set_text("I love 北京 very much.")  # mostly English
    wait_for(qtbot, win, "tiny-en-zh", "ILOVE北京VERYMUCH。")
    assert app.settings.default_pack.value == "" and load_settings().auto_direction  # nothing was pinned


def test_a_pack_chosen_by_hand_stays_until_auto_is_pressed(qtbot, make_app, both_ways):
    app = make_app(opener=FakeTranslator.opener(slow=False))
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    index = win.pack_box.findData("tiny-zh-en")
    win.pack_box.setCurrentIndex(index)
    win.pack_box.activated.emit(index)
    assert not win.auto_button.isChecked() and not load_settings().auto_direction
    win.source.set_text(ENGLISH)
    wait_for(qtbot, win, "tiny-zh-en", "THEWEATHERISFINETODAY。")  # pinned: English through zh→en
    # …but not silently: above the text, what it is, and one click to the direction that fits it
    assert win.hint_bar.isVisible() and win.hint.text() == "Detected: English" and win.detected_label.text() == ""
    assert win.switch_button.isVisible() and win.switch_button.text() == "Switch to English → Chinese"
    qtbot.mouseClick(win.auto_button, Qt.MouseButton.LeftButton)
    wait_for(qtbot, win, "tiny-en-zh", "THEWEATHERISFINETODAY。")
    assert win.auto_button.isChecked() and load_settings().auto_direction
    assert win.detected_label.text() == "Detected: English" and not win.hint_bar.isVisible()


def test_a_pinned_direction_offers_a_one_click_switch_for_text_in_another_language(qtbot, make_app, both_ways):
    """Chinese typed into a pinned English → Chinese: no longer fed to that pack silently. It is written anew
    in the Chinese asked for (OpenCC, no model), the hint says it is Chinese, and one click turns round."""
    app = make_app(opener=FakeTranslator.opener(slow=False), settings=Settings(auto_direction=False))
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    win.source.set_text(ENGLISH)
    wait_for(qtbot, win, "tiny-en-zh", "THEWEATHERISFINETODAY。")
    assert not win.hint_bar.isVisible() and win.detected_label.text() == ""  # it fits: nothing to say
    win.source.set_text(CHINESE)
    wait_for(qtbot, win, "tiny-en-zh", CHINESE)  # 简体 asked for: written in Simplified, as it is
    assert win.hint_bar.isVisible() and win.hint.text() == "Detected: Chinese"
    assert win.switch_button.text() == "Switch to Chinese → English" and win.switch_button.isVisible()
    qtbot.mouseClick(win.switch_button, Qt.MouseButton.LeftButton)
    wait_for(qtbot, win, "tiny-zh-en", "今天天气很好。。")
    assert not win.auto_button.isChecked()  # the switch is a choice by hand too: it stays
    assert not win.hint_bar.isVisible()


def test_an_english_sentence_in_chinese_text_is_translated_in_a_pinned_english_to_chinese(qtbot, make_app, pack_dir):
    """ "Hello there. 今天天气很好。" was seen as Chinese and only converted by OpenCC: "Hello there." stayed
    English with no sign. Each sentence goes its own way: the English one through the pack, the Chinese one
    written anew."""
    app = make_app(
        opener=FakeTranslator.opener(slow=False), settings=Settings(auto_direction=False, target_variant="zh-TW")
    )
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    win.source.set_text("Hello there. 请观看关于软件更新的视频。")
    # the fake model writes capitals, marked 台 for Taiwan's Traditional; OpenCC writes the Chinese sentence so
    wait_for(qtbot, win, "tiny-en-zh", "台HELLO台THERE。請觀看關於軟體更新的影片。")
    assert not win.target.untranslated.isVisible()


def test_chinese_typed_with_taiwans_traditional_chosen_is_written_by_opencc(qtbot, make_app, pack_dir):
    """Only English → Chinese installed (the default install), 台灣正體 chosen: Chinese typed or pasted
    comes out in Taiwan's Traditional, converted by OpenCC, no model; the history says so."""
    app = make_app(opener=FakeTranslator.opener(slow=False), settings=Settings(target_variant="zh-TW"))
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    win.source.set_text("请观看关于软件更新的视频。")
    wait_for(qtbot, win, "tiny-en-zh", "請觀看關於軟體更新的影片。")
    assert win.detected_label.text() == "Detected: Chinese (no model)"
    # which way of writing, as the buttons name it; not OpenCC's profile ("OpenCC (s2twp)" was jargon)
    assert win.stats_label.text() == "Chinese written in 台灣正體 by OpenCC, no model"
    qtbot.waitUntil(lambda: bool(app.history.store.search()))
    assert app.history.store.search()[0].pack == "OpenCC"
    hong_kong = [b for b in win.variant_group.buttons() if b.property("variant") == "zh-HK"][0]
    qtbot.mouseClick(hong_kong, Qt.MouseButton.LeftButton)
    wait_for(qtbot, win, "tiny-en-zh", "請觀看關於軟件更新的視頻。")


def test_a_language_no_pack_translates_from_is_named(qtbot, make_app, ui_dirs, tiny_pack_zh_en):
    (ui_dirs / "bundled" / "tiny-zh-en").symlink_to(tiny_pack_zh_en, target_is_directory=True)
    app = make_app(opener=FakeTranslator.opener(slow=False))
    win = app.window
    win.show()
    win.source.set_text(ENGLISH)
    qtbot.waitUntil(lambda: win.detected_label.text() == "Detected: English (no model)", timeout=LOAD_TIMEOUT)
    assert "No installed model translates from English" in win.detected_label.toolTip()


def test_the_popup_picks_its_own_direction_and_leaves_the_window_alone(qtbot, make_app, both_ways):
    # zh→en as the default: copied English used to give an empty popup
    app = make_app(opener=FakeTranslator.opener(slow=False), settings=Settings(default_pack="tiny-zh-en"))
    win = app.window
    win.show()
    win.source.set_text(CHINESE)
    wait_for(qtbot, win, "tiny-zh-en", "今天天气很好。。")
    QApplication.clipboard().setText(ENGLISH)
    app.translate_clipboard()
    popup = app.popup
    with qtbot.waitSignal(popup.translated, timeout=TRANSLATE_TIMEOUT) as done:
        pass
    assert done.args == [ENGLISH, "THEWEATHERISFINETODAY。"] and popup.text() == "THEWEATHERISFINETODAY。"
    assert popup.direction_label.text() == "English → Chinese" and popup.detected_label.text() == "Detected: English"
    assert app.packs.current.name == "tiny-zh-en" and app.service.model.name == "tiny-zh-en"  # the window's stays
    assert win.target.view.text() == "今天天气很好。。"
    # turned round by hand: this text only
    qtbot.mouseClick(popup.swap_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(
        lambda: popup.stream.req_id is None and popup.direction_label.text() == "Chinese → English",
        timeout=TRANSLATE_TIMEOUT,
    )
    assert popup.detected_label.text() == "" and popup.text() == "THEWEATHERISFINETODAY。"
    QApplication.clipboard().setText(CHINESE)
    app.translate_clipboard()
    qtbot.waitUntil(
        lambda: popup.stream.req_id is None and popup.text() == "今天天气很好。。", timeout=TRANSLATE_TIMEOUT
    )
    assert popup.direction_label.text() == "Chinese → English"


def test_the_popup_saves_its_translation_under_the_pack_that_made_it(qtbot, make_app, both_ways):
    app = make_app(opener=FakeTranslator.opener(slow=False), settings=Settings(default_pack="tiny-zh-en"))
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    QApplication.clipboard().setText(ENGLISH)
    app.translate_clipboard()
    with qtbot.waitSignal(app.popup.translated, timeout=TRANSLATE_TIMEOUT):
        pass
    entry = app.history.store.search()[0]
    assert (entry.source, entry.pack) == (ENGLISH, "tiny-en-zh") and app.packs.current.name == "tiny-zh-en"


def test_the_popup_follows_a_pinned_direction(qtbot, make_app, both_ways):
    app = make_app(opener=FakeTranslator.opener(slow=False), settings=Settings(auto_direction=False))
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    QApplication.clipboard().setText(CHINESE)
    app.translate_clipboard()
    qtbot.waitUntil(lambda: app.popup.stream.req_id is None and app.popup.text() == CHINESE, timeout=TRANSLATE_TIMEOUT)
    # pinned English → Chinese: the Chinese is not fed to that pack but written anew (简体: as it is)
    assert app.popup.direction_label.text() == "English → Chinese"
    assert app.popup.detected_label.text() == "Detected: Chinese"


def test_the_spare_model_serves_the_other_direction_without_reloading(qtbot, make_app, both_ways):
    FakeTranslator.opened.clear()
    app = make_app(opener=FakeTranslator.opener(slow=False))
    win = app.window
    win.show()
    for text, pack, translation in [
        (ENGLISH, "tiny-en-zh", "THEWEATHERISFINETODAY。"),
        (CHINESE, "tiny-zh-en", "今天天气很好。。"),
        (ENGLISH, "tiny-en-zh", "THEWEATHERISFINETODAY。"),
        (CHINESE, "tiny-zh-en", "今天天气很好。。"),
    ]:
        win.source.set_text(text)
        wait_for(qtbot, win, pack, translation)
    assert sorted(t.name for t in FakeTranslator.opened) == ["tiny-en-zh", "tiny-zh-en"]  # each opened once


def test_many_to_many_packs_switch_languages(qtbot, make_app, tiny_nllb_pack, ui_dirs):
    from fanyi.engine.translator import Translator
    from fanyi.ui.worker import open_translator

    (ui_dirs / "bundled" / tiny_nllb_pack.name).symlink_to(tiny_nllb_pack, target_is_directory=True)
    app = make_app(opener=open_translator)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    reference = Translator.open(tiny_nllb_pack, threads=1)
    win.source.set_text(CHINESE)
    expected = reference.translate(CHINESE, DecodeOptions(source="zho_Hans", target="eng_Latn"))
    qtbot.waitUntil(lambda: win.stream.req_id is None and win.target.view.text() == expected, timeout=TRANSLATE_TIMEOUT)
    assert (win.source_picker.code(), win.target_picker.code()) == ("zho_Hans", "eng_Latn")
    assert win.detected_label.text() == "Detected: Chinese (Simplified)"


def test_the_popups_way_of_writing_chinese_is_its_own(qtbot, make_app, pack_dir):
    """台 clicked in the popup writes the popup's text in Taiwan's Traditional; the window keeps its 简体."""
    app = make_app(opener=FakeTranslator.opener(slow=False))
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    QApplication.clipboard().setText(ENGLISH)
    app.translate_clipboard()
    popup = app.popup
    qtbot.waitUntil(lambda: popup.stream.req_id is None and popup.text() == "THEWEATHERISFINETODAY。")
    taiwan = [b for b in popup.variant_group.buttons() if b.property("variant") == "zh-TW"][0]
    qtbot.mouseClick(taiwan, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: popup.stream.req_id is None and popup.text() == "台THE台WEATHER台IS台FINE台TODAY。")
    assert taiwan.isChecked() and app.settings.target_variant.value == "cmn_Hans"
    assert load_settings().target_variant == "cmn_Hans"
    window_variant = [b for b in app.window.variant_group.buttons() if b.isChecked()]
    assert [b.property("variant") for b in window_variant] == ["cmn_Hans"]
