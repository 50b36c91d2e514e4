"""Translate-as-you-type: streaming, cancelling, errors, variants and the status bar."""

from __future__ import annotations

from glossary_fakes import SPLIT, scripted
from PySide6.QtCore import Qt
from PySide6.QtWidgets import QLabel, QWidget
from ui_fakes import EXPLODE, LOAD_TIMEOUT, LOOPS, TRANSLATE_TIMEOUT, FakeTranslator

from fanyi.glossary import Glossary, Term
from fanyi.limits import REPORT_ENTRIES_PER_REASON
from fanyi.ui.panes import LostTermsNote, TargetView
from fanyi.ui.worker import open_translator


def long_text(paragraphs: int = 12) -> str:
    return "\n\n".join(
        " ".join(f"Paragraph {p} sentence {s} tells a story about rivers." for s in range(3)) for p in range(paragraphs)
    )


def wait_idle(qtbot, win) -> None:
    qtbot.waitUntil(lambda: win.stream.req_id is None and not win._debounce.isActive(), timeout=TRANSLATE_TIMEOUT)


# Sentences the tiny model translates without degenerating, so that every partial text shown is a
# prefix of the final one (a degenerate sentence is taken back and decoded again: see below).
NORMAL = (
    "Is there a pharmacy near here that is open late? Everyone laughed when the teacher told the story "
    "about the goose. He ran 42.195 km in 2 hours, 58 minutes and 12 seconds. The neural network has 6 "
    "encoder layers and 6 decoder layers. Tokenization splits text into subword units called pieces."
)


def test_typing_streams_into_the_target_and_ends_as_translate_batch(qtbot, window, backend):
    # Long enough that the real tiny model (which decides tokens in bursts) streams several deltas.
    text = NORMAL
    stream = list(backend.reference.translate_stream(text, window.direction.options()))
    assert all(isinstance(event, str) for event in stream)  # no sentence is taken back
    view = window.target.view
    deltas: list[str] = []
    append = view.append
    view.append = lambda delta: (deltas.append(delta), append(delta))[1]  # what reaches the pane, as it comes
    qtbot.keyClicks(window.source.edit, text)
    wait_idle(qtbot, window)
    final = backend.translate(text, window.direction.options())
    assert view.text() == final
    assert view.toPlainText() == final
    # Streamed: the pane was handed the translation in parts before the final one (it paints them at most
    # every FLUSH_MS, so how many paints there were depends on the machine's speed, not on the streaming)
    assert len(deltas) > 1 and "".join(deltas) == final
    assert window.stats_label.text().endswith("tokens/s")
    assert "tiny-en-zh" in window.model_label.text()


def test_an_edit_mid_translation_cancels_it_and_shows_only_the_new_one(qtbot, window, backend):
    first = long_text(20)
    window.source.set_text(first)
    window.translate_now()
    old_id = window.stream.req_id
    qtbot.waitUntil(lambda: len(window.target.view.text()) > 0, timeout=TRANSLATE_TIMEOUT)
    cancelled = []
    window.service.cancelled.connect(cancelled.append)
    second = "A different text. Only this one should remain."
    window.source.set_text(second)
    window.translate_now()
    wait_idle(qtbot, window)
    assert old_id in cancelled
    assert window.target.view.text() == backend.translate(second, window.direction.options())
    assert window.target.view.toPlainText() == window.target.view.text()


def test_typing_at_the_end_keeps_the_cached_sentences(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    win = app.window
    qtbot.waitUntil(lambda: app.service.model is not None)
    text = long_text(6)
    win.source.set_text(text)
    wait_idle(qtbot, win)
    engine = FakeTranslator.opened[-1]
    tokens_before = engine.last_stats["tokens"]
    win.source.edit.moveCursor(win.source.edit.textCursor().MoveOperation.End)
    qtbot.keyClicks(win.source.edit, " One more sentence here.")
    wait_idle(qtbot, win)
    assert tokens_before > 40
    assert engine.last_stats["tokens"] == len(FakeTranslator.words("One more sentence here.", "cmn_Hans"))
    assert win.target.view.text() == fake_backend.translate(win.source.text(), app.direction.options())


def test_ctrl_enter_translates_at_once_when_typing_translation_is_off(qtbot, make_app, fake_backend):
    from fanyi.ui.settings import Settings

    app = make_app(fake_backend, settings=Settings(translate_as_you_type=False))
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None)
    qtbot.keyClicks(win.source.edit, "Hello there.")
    qtbot.wait(500)
    assert win.target.view.text() == "" and win.stream.req_id is None
    qtbot.keyClick(win.source.edit, Qt.Key.Key_Return, Qt.KeyboardModifier.ControlModifier)
    wait_idle(qtbot, win)
    assert win.target.view.text() == "HELLOTHERE。"


def test_an_engine_error_is_shown_not_swallowed(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None)
    win.source.set_text(f"This will {EXPLODE} now.")
    win.translate_now()
    qtbot.waitUntil(lambda: win.target.error.isVisible(), timeout=TRANSLATE_TIMEOUT)
    assert "the decoder exploded" in win.target.error.text()
    assert win.stats_label.text() == "Translation failed"
    win.source.set_text("Fine again.")  # the worker survives and the next text translates
    wait_idle(qtbot, win)
    assert win.target.view.text() == "FINEAGAIN。" and not win.target.error.isVisible()


def test_variant_buttons_follow_the_pack_and_retranslate(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None)
    shown = {b.property("variant"): b for b in win.variant_group.buttons() if b.isVisible()}
    assert set(shown) == {"cmn_Hans", "zh-TW", "zh-HK", "cmn_Hant", "yue"}
    assert shown["zh-TW"].text() == "台灣正體" and shown["cmn_Hans"].isChecked()
    win.source.set_text("Good morning.")
    wait_idle(qtbot, win)
    qtbot.mouseClick(shown["cmn_Hant"], Qt.MouseButton.LeftButton)
    wait_idle(qtbot, win)
    assert win.target.view.text() == "繁GOOD繁MORNING。"
    assert app.settings.target_variant.value == "cmn_Hant"
    qtbot.mouseClick(shown["zh-TW"], Qt.MouseButton.LeftButton)  # the pack's Simplified, converted (OpenCC)
    wait_idle(qtbot, win)
    assert win.target.view.text() == "台GOOD台MORNING。"
    assert app.direction.options().convert == "zh-TW" and app.direction.options().target == "cmn_Hans"


def test_nothing_moves_when_the_detected_language_shows(qtbot, make_app, fake_backend):
    """The variant buttons jumped ~100 px as "Detected: …" came and went; they are now above the
    translation, and the label takes only the room left in the top bar."""
    app = make_app(fake_backend)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None)
    watched = [win.variant_group.buttons()[0], win.documents_button, win.settings_button]

    def where() -> list[int]:
        win.centralWidget().layout().activate()
        return [w.mapTo(win, w.rect().topLeft()).x() for w in watched]

    before = where()
    assert win.detected_label.text() == "" and win.variant_box.isVisible()
    win.source.set_text("Good morning.")
    wait_idle(qtbot, win)
    assert win.detected_label.text() == "Detected: English" and where() == before


def test_the_status_bar_speaks_the_ui_language(qtbot, make_app, fake_backend):
    """ "Ready" stayed English after switching to 简体中文; each status is made again in the new language."""
    app = make_app(fake_backend)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: win.stats_label.text() == "Ready", timeout=TRANSLATE_TIMEOUT)
    app.settings.ui_language.set("zh_CN")
    qtbot.waitUntil(lambda: win.stats_label.text() == "就绪")  # LanguageChange is an event, sent soon after
    win.source.set_text("Good morning.")
    wait_idle(qtbot, win)
    assert win.stats_label.text().endswith(("来自缓存", "个词元")), win.stats_label.text()
    app.settings.ui_language.set("en")
    qtbot.waitUntil(lambda: win.stats_label.text().endswith(("from cache", "tokens/s")))


def test_copy_clear_and_character_count(qtbot, window, backend):
    from PySide6.QtWidgets import QApplication

    window.source.set_text("Copy me.")
    wait_idle(qtbot, window)
    assert window.source.count.text() == "Characters: 8"
    qtbot.mouseClick(window.target.copy_button, Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == window.target.view.text() != ""
    qtbot.mouseClick(window.source.clear_button, Qt.MouseButton.LeftButton)
    wait_idle(qtbot, window)
    assert window.target.view.text() == "" and window.source.count.text() == "Characters: 0"


def test_swap_needs_a_reverse_pack_and_moves_the_translation(qtbot, make_app, fake_backend, user_dirs, tiny_pack_zh_en):
    app = make_app(fake_backend)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None)
    assert not win.swap_button.isEnabled()
    (user_dirs / "bundled" / "tiny-zh-en").symlink_to(tiny_pack_zh_en, target_is_directory=True)
    app.packs.refresh()
    assert win.swap_button.isEnabled() and win.pack_box.count() == 2
    win.source.set_text("Turn around.")
    wait_idle(qtbot, win)
    qtbot.mouseClick(win.swap_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: app.service.model is not None and app.service.model.source_lang == "zh")
    assert win.source.text() == "TURNAROUND。"
    assert win.pack_box.currentData() == "tiny-zh-en"
    assert not any(b.isVisible() for b in win.variant_group.buttons())  # single-target pack


def test_pasting_hard_wrapped_text_joins_its_lines(qtbot, window, backend):
    from PySide6.QtCore import QMimeData

    wrapped = (
        "The results of the experiment were consistent with the\n"
        "hypothesis that the treatment improves the outcome in most\n"
        "patients who received it.\n\nA second paragraph."
    )
    mime = QMimeData()
    mime.setText(wrapped)
    window.source.edit.insertFromMimeData(mime)
    assert window.source.text() == (
        "The results of the experiment were consistent with the hypothesis that the treatment improves "
        "the outcome in most patients who received it.\n\nA second paragraph."
    )


def test_choosing_another_pack_mid_translation_translates_again_on_it(qtbot, make_app, fake_backend, tiny_pack_int8):
    from fanyi.library import installed

    installed.import_pack(tiny_pack_int8)
    app = make_app(fake_backend)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=TRANSLATE_TIMEOUT)
    text = long_text(8)
    win.source.set_text(text)
    win.translate_now()
    qtbot.waitUntil(lambda: len(win.target.view.text()) > 0, timeout=TRANSLATE_TIMEOUT)
    index = win.pack_box.findData("tiny-en-zh-int8")
    win.pack_box.setCurrentIndex(index)
    win.pack_box.activated.emit(index)
    qtbot.waitUntil(
        lambda: app.service.model is not None and app.service.model.name == "tiny-en-zh-int8", timeout=TRANSLATE_TIMEOUT
    )
    wait_idle(qtbot, win)
    assert win.target.view.text() == fake_backend.translate(text, app.direction.options())
    assert win.model_label.text() == "tiny-en-zh-int8 · int8"


def test_a_sentence_left_untranslated_shows_as_it_was_with_a_small_warning(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    win = app.window
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=TRANSLATE_TIMEOUT)
    text = f"The first one is fine. This one {LOOPS} forever. The last one is fine too."
    win.source.set_text(text)
    win.translate_now()
    wait_idle(qtbot, win)
    final = fake_backend.translate(text, app.direction.options())
    assert win.target.view.text() == final == "THEFIRSTONEISFINE。This one LOOPS forever.THELASTONEISFINETOO。"
    badge = win.target.untranslated
    assert not badge.isHidden() and badge.text() == "⚠ 1 sentence untranslated"
    assert "“This one LOOPS forever.” — the model kept repeating itself" in badge.toolTip()
    app.settings.update(ui_language="zh_CN")
    qtbot.waitUntil(lambda: badge.text() == "⚠ 1 句未翻译")
    assert "模型不断重复同样的内容" in badge.toolTip()
    win.source.set_text("All is well now.")
    win.translate_now()
    wait_idle(qtbot, win)
    assert badge.isHidden() and win.target.view.text() == "ALLISWELLNOW。"


def said(pane: QWidget, word: str) -> list[str]:
    """The texts of the labels shown in ``pane`` that hold ``word``."""
    return [label.text() for label in pane.findChildren(QLabel) if label.isVisibleTo(pane) and word in label.text()]


LOST_EN = (
    "⚠ The glossary's “hidden” could not be kept: the model broke its placeholder, so its sentence was translated "
    "without the glossary."
)
LOST_ZH = "⚠ 术语表中的“hidden”未能保留：模型破坏了它的占位符，所在句子已不用术语表重新翻译。"


def test_a_glossary_term_the_model_lost_is_said_under_the_translation(qtbot, make_app, pack_dir, monkeypatch):
    """The model split the placeholder of "hidden" (as MarianMT did): the command line and a document's report said
    so, the window's translation pane said nothing (only the log did). The real Translator on the tiny pack, its
    model scripted as the command line's test scripts it."""
    scripted(monkeypatch, SPLIT.__getitem__)
    app = make_app(opener=open_translator)
    app.glossary.set(Glossary((Term("en", "zh", "hidden", "隐藏"),)))
    win = app.window
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    win.source.set_text("Show the hidden files.")
    win.translate_now()
    wait_idle(qtbot, win)
    assert win.target.view.text() == "显示隐藏的文件。"  # translated again without the glossary: no "ZX" left
    assert said(win.target, "“hidden”") == [LOST_EN]
    app.settings.update(ui_language="zh_CN")
    qtbot.waitUntil(lambda: said(win.target, "“hidden”") == [LOST_ZH])
    win.source.set_text("Reset the hidden.")  # its placeholder comes back whole: nothing to say
    win.translate_now()
    wait_idle(qtbot, win)
    assert "隐藏" in win.target.view.text() and said(win.target, "“hidden”") == []


def test_many_lost_terms_are_named_up_to_the_reports_bound(qtbot):
    from fanyi.ui import i18n

    note = LostTermsNote()
    qtbot.addWidget(note)
    note.show_terms([f"term {i}" for i in range(REPORT_ENTRIES_PER_REASON + 2)])
    assert note.text().startswith("⚠ The glossary's “term 0”, “term 1”, ")
    assert f"“term {REPORT_ENTRIES_PER_REASON - 1}” and 2 more could not be kept" in note.text()
    assert "their placeholders, so their sentences were" in note.text()
    i18n.install("zh_CN")
    qtbot.waitUntil(lambda: note.text().startswith("⚠ 术语表中的“term 0”、“term 1”、"))
    assert f"“term {REPORT_ENTRIES_PER_REASON - 1}”及另外 2 个未能保留：模型破坏了它们的占位符" in note.text()


def test_the_target_view_takes_back_what_a_rewind_drops(qtbot):
    view = TargetView()
    qtbot.addWidget(view)
    view.begin()
    view.append("你好")
    qtbot.waitUntil(lambda: view.text() == "你好")  # shown
    view.append("又又")  # not shown yet
    view.rewind(3)  # one of what is shown, both of what is not
    assert view.text() == view.toPlainText() == "你"
    view.append("们好")
    qtbot.waitUntil(lambda: view.text() == "你们好")
    view.finish("你们好")
    assert view.toPlainText() == "你们好"


def test_the_history_models_and_settings_buttons_open_their_dialogs(qtbot, make_app, fake_backend, monkeypatch):
    """The three were built with clicked=<a signal>, which PySide6 tries to call: clicking did nothing."""
    from fanyi.ui.settings_dialog import SettingsDialog

    settings_opened = []
    monkeypatch.setattr(SettingsDialog, "exec", lambda self: settings_opened.append(self) and 0)  # modal
    app = make_app(fake_backend)
    win = app.window
    win.show()
    qtbot.mouseClick(win.models_button, Qt.MouseButton.LeftButton)
    qtbot.mouseClick(win.history_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: {"models", "history"} <= set(app.dialogs.open))
    assert all(dialog.isVisible() for dialog in app.dialogs.open.values())
    qtbot.mouseClick(win.settings_button, Qt.MouseButton.LeftButton)
    assert len(settings_opened) == 1
