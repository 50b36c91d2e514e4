"""TranslatorGate: one holder at a time, in turn, urgent callers first, bounded waiting, cancel while waiting."""

from __future__ import annotations

import threading
import time

import pytest

from fanyi.cancel import Cancelled, CancelToken
from fanyi.engine.gate import Busy, TimedOut, TranslatorGate

DEADLINE = 30.0  # seconds a condition may take on a busy machine before the test fails


def wait_until(condition, what: str) -> None:
    end = time.monotonic() + DEADLINE
    while not condition():
        if time.monotonic() > end:
            raise AssertionError(f"timed out waiting for {what}")
        time.sleep(0.005)


class Holder:
    """Holds the gate in a thread until released."""

    def __init__(self, gate: TranslatorGate) -> None:
        self.inside = threading.Event()
        self.release = threading.Event()
        self.thread = threading.Thread(target=self._run, args=(gate,))
        self.thread.start()
        assert self.inside.wait(DEADLINE)

    def _run(self, gate: TranslatorGate) -> None:
        with gate.use():
            self.inside.set()
            self.release.wait(DEADLINE)

    def done(self) -> None:
        self.release.set()
        self.thread.join(DEADLINE)


def queue_up(gate: TranslatorGate, order: list, name: str, **kwargs) -> threading.Thread:
    def run() -> None:
        try:
            with gate.use(**kwargs) as translator:
                order.append((name, translator))
        except (Busy, Cancelled) as exc:
            order.append((name, type(exc).__name__))

    before = gate.waiting
    thread = threading.Thread(target=run)
    thread.start()
    wait_until(lambda: gate.waiting > before or any(n == name for n, _ in order), f"{name} to queue")
    return thread


def test_callers_are_served_in_turn_and_urgent_ones_first():
    gate = TranslatorGate("model")
    holder = Holder(gate)
    order: list = []
    threads = [
        queue_up(gate, order, "api-1"),
        queue_up(gate, order, "api-2"),
        queue_up(gate, order, "window", urgent=True),
    ]
    assert gate.waiting == 3 and order == []  # nobody gets in while the holder is inside
    holder.done()
    for thread in threads:
        thread.join(DEADLINE)
    assert order == [("window", "model"), ("api-1", "model"), ("api-2", "model")]


def test_a_bounded_caller_is_refused_when_too_many_wait():
    gate = TranslatorGate("model")
    holder = Holder(gate)
    order: list = []
    first = queue_up(gate, order, "first", max_waiting=1)
    with pytest.raises(Busy), gate.use(max_waiting=1):
        pass
    holder.done()
    first.join(DEADLINE)
    assert order == [("first", "model")]
    with gate.use(max_waiting=0) as translator:  # nobody running, nobody waiting: in at once
        assert translator == "model"


def test_cancel_while_waiting_leaves_the_queue():
    gate = TranslatorGate("model")
    holder = Holder(gate)
    order: list = []
    token = CancelToken()
    waiter = queue_up(gate, order, "waiter", cancel=token)
    after = queue_up(gate, order, "after")
    token.cancel()
    waiter.join(DEADLINE)
    assert order == [("waiter", "Cancelled")] and gate.waiting == 1
    holder.done()
    after.join(DEADLINE)
    assert order[-1] == ("after", "model") and gate.waiting == 0


def test_replace_waits_for_the_running_translation_then_goes_first():
    gate = TranslatorGate("old")
    holder = Holder(gate)
    order: list = []
    api = queue_up(gate, order, "api")
    replaced = threading.Thread(target=gate.replace, args=("new",))
    replaced.start()
    wait_until(lambda: gate.waiting == 2, "replace to queue")
    assert gate.translator == "old"
    holder.done()
    replaced.join(DEADLINE)
    api.join(DEADLINE)
    assert order == [("api", "new")]  # the model was swapped before the waiting request ran


def test_an_error_inside_releases_the_gate():
    gate = TranslatorGate("model")
    with pytest.raises(RuntimeError), gate.use():
        raise RuntimeError("the decoder exploded")
    with gate.use(max_waiting=0) as translator:
        assert translator == "model"


def test_a_caller_gives_up_after_its_timeout():
    gate = TranslatorGate("model")
    holder = Holder(gate)
    order: list = []
    waiter = queue_up(gate, order, "waiter", timeout=0.2)
    waiter.join(DEADLINE)
    assert order == [("waiter", "TimedOut")] and gate.waiting == 0
    with pytest.raises(TimedOut), gate.use(timeout=0):
        pass
    holder.done()
    with gate.use(timeout=0) as translator:  # free: in at once, whatever the timeout
        assert translator == "model"


def test_passing_the_turn_lets_the_waiting_callers_go_first():
    gate = TranslatorGate("model")
    order: list = []
    inside, resume = threading.Event(), threading.Event()

    def long_one() -> None:
        with gate.use():
            order.append("long: first half")
            inside.set()
            resume.wait(DEADLINE)
            assert gate.pass_turn()
            order.append("long: second half")
            assert not gate.pass_turn()  # nobody waits now: it keeps the turn

    thread = threading.Thread(target=long_one)
    thread.start()
    assert inside.wait(DEADLINE)
    short = [queue_up(gate, order, f"short-{n}") for n in range(2)]
    resume.set()
    for waiter in [thread, *short]:
        waiter.join(DEADLINE)
    assert order == ["long: first half", ("short-0", "model"), ("short-1", "model"), "long: second half"]
    assert gate.waiting == 0


def test_cancelled_while_waiting_for_the_turn_back_leaves_the_gate_free():
    gate = TranslatorGate("model")
    token = CancelToken()
    outcome: list = []
    inside, pass_now = threading.Event(), threading.Event()
    other_inside, other_release = threading.Event(), threading.Event()

    def long_one() -> None:
        try:
            with gate.use(token):
                inside.set()
                pass_now.wait(DEADLINE)
                gate.pass_turn(token)
                outcome.append("got the turn back")
        except Cancelled:
            outcome.append("cancelled")

    def other() -> None:
        with gate.use():
            other_inside.set()
            other_release.wait(DEADLINE)

    first = threading.Thread(target=long_one)
    first.start()
    assert inside.wait(DEADLINE)
    second = threading.Thread(target=other)
    second.start()
    wait_until(lambda: gate.waiting == 1, "the other caller to queue")
    pass_now.set()
    assert other_inside.wait(DEADLINE)  # the long one passed its turn and waits to get it back
    wait_until(lambda: gate.waiting == 1, "the long one to queue again")
    token.cancel()
    first.join(DEADLINE)
    assert outcome == ["cancelled"] and gate.waiting == 0
    other_release.set()
    second.join(DEADLINE)
    with gate.use(max_waiting=0) as translator:  # free: the cancelled caller did not release it twice
        assert translator == "model"
