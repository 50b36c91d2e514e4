"""History: one row per draft, searchable, clearable, and off when switched off."""

from __future__ import annotations

import sqlite3

from test_main_window import wait_idle
from ui_fakes import LOAD_TIMEOUT

from fanyi.ui.history import History, history_path
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
    entries = app.history.search()
    assert [(e.source, e.target) for e in entries] == [("First part. Second part.", "FIRSTPART。SECONDPART。")]
    win.source.edit.clear()
    win.source.set_text("Something new.")
    wait_idle(qtbot, win)
    assert len(app.history.search()) == 2

    dialog = HistoryDialog(app.history, True)
    qtbot.addWidget(dialog)
    dialog.search.setText("second")
    dialog.refresh()
    assert dialog.list.count() == 1
    reopened = []
    dialog.reopen.connect(reopened.append)
    dialog._on_activated(dialog.list.item(0))
    assert reopened == ["First part. Second part."]


def test_history_off_saves_nothing(qtbot, make_app, fake_backend):
    from fanyi.ui.settings import Settings

    app = make_app(fake_backend, settings=Settings(history=False))
    win = app.window
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    win.source.set_text("Private text.")
    wait_idle(qtbot, win)
    assert win.target.view.text() == "PRIVATETEXT。"
    assert not history_path().exists()
