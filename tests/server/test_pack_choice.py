"""Which model answers: the app's own (shared) model when it fits, other packs opened once, never the wrong one."""

from __future__ import annotations

import threading
import time

import pytest
from api_helpers import ExplodingTranslator, pack_info

from fanyi.cancel import CancelToken
from fanyi.engine.gate import TranslatorGate
from fanyi.server.core import ApiError, ApiRequest, Core
from fanyi.server.models import Models


@pytest.fixture
def packs(tiny_pack, tiny_pack_zh_en):
    return pack_info(tiny_pack), pack_info(tiny_pack_zh_en)


def test_the_shared_model_answers_its_direction_and_others_open_once(packs):
    en_zh, zh_en = packs
    opened = []
    shared = TranslatorGate(ExplodingTranslator(en_zh.path))
    models = Models(lambda: [en_zh, zh_en], lambda path: opened.append(path) or ExplodingTranslator(path), shared)
    core = Core(models)
    assert core.route("en", "zh", "").direction.pack == en_zh and models.in_memory() == [en_zh.path]
    with pytest.raises(ApiError, match="no installed model translates ja into zh"):
        core.route("ja", "zh", "")
    assert models.gate(en_zh) is shared and opened == []
    own = models.gate(zh_en)
    assert models.gate(zh_en) is own and opened == [zh_en.path] and models.in_memory() == [en_zh.path, zh_en.path]
    # the window switches to zh→en: its model answers from now on, and the copy opened here is let go
    shared.replace(ExplodingTranslator(zh_en.path))
    assert models.gate(zh_en) is shared
    models.gate(en_zh)
    assert opened == [zh_en.path, en_zh.path]


def test_a_request_waiting_while_the_window_switches_models_is_not_translated_by_the_wrong_one(packs):
    en_zh, zh_en = packs
    shared = TranslatorGate(ExplodingTranslator(en_zh.path))
    core = Core(Models(lambda: [en_zh, zh_en], ExplodingTranslator, shared))
    inside, release = threading.Event(), threading.Event()

    def hold() -> None:
        with shared.use():
            inside.set()
            release.wait(30)

    holder = threading.Thread(target=hold)
    holder.start()
    assert inside.wait(30)
    outcome: list = []
    request = threading.Thread(target=lambda: outcome.append(_try(core, ApiRequest(["Hello."], "en", "zh"))))
    request.start()
    deadline = time.monotonic() + 30
    while shared.waiting < 1 and time.monotonic() < deadline:
        time.sleep(0.005)
    switch = threading.Thread(target=shared.replace, args=(ExplodingTranslator(zh_en.path),))
    switch.start()  # the window's switch goes ahead of the waiting request
    while shared.waiting < 2 and time.monotonic() < deadline:
        time.sleep(0.005)
    release.set()
    for thread in (holder, switch, request):
        thread.join(30)
    assert outcome == [(503, "the model is being loaded; try again in a moment")]


def _try(core: Core, job: ApiRequest):
    try:
        return core.translate(job, CancelToken())
    except ApiError as exc:
        return exc.status, exc.message
