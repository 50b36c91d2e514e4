"""The main window's and the popup's shared stream handling (fanyi.ui.request_stream), with a stand-in service:
only the latest request of its channel reaches the view, and each ending is handed over once."""

from __future__ import annotations

import ast
from pathlib import Path

from PySide6.QtCore import QObject, Signal

from fanyi.engine import LOOP, DecodeOptions, Failure
from fanyi.ui.panes import LostTermsNote, TargetView, UntranslatedBadge
from fanyi.ui.request_stream import RequestStream

UI = Path(__file__).resolve().parents[2] / "app" / "fanyi" / "ui"


class Service(QObject):
    """TranslationService's signals, and its request and cancel, without a worker thread."""

    delta = Signal(int, str)
    rewound = Signal(int, int)
    untranslated = Signal(int, object)
    terms_lost = Signal(int, object)
    finished = Signal(int, str, object)
    failed = Signal(int, str)
    cancelled = Signal(int)

    def __init__(self) -> None:
        super().__init__()
        self.asked: list[tuple[str, str]] = []
        self.cancelled_channels: list[str] = []

    def request(self, text, options=None, channel="main", pack=None, rewrite=None) -> int:
        self.asked.append((text, channel))
        return len(self.asked)

    def cancel(self, channel="main") -> None:
        self.cancelled_channels.append(channel)


def make(qtbot):
    service, view, badge, lost = Service(), TargetView(), UntranslatedBadge(), LostTermsNote()
    for widget in (view, badge, lost):
        qtbot.addWidget(widget)
    endings: list[tuple] = []
    stream = RequestStream(
        service,
        "popup",
        view,
        badge,
        lost,
        finished=lambda text, stats: endings.append(("finished", text)),
        failed=lambda message: endings.append(("failed", message)),
        cancelled=lambda: endings.append(("cancelled",)),
    )
    return service, view, badge, lost, stream, endings


def test_only_the_latest_request_of_the_channel_is_shown_and_ended(qtbot):
    service, view, badge, lost, stream, endings = make(qtbot)
    stream.request("Old.", DecodeOptions())
    stream.request("New.", DecodeOptions())
    assert service.asked == [("Old.", "popup"), ("New.", "popup")] and stream.req_id == 2
    view.begin()
    service.delta.emit(1, "旧的")  # the replaced request, still streaming
    service.delta.emit(2, "新的新的")
    service.rewound.emit(2, 2)
    service.untranslated.emit(1, (Failure("Old.", LOOP),))
    service.terms_lost.emit(1, ("old term",))
    assert view.text() == "新的" and badge.isHidden() and lost.isHidden()
    service.finished.emit(1, "旧的。", {})
    assert endings == [] and stream.req_id == 2
    service.untranslated.emit(2, (Failure("New.", LOOP),))
    service.terms_lost.emit(2, ("new term",))
    service.finished.emit(2, "新的。", {})
    service.finished.emit(2, "新的。", {})  # once only
    assert endings == [("finished", "新的。")] and stream.req_id is None and not badge.isHidden()
    assert not lost.isHidden() and "“new term”" in lost.text() and "old term" not in lost.text()
    stream.clear_notes()  # a new request, or a summary in its place
    assert badge.isHidden() and lost.isHidden()


def test_a_failure_or_a_cancellation_ends_the_request_and_a_cancel_stops_following_it(qtbot):
    service, _view, _badge, _lost, stream, endings = make(qtbot)
    stream.request("One.", DecodeOptions())
    service.failed.emit(1, "the model could not be run")
    stream.request("Two.", DecodeOptions())
    service.cancelled.emit(2)
    stream.request("Three.", DecodeOptions())
    stream.cancel()
    service.finished.emit(3, "三。", {})
    assert endings == [("failed", "the model could not be run"), ("cancelled",)]
    assert service.cancelled_channels == ["popup"] and stream.req_id is None


def test_no_window_wires_its_handlers_by_name():
    """The windows' handlers were connected through getattr(self, f"_on_{name}"): a renamed signal or handler
    failed only at run time."""
    by_name = [
        f"{path.name}:{node.lineno}"
        for path in sorted(UI.rglob("*.py"))
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and any(isinstance(arg, ast.JoinedStr) for arg in node.args)
    ]
    assert not by_name, by_name
