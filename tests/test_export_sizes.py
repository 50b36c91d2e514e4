"""A config.json that states absurd or wrong sizes is refused in one line before any work: against the bounds of
fanyi.limits, and against the checkpoint's own tensor shapes (which transformers would refuse to load as well),
before a position or rotary table is computed or a weight read. Before, d_model 10⁹ made `fanyi export` and
`fanyi models get` compute position tables for minutes with memory growing."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from fanyi import limits
from fanyi.export import hf_weights, tables
from fanyi.export.convert import export_pack
from fanyi.export.errors import ExportError


@pytest.fixture()
def no_tables(monkeypatch):
    """No table may be computed: the sizes are refused first."""

    def refused(*args, **kwargs):
        raise AssertionError("a table was computed before the configuration's sizes were checked")

    for name in ("marian_positions", "fairseq_positions", "rotary_table"):
        monkeypatch.setattr(tables, name, refused)
    monkeypatch.setattr(hf_weights.Checkpoint, "array", refused)
    monkeypatch.setattr(hf_weights.Checkpoint, "rows", refused)


def with_config(folder, tmp_path, **changes):
    copy = shutil.copytree(folder, tmp_path / "model")
    config = json.loads((copy / "config.json").read_text(encoding="utf-8"))
    text = config.get("text_config") if isinstance(config.get("text_config"), dict) else config
    text.update(changes)
    (copy / "config.json").write_text(json.dumps(config), encoding="utf-8")
    return copy


MARIAN = [
    ({"d_model": 10**9}, f"d_model 1000000000 is more than Fanyi converts (at most {limits.MAX_MODEL_WIDTH})"),
    ({"encoder_layers": 10**6}, f"encoder_layers 1000000 is more than Fanyi converts (at most {limits.MAX_LAYERS})"),
    ({"max_position_embeddings": 10**7}, "max_position_embeddings 10000000 is more than Fanyi converts"),
    ({"vocab_size": 10**8}, "vocab_size 100000000 is more than Fanyi converts"),
    ({"decoder_attention_heads": 10**4}, "decoder_attention_heads 10000 is more than Fanyi converts"),
    ({"d_model": 0}, "d_model 0 is not a positive whole number"),
    ({"d_model": "32"}, "d_model '32' is not a positive whole number"),
    ({"encoder_layers": 2.5}, "encoder_layers 2.5 is not a positive whole number"),
    ({"d_model": 64}, "config.json says d_model 64, but the checkpoint's model.shared.weight is [1940, 32]"),
    ({"encoder_layers": 3}, "config.json says 3 encoder_layers, but the checkpoint has 2"),
    ({"decoder_ffn_dim": 128}, "config.json says decoder_ffn_dim 128, but the checkpoint's"),
]


@pytest.mark.parametrize("changes, said", MARIAN, ids=[str(c) for c, _ in MARIAN])
def test_marian_sizes_are_checked_before_any_work(tiny_hf_en_zh, tmp_path, no_tables, changes, said):
    folder = with_config(tiny_hf_en_zh, tmp_path, **changes)
    with pytest.raises(ExportError) as refused:
        export_pack(folder, tmp_path / "pack")
    assert said in str(refused.value) and "\n" not in str(refused.value), str(refused.value)
    assert not (tmp_path / "pack").exists()


LLM = [
    ({"num_hidden_layers": 10**6}, "num_hidden_layers 1000000 is more than Fanyi converts"),
    ({"hidden_size": 10**9}, "hidden_size 1000000000 is more than Fanyi converts"),
    ({"num_hidden_layers": 3}, "config.json says 3 num_hidden_layers, but the checkpoint has 2"),
    ({"hidden_size": 128}, "config.json says hidden_size 128, but the checkpoint's model.embed_tokens.weight is"),
    ({"intermediate_size": 16}, "config.json says intermediate_size 16, but the checkpoint's"),
    ({"num_key_value_heads": 4}, "but the checkpoint's model.layers.0.self_attn.k_proj.weight is"),
]


@pytest.mark.parametrize("changes, said", LLM, ids=[str(c) for c, _ in LLM])
def test_llm_sizes_are_checked_before_any_work(tiny_hf_llm, tmp_path, no_tables, changes, said):
    folder = with_config(tiny_hf_llm("qwen3"), tmp_path, **changes)
    with pytest.raises(ExportError) as refused:
        export_pack(folder, tmp_path / "pack")
    assert said in str(refused.value) and "\n" not in str(refused.value), str(refused.value)


def test_models_get_refuses_absurd_sizes_in_one_line_before_the_weights(tiny_hf_en_zh, tmp_path):
    """`fanyi models get` reads config.json before the weights are downloaded: an absurd size costs no download."""
    from fanyi.library.sources.localhub import LocalHub

    folder = with_config(tiny_hf_en_zh, tmp_path, d_model=10**9, encoder_layers=10**6)
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("http_proxy", "https_proxy", "all_proxy")}
    env.update(FANYI_DATA_DIR=str(tmp_path / "data"), FANYI_CONFIG_DIR=str(tmp_path / "config"), HF_HUB_OFFLINE="")
    with LocalHub() as hub:
        hub.add("Helsinki-NLP/opus-mt-en-zh", folder)
        env.update(HF_ENDPOINT=hub.endpoint, NO_PROXY="127.0.0.1", FANYI_MODELS_DIR=str(tmp_path / "none"))
        done = subprocess.run(
            [sys.executable, "-m", "fanyi", "models", "get", "Helsinki-NLP/opus-mt-en-zh"],
            env=env,
            capture_output=True,
            text=True,
            timeout=600,
        )
        fetched = [path for _method, path, _headers in hub.requests]
    errors = [line for line in done.stderr.splitlines() if line.startswith("fanyi:")]
    assert done.returncode == 2 and len(errors) == 1 and "is more than Fanyi converts" in errors[0], done.stderr
    assert not any(path.endswith("model.safetensors") for path in fetched), fetched
