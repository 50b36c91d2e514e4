"""History: one entry per translation (one per text being edited), searchable, favourites, delete, export,
clear, and nothing written while it is switched off."""

from __future__ import annotations

import sqlite3

import pytest
from PySide6.QtWidgets import QMessageBox
from test_main_window import wait_idle
from ui_fakes import LOAD_TIMEOUT

from fanyi.ui.history import Draft, History, continues, export_csv, history_path
from fanyi.ui.history_dialog import HistoryDialog


def test_save_update_search_clear(ui_dirs):
    history = History()
    first = history.save("Good morning.", "早上好。", "p")
    assert history.save("Good morning, world.", "早上好，世界。", "p", first) == first
    second = history.save("100% sure_thing", "百分之百", "p")
    assert [e.id for e in history.search()] == [second, first]
    assert [e.source for e in history.search("world")] == ["Good morning, world."]
    assert [e.id for e in history.search("世界")] == [first]
    assert [e.id for e in history.search("%")] == [second]  # wildcards are literal
    assert [e.id for e in history.search("d_m")] == []  # would match "Good morning" as a wildcard
    history.clear()
    assert history.search() == []
    history.close()
    assert sqlite3.connect(history_path()).execute("SELECT count(*) FROM history").fetchone() == (0,)


def test_a_draft_typed_in_steps_is_one_entry(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    win = app.window
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    win.source.set_text("First part.")
    wait_idle(qtbot, win)
    win.source.edit.moveCursor(win.source.edit.textCursor().MoveOperation.End)
    win.source.edit.insertPlainText(" Second part.")
    wait_idle(qtbot, win)
    entries = app.history.store.search()
    assert [(e.source, e.target) for e in entries] == [("First part. Second part.", "FIRSTPART。SECONDPART。")]
    win.source.edit.clear()
    win.source.set_text("Something new.")
    wait_idle(qtbot, win)
    assert len(app.history.store.search()) == 2

    dialog = HistoryDialog(app.history.store, True)
    qtbot.addWidget(dialog)
    dialog.search.setText("second")
    dialog.refresh()
    assert dialog.list.count() == 1
    reopened = []
    dialog.reopen.connect(reopened.append)
    dialog._on_activated(dialog.list.item(0))
    assert [e.source for e in reopened] == ["First part. Second part."]


def test_history_off_saves_nothing(qtbot, make_app, fake_backend):
    from fanyi.ui.settings import Settings

    app = make_app(fake_backend, settings=Settings(history=False))
    win = app.window
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    win.source.set_text("Private text.")
    wait_idle(qtbot, win)
    assert win.target.view.text() == "PRIVATETEXT。"
    assert app.history.record("From the popup.", "来自弹窗。", pack="tiny-en-zh") is None  # the popup's path too
    app.dialogs.show_history()  # looking at an empty history does not create one
    dialog = app.dialogs.open["history"]
    assert dialog.list.count() == 0 and "switched off" in dialog.note.text()
    assert not dialog.clear_button.isEnabled()
    assert not history_path().exists()


def _damaged_database(path) -> bytes:
    """A real history database with pages overwritten in the middle, as a bad disk leaves it."""
    history = History(path)
    for n in range(300):
        history.save(f"Sentence number {n}." * 5, f"第{n}句。" * 5, "p")
    history.close()
    data = bytearray(path.read_bytes())
    data[4096 : 3 * 4096] = b"\xa5" * (2 * 4096)
    path.write_bytes(bytes(data))
    return bytes(data)


def test_a_damaged_database_is_kept_aside_and_a_new_one_started(ui_dirs):
    path = history_path()
    path.parent.mkdir(parents=True)
    for damaged in (b"this is not a database" * 100, None):
        for old in path.parent.iterdir():
            old.unlink()
        data = _damaged_database(path) if damaged is None else damaged
        if damaged is not None:
            path.write_bytes(data)
        kept = []
        history = History(on_moved_aside=kept.append)
        assert len(kept) == 1 and kept[0].name.startswith("history.sqlite3.corrupt-")
        assert kept[0].read_bytes() == data  # nothing is lost
        entry = history.save("Hello.", "你好。", "p")
        assert [(e.id, e.source) for e in history.search()] == [(entry, "Hello.")]
        history.close()
        assert History(on_moved_aside=kept.append).search()[0].source == "Hello." and len(kept) == 1


def test_damage_found_while_saving_starts_a_new_database(ui_dirs):
    kept = []
    history = History(on_moved_aside=kept.append)
    history.save("Before.", "之前。", "p")
    history._db.close()
    history_path().write_bytes(b"garbage" * 1000)  # the file goes bad under an open history
    history._db = sqlite3.connect(history_path())
    assert history.save("After.", "之后。", "p") and [e.source for e in history.search()] == ["After."]
    assert len(kept) == 1 and kept[0].read_bytes() == b"garbage" * 1000
    history.clear()  # clearing also deletes the damaged copy: the user asked for the text to be gone
    assert not kept[0].exists()


def test_the_app_tells_once_in_chinese_and_keeps_saving(qtbot, make_app, fake_backend):
    """A corrupt database raised a traceback on every translation and history went silently off."""
    from fanyi.ui import i18n

    path = history_path()
    path.parent.mkdir(parents=True)
    path.write_bytes(b"not a database" * 100)
    i18n.install("zh_CN")
    app = make_app(fake_backend)
    win = app.window
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    win.source.set_text("First text.")
    wait_idle(qtbot, win)
    message = win.statusBar().currentMessage()
    assert message.startswith("历史记录文件已损坏。已将其保留为 ") and ".corrupt-" in message
    assert [e.source for e in app.history.store.search()] == ["First text."]
    win.statusBar().clearMessage()
    win.source.set_text("Second text.")
    wait_idle(qtbot, win)
    assert win.statusBar().currentMessage() == ""
    assert len(list(path.parent.glob("history.sqlite3.corrupt-*"))) == 1
    app.dialogs.show_history()
    assert app.dialogs.open["history"].list.count() == 1  # one draft, updated
    i18n.install("en")  # while the dialog can still read the history it shows


def test_a_history_that_cannot_be_opened_is_said_once_and_translating_goes_on(qtbot, make_app, fake_backend):
    history_path().mkdir(parents=True)  # SQLite cannot open a folder: not damage, so nothing is moved
    app = make_app(fake_backend)
    win = app.window
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    win.source.set_text("Text.")
    wait_idle(qtbot, win)
    assert win.target.view.text() == "TEXT。"
    assert win.statusBar().currentMessage().startswith("History cannot be saved: ")
    win.statusBar().clearMessage()
    app.dialogs.show_history()
    assert "history" not in app.dialogs.open and win.statusBar().currentMessage() == ""
    assert history_path().is_dir()


def test_pasting_over_the_text_starts_a_new_entry_and_keeps_the_old_one(qtbot, make_app, fake_backend):
    """Select-all + paste used to overwrite the entry of the text that was there."""
    app = make_app(fake_backend)
    win = app.window
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    win.source.set_text("The first letter.")
    wait_idle(qtbot, win)
    win.source.edit.selectAll()
    win.source.edit.insertPlainText("A second letter, pasted over it.")  # one edit: the pane is never empty
    wait_idle(qtbot, win)
    win.source.edit.moveCursor(win.source.edit.textCursor().MoveOperation.End)
    qtbot.keyClicks(win.source.edit, " Typed on.")
    wait_idle(qtbot, win)
    assert [e.source for e in app.history.store.search()] == [
        "A second letter, pasted over it. Typed on.",
        "The first letter.",
    ]


def test_what_counts_as_the_same_text():
    draft = Draft(7, "The meeting is on Monday at ten.", "p")
    for edited in (
        "The meeting is on Monday at ten. Please come.",  # typed on
        "The meeting is on Tuesday at ten.",  # corrected in the middle
        "The meeting is on Monday",  # cut short
        "The meeting is on Monday at ten.",
    ):  # the same, translated again (another variant)
        assert continues(draft, edited, "p"), edited
    for new in ("T", "Something else entirely.", "The weather is fine today, isn't it?", ""):
        assert not continues(draft, new, "p"), new
    assert not continues(draft, draft.source, "another-pack")
    assert not continues(None, draft.source, "p")


def test_the_same_text_and_translation_is_one_entry_whatever_asked_for_it(qtbot, make_app, fake_backend):
    """The window, the popup, the hotkey and a variant clicked back made four entries of one translation."""
    from PySide6.QtWidgets import QApplication

    app = make_app(fake_backend)
    win = app.window
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    win.source.set_text("Good news.")
    wait_idle(qtbot, win)
    first = app.history.store.search()
    assert [(e.source, e.target) for e in first] == [("Good news.", "GOODNEWS。")]
    app.history.store.set_starred([first[0].id], True)
    for _ in range(2):  # the popup, then the hotkey: the same text, the same pack, the same translation
        QApplication.clipboard().setText("Good news.")
        app.translate_clipboard()
        with qtbot.waitSignal(app.popup.translated, timeout=LOAD_TIMEOUT):
            pass
    popup = app.popup
    for variant in ("cmn_Hant", "cmn_Hans"):  # another way of writing in the popup (another entry), then back
        button = next(b for b in popup.variant_group.buttons() if b.property("variant") == variant)
        with qtbot.waitSignal(popup.translated, timeout=LOAD_TIMEOUT):
            button.click()
    entries = app.history.store.search()
    assert [(e.source, e.target) for e in entries] == [("Good news.", "GOODNEWS。"), ("Good news.", "繁GOOD繁NEWS。")]
    assert entries[0].starred  # the star of the copy that went is kept
    app.history.record("Copied once.", "复制一次。", pack="tiny-en-zh")
    app.history.record("Copied once.", "复制一次。", pack="another-pack")  # another pack: another entry
    assert [e.pack for e in app.history.store.search()[:2]] == ["another-pack", "tiny-en-zh"]


def test_a_reopened_entry_translated_again_is_not_copied(qtbot, make_app, fake_backend):
    app = make_app(fake_backend)
    win = app.window
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    win.source.set_text("Old text.")
    wait_idle(qtbot, win)
    win.source.edit.clear()
    win.source.set_text("Newer text.")
    wait_idle(qtbot, win)
    old = app.history.store.search()[1]
    win.reopen(old)
    wait_idle(qtbot, win)
    assert [e.source for e in app.history.store.search()] == ["Old text.", "Newer text."]
    assert app.history.store.search()[0].id == old.id


def test_favourites_survive_clear_and_pruning_delete_and_export(ui_dirs, monkeypatch, tmp_path):
    import csv

    import fanyi.ui.history as history_module

    history = History()
    ids = [history.save(f"Text {n}.", f"文本{n}。", "p") for n in range(4)]
    history.set_starred([ids[0]], True)
    assert [e.id for e in history.search(starred_only=True)] == [ids[0]]
    monkeypatch.setattr(history_module, "MAX_ROWS", 2)
    history.save("Text 4.", "文本4。", "p")  # drops the oldest rows, but not the starred one
    assert sorted(e.source for e in history.search()) == ["Text 0.", "Text 3.", "Text 4."]
    history.delete([ids[3]])
    assert sorted(e.source for e in history.search()) == ["Text 0.", "Text 4."]
    out = tmp_path / "out.csv"
    export_csv(history.search(limit=None), out)
    assert out.read_bytes().startswith(b"\xef\xbb\xbf")  # a BOM, so that Excel reads UTF-8
    rows = list(csv.reader(out.read_text(encoding="utf-8-sig").splitlines()))
    assert rows[0] == ["time", "model", "source", "translation", "starred", "dictionary"]
    assert [r[2:] for r in rows[1:]] == [["Text 4.", "文本4。", "", ""], ["Text 0.", "文本0。", "yes", ""]]
    history.clear()
    assert [(e.source, e.starred) for e in history.search()] == [("Text 0.", True)]


def test_the_dialog_stars_deletes_and_filters(qtbot, ui_dirs, monkeypatch):
    history = History()
    for n in range(3):
        history.save(f"Entry {n}.", f"条目{n}。", "p")
    dialog = HistoryDialog(history, True)
    qtbot.addWidget(dialog)
    assert not dialog.star_button.isEnabled() and not dialog.delete_button.isEnabled()
    dialog.list.item(0).setSelected(True)
    assert dialog.star_button.text() == "Add to favourites"
    dialog.toggle_star()
    assert dialog.list.item(0).text().startswith("★ ") and dialog.list.item(0).isSelected()
    assert dialog.star_button.text() == "Remove from favourites"
    dialog.starred_only.setChecked(True)
    assert [e.source for e in dialog._entries] == ["Entry 2."]
    dialog.starred_only.setChecked(False)
    dialog.list.item(1).setSelected(True)
    dialog.list.item(2).setSelected(True)
    dialog.list.item(0).setSelected(False)
    dialog.delete_selected()
    assert [e.source for e in history.search()] == ["Entry 2."]
    monkeypatch.setattr(QMessageBox, "question", lambda *a: QMessageBox.StandardButton.Yes)
    dialog.clear()
    assert dialog.list.count() == 1  # the favourite stays


def test_a_history_file_from_before_favourites_keeps_its_entries(ui_dirs):
    path = history_path()
    path.parent.mkdir(parents=True)
    db = sqlite3.connect(path)
    db.execute(
        "CREATE TABLE history (id INTEGER PRIMARY KEY AUTOINCREMENT, created REAL NOT NULL, "
        "pack TEXT NOT NULL, source TEXT NOT NULL, target TEXT NOT NULL)"
    )
    db.execute("INSERT INTO history (created, pack, source, target) VALUES (1, 'p', 'Old.', '旧。')")
    db.commit()
    db.close()
    history = History(on_moved_aside=lambda kept: pytest.fail(f"moved aside: {kept}"))
    assert [(e.source, e.starred, e.found) for e in history.search()] == [("Old.", False, None)]
    history.set_starred([history.search()[0].id], True)
    assert history.search(starred_only=True)[0].source == "Old."


def test_a_word_keeps_its_dictionary_entry_in_the_list_and_the_export(qtbot, ui_dirs, tmp_path):
    import csv

    from dictionary_data import write_csv

    from fanyi.dictionary import Dictionary
    from fanyi.dictionary.build import convert

    found = Dictionary.open(convert(write_csv(tmp_path / "e.csv"), tmp_path / "e.sqlite").path).lookup("mice")
    history = History()
    history.record("mice", "老鼠们", "p", found=found)
    history.record("Good morning.", "早上好。", "p")
    kept = {e.source: e for e in history.search()}
    assert kept["mice"].found == found and kept["Good morning."].found is None
    dialog = HistoryDialog(history, True)
    qtbot.addWidget(dialog)
    shown = dialog.list.item(1).text()
    assert "mouse /maus/ n. 老鼠；鼠标；胆小的人" in shown and "mouse" in dialog.list.item(1).toolTip()
    out = tmp_path / "out.csv"
    export_csv(history.search(limit=None), out)
    rows = list(csv.reader(out.read_text(encoding="utf-8-sig").splitlines()))
    assert rows[2][2] == "mice" and rows[2][5] == "mouse /maus/ n. 老鼠；鼠标；胆小的人 · v. 探出；窥探"
    # a row edited by hand into something else is read as no entry, not as an error
    with sqlite3.connect(history.path) as db:
        db.execute("UPDATE history SET dictionary = '{\"match\": 1' WHERE source = 'mice'")
    assert {e.source: e.found for e in history.search()}["mice"] is None


def test_each_entry_is_two_lines_cut_to_the_lists_width(qtbot, ui_dirs):
    """A line a little wider than the list wrapped, leaving an orphan ("Se…") on a third line."""
    history = History()
    long = "Offline translation keeps your documents on your own computer, and nothing you type is ever sent " * 3
    history.record(long, "离线翻译让你的文档留在自己的电脑上。" * 8, "tiny-en-zh")
    dialog = HistoryDialog(history, True)
    qtbot.addWidget(dialog)
    dialog.resize(680, 500)
    dialog.show()
    qtbot.waitExposed(dialog)
    item = dialog.list.item(0)
    lines = item.text().split("\n")
    metrics = dialog.list.fontMetrics()
    assert len(lines) == 2 and all(line.endswith("…") for line in lines)
    assert all(metrics.horizontalAdvance(line) < dialog.list.viewport().width() for line in lines)
    assert (
        dialog.list.visualItemRect(item).height()
        < metrics.boundingRect(0, 0, 99999, 99999, 0, item.text()).height() + metrics.lineSpacing()
    )
    dialog.resize(900, 500)  # wider: more of each text
    qtbot.waitUntil(lambda: len(dialog.list.item(0).text()) > len("\n".join(lines)))
    history.close()


def test_an_entry_with_a_line_of_chinese_keeps_both_lines(qtbot, ui_dirs):
    """Chinese is drawn in a taller fallback font: an entry whose first line was Chinese lost its translation
    line, the first ending in a stray "…" (the view cut what did not fit its height). Seen under xcb with a CJK
    font installed (Noto CJK); the offscreen platform's metrics did not show it."""
    from PySide6.QtGui import QColor

    history = History()
    history.record("今天天气很好。" * 3, "The weather is fine today. " * 5, "tiny-zh-en")
    history.record("Hello there.", "你好。", "tiny-en-zh")
    dialog = HistoryDialog(history, True)
    qtbot.addWidget(dialog)
    dialog.resize(680, 500)
    dialog.show()
    qtbot.waitExposed(dialog)
    for row in range(dialog.list.count()):
        image = dialog.list.viewport().grab(dialog.list.visualItemRect(dialog.list.item(row))).toImage()
        inked = [
            any(QColor(image.pixel(x, y)).lightness() < 100 for x in range(image.width()))
            for y in range(image.height())
        ]
        lines_drawn = sum(1 for y in range(len(inked)) if inked[y] and (y == 0 or not inked[y - 1]))
        assert lines_drawn == 2, dialog.list.item(row).text()
    history.close()
