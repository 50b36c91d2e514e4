"""Documents: dropping files queues jobs that run in a thread, with progress, cancel and Open."""

from __future__ import annotations

import os
import stat
import time
import warnings
from pathlib import Path

from PySide6.QtCore import QMimeData, QPoint, QPointF, Qt, QUrl
from PySide6.QtGui import QDragEnterEvent, QDropEvent
from PySide6.QtWidgets import QApplication
from ui_fakes import LOAD_TIMEOUT, TRANSLATE_TIMEOUT

from fanyi.ui.jobs import CANCELLED, DONE, FAILED


def drop(widget, *paths: Path) -> None:
    """What a file manager's drag does: enter (the window must accept it), then drop."""
    mime = QMimeData()
    mime.setUrls([QUrl.fromLocalFile(str(p)) for p in paths])
    args = (Qt.DropAction.CopyAction, mime, Qt.MouseButton.LeftButton, Qt.KeyboardModifier.NoModifier)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # 6.12 marks the only constructor deprecated
        enter = QDragEnterEvent(QPoint(10, 10), *args)
    QApplication.sendEvent(widget, enter)
    assert enter.isAccepted()
    QApplication.sendEvent(widget, QDropEvent(QPointF(10, 10), *args))


def test_a_dropped_file_becomes_a_job_that_finishes(qtbot, make_app, fake_backend, tmp_path):
    src = tmp_path / "notes.txt"
    src.write_text("The first paragraph.\n\nThe second paragraph.\n", encoding="utf-8")
    app = make_app(fake_backend)
    win = app.window
    win.show()
    # with the model loaded the app asks for the chosen variant (简体, the pack's default): the name
    # must still be docs/documents.md's `name.zh.ext`, as `fanyi file` writes it
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    drop(win, src)
    assert len(app.documents.jobs.jobs) == 1 and win.jobs_panel.isVisible()
    job = next(iter(app.documents.jobs.jobs.values()))
    row = win.jobs_panel.rows[job.id]
    qtbot.waitUntil(lambda: job.state == DONE, timeout=TRANSLATE_TIMEOUT)
    assert job.output == tmp_path / "notes.zh.txt"
    assert job.output.read_text(encoding="utf-8") == "THEFIRSTPARAGRAPH。\n\nTHESECONDPARAGRAPH。\n"
    assert row.open_button.isVisible() and row.folder_button.isVisible() and not row.cancel_button.isVisible()
    assert "translated: 2 of 2" in job.summary
    umask = os.umask(0o022)
    os.umask(umask)
    assert stat.S_IMODE(job.output.stat().st_mode) == 0o666 & ~umask  # what any new file gets
    assert row.state.text() == "→ notes.zh.txt"  # from the source's name on the row to the output's
    # every part translated: the report does not open by itself; the row's Report button opens it
    assert row.report_dialog is None and row.report_button.isVisible()
    qtbot.mouseClick(row.report_button, Qt.MouseButton.LeftButton)
    report = row.report_dialog
    assert report is not None and report.isVisible()
    assert report.translated.text() == "2 of 2 parts" and report.failed.text() == "0"
    assert report.heading.text() == "notes.zh.txt is written." and not report.failures.isVisibleTo(report)
    qtbot.mouseClick(row.dismiss_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: not win.jobs_panel.isVisible())
    assert not report.isVisible()

    app.direction.set_variant("cmn_Hant")  # another variant is named by its code
    win.enqueue_document(src)
    job = list(app.documents.jobs.jobs.values())[-1]
    qtbot.waitUntil(lambda: job.state == DONE, timeout=TRANSLATE_TIMEOUT)
    assert job.output == tmp_path / "notes.cmn_Hant.txt"


def test_the_report_names_each_failed_part_and_why(qtbot, make_app, fake_backend, tmp_path):
    from ui_fakes import LOOPS

    src = tmp_path / "mixed.md"
    src.write_text(f"A good paragraph.\n\nThis one {LOOPS} forever.\n\n```\ncode()\n```\n\n42 + 7\n", encoding="utf-8")
    app = make_app(fake_backend)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    win.enqueue_document(src)
    job = next(iter(app.documents.jobs.jobs.values()))
    qtbot.waitUntil(lambda: job.state == DONE, timeout=TRANSLATE_TIMEOUT)
    report = win.jobs_panel.rows[job.id].report_dialog  # opened by itself: not all of it was translated
    assert report is not None and report.isVisible()
    assert report.translated.text() == "1 of 4 parts"
    assert report.kept.text() == "2 (code block: 1, numbers or symbols only: 1)"
    assert report.failed.text() == "1" and report.failures.isVisibleTo(report)
    item = report.failures.topLevelItem(0)
    assert (item.text(0), item.text(1)) == ("line 3", f"This one {LOOPS} forever.")
    assert "repeat" in item.text(2)
    assert "could not be translated" in report.heading.text()
    # the reason is a sentence: its column is as wide as it ("the model kept repeating itself, also …" was cut)
    assert report.failures.columnWidth(2) >= report.failures.sizeHintForColumn(2)
    assert report.failures.viewport().width() >= sum(report.failures.columnWidth(c) for c in range(3))


def test_a_running_job_can_be_cancelled_and_a_queued_one_too(qtbot, make_app, fake_backend, tmp_path):
    def slow_document(src, translator, *, progress=None, cancel=None, **kwargs):
        for done in range(1000):
            progress(done, 1000)
            cancel.raise_if_cancelled()
            time.sleep(0.01)
        raise AssertionError("not cancelled")

    app = make_app(fake_backend, run_document=slow_document)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    first, second = tmp_path / "a.txt", tmp_path / "b.txt"
    for path in (first, second):
        path.write_text("x")
    drop(win, first, second)
    jobs = list(app.documents.jobs.jobs.values())
    rows = [win.jobs_panel.rows[j.id] for j in jobs]
    qtbot.waitUntil(lambda: jobs[0].done > 3)
    assert rows[0].bar.isVisible() and rows[0].bar.maximum() == 1000
    qtbot.mouseClick(rows[1].cancel_button, Qt.MouseButton.LeftButton)  # still queued
    assert jobs[1].state == CANCELLED
    qtbot.mouseClick(rows[0].cancel_button, Qt.MouseButton.LeftButton)
    qtbot.waitUntil(lambda: jobs[0].state == CANCELLED, timeout=TRANSLATE_TIMEOUT)
    assert rows[0].state.text() == "Cancelled" and not rows[0].open_button.isVisible()


def test_a_failing_document_shows_its_message(qtbot, make_app, fake_backend, tmp_path):
    src = tmp_path / "picture.png"
    src.write_bytes(b"\x89PNG")
    app = make_app(fake_backend)
    win = app.window
    win.enqueue_document(src)
    job = next(iter(app.documents.jobs.jobs.values()))
    qtbot.waitUntil(lambda: job.state == FAILED, timeout=TRANSLATE_TIMEOUT)
    state = win.jobs_panel.rows[job.id].state
    assert state.text() == "Not a kind of document Fanyi translates"  # a headline in the UI language
    assert "is not a supported document" in state.toolTip()  # and the details


def test_without_a_model_no_job_is_queued(qtbot, make_app, ui_dirs, tmp_path):
    app = make_app()
    src = tmp_path / "a.txt"
    src.write_text("Hello.")
    drop(app.window, src)
    assert app.documents.jobs.jobs == {}
    offer = app.window.download_offer  # the download, offered where the file was dropped
    assert offer is not None and offer.isVisible() and offer.defaultButton().text().startswith("Download")


def test_without_a_model_documents_says_so_before_a_file_is_chosen(qtbot, make_app, ui_dirs, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    asked = []
    monkeypatch.setattr(QFileDialog, "getOpenFileNames", lambda *args: (asked.append(args), ([], ""))[1])
    app = make_app()
    app.window.open_documents()
    assert asked == [] and app.window.download_offer is not None and app.window.download_offer.isVisible()


def test_the_documents_dialog_opens_in_the_home_folder(qtbot, make_app, fake_backend, tmp_path, monkeypatch):
    from PySide6.QtCore import QDir
    from PySide6.QtWidgets import QFileDialog

    monkeypatch.chdir(tmp_path)  # the folder the app was started in
    asked = []
    picked = tmp_path / "deep" / "a.txt"
    picked.parent.mkdir()
    picked.write_text("Hello.")
    monkeypatch.setattr(
        QFileDialog,
        "getOpenFileNames",
        lambda parent, title, folder, filters: (asked.append(folder), ([str(picked)], ""))[1],
    )
    app = make_app(fake_backend)
    app.window.open_documents()
    app.window.open_documents()
    assert asked == [QDir.homePath(), str(picked.parent)]


def test_the_report_translates_what_the_documents_say():
    """Kept reasons and notes come from fanyi.documents in English; the report knows each of them."""
    from fanyi.documents.base import OTHER_REASONS
    from fanyi.documents.pdf import layout, rewrite, todocx
    from fanyi.documents.policy import keep_reason
    from fanyi.ui.report_dialog import _KNOWN

    said = {
        todocx.LAYOUT_NOTE,
        rewrite.NOT_REMOVABLE,
        *(layout.FORMULA, layout.CODE, layout.IN_FIGURE, layout.MARKER, layout.ROTATED, layout.VERTICAL),
        *(layout.REFERENCE, layout.UNREADABLE),
        OTHER_REASONS,
        "code block",
        keep_reason("42 + 7", "zh"),
        keep_reason("https://example.org/a_b", "zh"),
        keep_reason("这已经是中文了。", "zh"),
        keep_reason("これは日本語です", "ja"),
        keep_reason("Bonjour tout le monde", "fr"),
    }
    assert None not in said and said <= set(_KNOWN)


def test_the_report_says_how_many_control_characters_were_left_out(qtbot, tmp_path):
    from fanyi.documents.base import JobReport
    from fanyi.ui import i18n
    from fanyi.ui.report_dialog import ReportDialog

    dialog = ReportDialog(JobReport(tmp_path / "a.docx", tmp_path / "a.zh.docx", translated=3, removed_characters=17))
    qtbot.addWidget(dialog)
    dialog.show()
    assert dialog.notes.isVisible()
    assert dialog.notes.text() == (
        "Note: 17 control characters that the model wrote and no document may hold were left out"
    )
    i18n.install("zh_CN")
    qtbot.waitUntil(lambda: dialog.notes.text() == "注意：模型输出的 17 个控制字符不能写入文档，已删去")


def test_a_chinese_document_with_taiwans_traditional_chosen_is_written_by_opencc(
    qtbot, make_app, fake_backend, tmp_path
):
    from fanyi.ui.settings import Settings

    src = tmp_path / "notes.txt"
    src.write_text("请观看关于软件更新的视频。\n\n打印机的缓存满了。\n", encoding="utf-8")
    app = make_app(fake_backend, settings=Settings(target_variant="zh-TW"))
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    drop(win, src)
    job = next(iter(app.documents.jobs.jobs.values()))
    qtbot.waitUntil(lambda: job.state == DONE, timeout=TRANSLATE_TIMEOUT)
    assert job.output == tmp_path / "notes.zh-TW.txt"
    assert job.output.read_text(encoding="utf-8") == "請觀看關於軟體更新的影片。\n\n印表機的快取滿了。\n"
    assert "translated: 2 of 2" in job.summary


def test_an_english_paragraph_of_a_chinese_document_is_translated_not_left_english(
    qtbot, make_app, fake_backend, tmp_path
):
    from fanyi.ui.settings import Settings

    src = tmp_path / "notes.txt"
    src.write_text("请观看关于软件更新的视频。\n\nGood morning.\n\n打印机的缓存满了。\n", encoding="utf-8")
    app = make_app(fake_backend, settings=Settings(target_variant="zh-TW"))
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    drop(win, src)
    job = next(iter(app.documents.jobs.jobs.values()))
    qtbot.waitUntil(lambda: job.state == DONE, timeout=TRANSLATE_TIMEOUT)
    written = job.output.read_text(encoding="utf-8")
    assert written == "請觀看關於軟體更新的影片。\n\n台GOOD台MORNING。\n\n印表機的快取滿了。\n"
    assert "translated: 3 of 3" in job.summary


def test_open_and_show_in_folder_say_where_the_output_is_when_the_desktop_cannot_open_it(
    qtbot, make_app, fake_backend, tmp_path
):
    """Without a launcher (Qt only writes a line on the terminal) the buttons did nothing."""
    from PySide6.QtCore import QObject, Slot
    from PySide6.QtGui import QDesktopServices

    src = tmp_path / "notes.txt"
    src.write_text("The first paragraph.\n", encoding="utf-8")
    app = make_app(fake_backend)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    drop(win, src)
    job = next(iter(app.documents.jobs.jobs.values()))
    row = win.jobs_panel.rows[job.id]
    qtbot.waitUntil(lambda: job.state == DONE, timeout=TRANSLATE_TIMEOUT)
    qtbot.mouseClick(row.folder_button, Qt.MouseButton.LeftButton)  # offscreen: no program opens anything
    box = row.cannot_open
    assert box is not None and box.isVisible()
    assert box.text() == "This desktop has no program set to open it. It is here:"
    assert box.informativeText() == str(tmp_path)
    qtbot.mouseClick(box.defaultButton(), Qt.MouseButton.LeftButton)
    assert QApplication.clipboard().text() == str(tmp_path) and not box.isVisible()

    class Launcher(QObject):  # a desktop that opens files
        def __init__(self) -> None:
            super().__init__()
            self.opened: list[str] = []

        @Slot(QUrl)
        def open(self, url: QUrl) -> None:
            self.opened.append(url.toLocalFile())

    launcher = Launcher()
    QDesktopServices.setUrlHandler("file", launcher, "open")
    try:
        qtbot.mouseClick(row.open_button, Qt.MouseButton.LeftButton)
    finally:
        QDesktopServices.unsetUrlHandler("file")
    assert launcher.opened == [str(job.output)] and row.cannot_open is None


def _report_of(src: Path, *, kept: int = 0, failed: int = 0):
    from fanyi.documents.base import JobReport, Unit

    report = JobReport(src, src.with_suffix(".zh.txt"), translated=3)
    for i in range(kept):
        report.keep(Unit(f"<pre> block {i}", f"line {i + 1}"), "code block")
    for i in range(failed):
        report.fail(Unit(f"paragraph {i}", f"line {i + 10}"), "the model kept repeating itself")
    return report


def test_twenty_documents_scroll_in_a_list_of_bounded_height_and_clear_finished_removes_them(
    qtbot, make_app, fake_backend, tmp_path
):
    """After 15 documents the rows pushed the text panes down to ~60 px and the window grew."""
    from fanyi.documents.job import JobResult

    def quick(src, translator, **kwargs):
        out = src.with_suffix(".zh.txt")
        out.write_text("done", encoding="utf-8")
        return JobResult(out, _report_of(src))

    app = make_app(fake_backend, run_document=quick)
    win = app.window
    win.resize(900, 640)
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    panes = win.splitter.height()
    paths = []
    for i in range(20):
        paths.append(tmp_path / f"doc{i:02}.txt")
        paths[-1].write_text("Hello.", encoding="utf-8")
    drop(win, *paths)
    jobs = list(app.documents.jobs.jobs.values())
    qtbot.waitUntil(lambda: all(j.state == DONE for j in jobs), timeout=TRANSLATE_TIMEOUT)
    QApplication.processEvents()
    panel = win.jobs_panel
    assert len(panel.rows) == 20
    assert win.size().height() == 640  # the window does not grow
    assert win.splitter.height() >= panes - 200  # the text panes keep most of their room
    assert panel.height() <= 220
    bar = panel.list_area.verticalScrollBar()
    assert bar.maximum() > 0  # the rows scroll
    # the newest document is at the top, in sight
    assert panel.list_area.viewport().rect().contains(panel.rows[jobs[-1].id].geometry().topLeft())
    assert "20" in panel.title.text()
    assert panel.clear_button.isVisible() and panel.clear_button.isEnabled()
    qtbot.mouseClick(panel.clear_button, Qt.MouseButton.LeftButton)
    assert app.documents.jobs.jobs == {} and panel.rows == {}
    qtbot.waitUntil(lambda: not panel.isVisible())


def test_clear_finished_leaves_running_and_queued_documents(qtbot, make_app, fake_backend, tmp_path):
    from fanyi.documents.job import JobResult

    def document(src, translator, *, progress=None, cancel=None, **kwargs):
        while src.name == "slow.txt":
            cancel.raise_if_cancelled()
            time.sleep(0.01)
        out = src.with_suffix(".zh.txt")
        out.write_text("done", encoding="utf-8")
        return JobResult(out, _report_of(src))

    app = make_app(fake_backend, run_document=document)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    done, slow, waiting = tmp_path / "done.txt", tmp_path / "slow.txt", tmp_path / "waiting.txt"
    for path in (done, slow, waiting):
        path.write_text("x")
    drop(win, done, slow, waiting)
    jobs = list(app.documents.jobs.jobs.values())
    qtbot.waitUntil(lambda: jobs[0].state == DONE and jobs[1].state == "running", timeout=TRANSLATE_TIMEOUT)
    qtbot.mouseClick(win.jobs_panel.clear_button, Qt.MouseButton.LeftButton)
    assert [j.source.name for j in app.documents.jobs.jobs.values()] == ["slow.txt", "waiting.txt"]
    assert not win.jobs_panel.clear_button.isEnabled()  # nothing finished is left
    win.jobs_panel.rows[jobs[1].id].cancel_button.click()
    qtbot.waitUntil(lambda: jobs[1].state == CANCELLED, timeout=TRANSLATE_TIMEOUT)


def test_a_report_opens_by_itself_only_when_something_was_lost_and_never_two_at_once(
    qtbot, make_app, fake_backend, tmp_path
):
    """A report opened by itself whenever anything was kept (even an HTML <pre>), and two stacked up."""
    from fanyi.documents.job import JobResult

    def document(src, translator, **kwargs):
        out = src.with_suffix(".zh.txt")
        out.write_text("done", encoding="utf-8")
        failed = 1 if src.name.startswith("lost") else 0
        return JobResult(out, _report_of(src, kept=2, failed=failed))

    app = make_app(fake_backend, run_document=document)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    kept = tmp_path / "kept.txt"
    kept.write_text("x")
    win.enqueue_document(kept)
    job = list(app.documents.jobs.jobs.values())[-1]
    qtbot.waitUntil(lambda: job.state == DONE, timeout=TRANSLATE_TIMEOUT)
    row = win.jobs_panel.rows[job.id]
    assert row.report_dialog is None and row.report_button.isVisible()  # on request only
    first, second = tmp_path / "lost1.txt", tmp_path / "lost2.txt"
    for path in (first, second):
        path.write_text("x")
    drop(win, first, second)
    jobs = list(app.documents.jobs.jobs.values())[-2:]
    qtbot.waitUntil(lambda: all(j.state == DONE for j in jobs), timeout=TRANSLATE_TIMEOUT)
    dialogs = [win.jobs_panel.rows[j.id].report_dialog for j in jobs]
    open_ = [d for d in dialogs if d is not None and d.isVisible()]
    assert len(open_) == 1  # the first loss opens its report; the second waits behind its row's button
    second_row = win.jobs_panel.rows[jobs[1].id]
    assert second_row.report_button.isVisible()
    assert second_row.state.text() == "→ lost2.zh.txt · parts not translated: 1"  # the loss shows on its row


def test_the_documents_menu_chooses_how_a_pdf_is_written_and_remembers_it(qtbot, make_app, fake_backend, tmp_path):
    from fanyi.documents import Written

    app = make_app(fake_backend)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    assert win.layout_actions["side"].isChecked() and win.pdf_actions["pdf"].isChecked()  # the defaults
    win.bilingual_action.setChecked(True)
    win.layout_actions["alternate"].trigger()
    win.pdf_actions["docx"].trigger()
    current = app.settings.current
    assert (current.bilingual_documents, current.bilingual_layout, current.pdf_output) == (True, "alternate", "docx")
    asked = []
    app.documents.jobs.enqueue = lambda *args, **kwargs: asked.append(args[4])
    for name in ("paper.pdf", "notes.txt"):
        (tmp_path / name).write_bytes(b"%PDF-1.4" if name.endswith(".pdf") else b"Hello.")
        win.enqueue_document(tmp_path / name)
    assert asked == [Written(True, "alternate", "docx"), Written(True, "alternate", None)]
    app.settings.update(bilingual_layout="side")  # a change from elsewhere (another window, the file) shows
    assert win.layout_actions["side"].isChecked() and not win.layout_actions["alternate"].isChecked()


def test_a_dropped_pdf_comes_back_as_a_pdf_beside_its_original(qtbot, make_app, fake_backend, tmp_path):
    import sys

    import pikepdf

    sys.path.insert(0, str(Path(__file__).parents[1] / "documents"))
    from docfixtures import make_pdf

    src = tmp_path / "paper.pdf"
    src.write_bytes(make_pdf([["A short page of text."]]))
    app = make_app(fake_backend)
    win = app.window
    win.show()
    qtbot.waitUntil(lambda: app.service.model is not None, timeout=LOAD_TIMEOUT)
    win.bilingual_action.setChecked(True)
    drop(win, src)
    job = next(iter(app.documents.jobs.jobs.values()))
    qtbot.waitUntil(lambda: job.state == DONE, timeout=TRANSLATE_TIMEOUT)
    assert job.output.suffix == ".pdf"
    with pikepdf.open(job.output) as pdf:
        assert [float(v) for v in pdf.pages[0].mediabox] == [0, 0, 2 * 612, 792]  # side by side, the default
