"""An export says how far it is (layers converted) and stops at a cancel, leaving nothing behind."""

import pytest

from fanyi.cancel import Cancelled, CancelToken
from fanyi.export.convert import export_pack


def test_every_layer_is_counted_once_in_order(tiny_hf_en_zh, tmp_path):
    seen = []
    export_pack(tiny_hf_en_zh, tmp_path / "pack", steps=lambda done, total: seen.append((done, total)))
    total = seen[0][1]
    assert total == 4  # the tiny model's 2 encoder and 2 decoder layers
    assert seen == [(i, total) for i in range(1, total + 1)]


@pytest.mark.parametrize("kind", ["qwen3"])
def test_an_llm_counts_its_decoder_layers(tiny_hf_llm, tmp_path, kind):
    seen = []
    export_pack(tiny_hf_llm(kind), tmp_path / "pack", quantize="int4", steps=lambda d, t: seen.append((d, t)))
    assert seen and seen[-1][0] == seen[-1][1] == len(seen)


def test_a_cancel_between_layers_stops_the_export_and_leaves_no_folder(tiny_hf_en_zh, tmp_path):
    token = CancelToken()

    def cancel_after_first(done, total):
        if done == 1:
            token.cancel()

    with pytest.raises(Cancelled):
        export_pack(tiny_hf_en_zh, tmp_path / "pack", steps=cancel_after_first, cancel=token)
    assert list(tmp_path.iterdir()) == []
