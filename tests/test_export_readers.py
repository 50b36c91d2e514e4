"""What the converter reads without transformers equals what transformers reads from the same folder: every tensor,
the tables a model computes, the tokenizer's facts, the generation settings and the configuration defaults."""

from __future__ import annotations

import json
import shutil
import struct

import numpy as np
import pytest

from fanyi.export import tables
from fanyi.export.checkpoint import Checkpoint
from fanyi.export.errors import ExportError
from fanyi.export.generation import DEFAULTS, model_settings, read_generation_config
from fanyi.export.hf_weights import detect_loader, rotary_tables
from fanyi.export.loaders import LOADERS, HfFolder
from fanyi.export.tokenizer_info import HfTokenizer

MANY = ("mbart50", "m2m100", "nllb")
LLMS = ("qwen3", "hunyuan", "gemma3", "translategemma", "gemma3-1b")
BARTS = ("bart-large-cnn", "distilbart-cnn-12-6")  # released without generation_config.json


@pytest.fixture(scope="module")
def folder_of(tiny_hf_en_zh, tiny_hf_many, tiny_hf_llm, tiny_hf_bart):
    def get(kind: str):
        if kind == "marian":
            return tiny_hf_en_zh
        if kind in BARTS:
            return tiny_hf_bart(kind)
        return tiny_hf_many(kind) if kind in MANY else tiny_hf_llm(kind)

    return get


def _transformers_model(folder):
    import transformers

    from fanyi.export.hf_weights import model_class

    family, hf = detect_loader(folder)
    return getattr(transformers, model_class(family, hf)).from_pretrained(folder).eval()


def ulps(a: np.ndarray, b: np.ndarray) -> int:
    """The largest distance between two float32 arrays in units in the last place."""
    ia, ib = (np.ascontiguousarray(x, np.float32).view(np.int32).astype(np.int64) for x in (a, b))
    ia = np.where(ia < 0, -(ia & 0x7FFFFFFF), ia)
    ib = np.where(ib < 0, -(ib & 0x7FFFFFFF), ib)
    return int(np.abs(ia - ib).max()) if ia.size else 0


# --- tensors -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("dtype", ["float32", "bfloat16", "float16"])
def test_every_tensor_is_read_as_transformers_loads_it_in_each_stored_type(folder_of, tmp_path, dtype):
    import torch

    model = _transformers_model(folder_of("qwen3")).to(getattr(torch, dtype))
    model.save_pretrained(tmp_path, max_shard_size="20KB")  # sharded, with an index
    assert (tmp_path / "model.safetensors.index.json").is_file()
    ours = Checkpoint.open(tmp_path)
    theirs = model.state_dict()
    assert set(ours.names) <= set(theirs)
    for name in ours.names:
        expected = theirs[name].float().numpy()
        assert np.array_equal(ours.array(name), expected), name
        assert np.array_equal(ours.rows(name, 1, 3), expected[1:3]), name


def test_a_damaged_checkpoint_is_refused_in_one_line(folder_of, tmp_path):
    folder = shutil.copytree(folder_of("qwen3"), tmp_path / "cut")
    weights = folder / "model.safetensors"
    weights.write_bytes(weights.read_bytes()[:-100])
    with pytest.raises(ExportError, match="outside the file"):
        Checkpoint.open(folder)
    weights.write_bytes(struct.pack("<Q", 10) + b"not json!!")
    with pytest.raises(ExportError, match="not JSON"):
        Checkpoint.open(folder)
    weights.write_bytes(b"\xff" * 16)
    with pytest.raises(ExportError, match="not a safetensors file"):
        Checkpoint.open(folder)


def test_pickled_weights_are_refused_without_being_opened(folder_of, tmp_path):
    folder = shutil.copytree(folder_of("marian"), tmp_path / "pickle-only")
    (folder / "model.safetensors").unlink()
    (folder / "pytorch_model.bin").write_bytes(b"would run code if unpickled")
    with pytest.raises(ExportError, match="never opens"):
        Checkpoint.open(folder)


# --- computed tables ---------------------------------------------------------------------------------
def test_the_sine_and_cosine_are_correct_to_a_unit_in_the_last_place_of_float64():
    x = np.concatenate([np.linspace(-3000, 3000, 200_001), np.array([0.0, np.pi / 4, 1e-9, 8191.0])])
    sin, cos = tables.sin_cos(x)
    import mpmath

    for value, s, c in zip(x[::997], sin[::997], cos[::997]):
        assert abs(s - float(mpmath.sin(value))) <= 2 * np.spacing(abs(s)) + 1e-300
        assert abs(c - float(mpmath.cos(value))) <= 2 * np.spacing(abs(c)) + 1e-300


def test_marian_and_m2m100_position_tables_are_transformers_within_rounding():
    """Marian's table is float64 numpy's, rounded once: within one unit. M2M100's frequencies are torch's float32
    exp, which is not correctly rounded: a frequency one unit off moves the angle at position 768 by 5e-5."""
    from transformers.models.m2m_100.modeling_m2m_100 import M2M100SinusoidalPositionalEmbedding
    from transformers.models.marian.modeling_marian import MarianSinusoidalPositionalEmbedding

    marian = MarianSinusoidalPositionalEmbedding(512, 512)
    marian._init_weight()
    ours = tables.marian_positions(512, 512)
    assert ulps(ours, marian.weight.detach().numpy()) <= 1
    assert np.mean(ours == marian.weight.detach().numpy()) > 0.99
    fairseq = M2M100SinusoidalPositionalEmbedding(1024, 1024, padding_idx=1).weights.numpy()
    ours = tables.fairseq_positions(1026, 1024, 1)
    assert np.abs(ours - fairseq).max() < 1e-4
    assert np.abs(ours[:130] - fairseq[:130]).max() < 1e-5  # a sentence's positions
    assert np.mean(ours == fairseq) > 0.9


@pytest.mark.parametrize(
    "kind, rope",
    [
        ("qwen3", {"rope_theta": 1_000_000.0}),
        ("hunyuan", {"rope_theta": 10_000.0, "rope_scaling": {"type": "dynamic", "alpha": 1000.0, "factor": 1.0}}),
        ("gemma3-1b", {"rope_theta": 1_000_000.0, "rope_scaling": {"rope_type": "linear", "factor": 8.0}}),
    ],
)
def test_rotary_tables_at_full_head_size_are_transformers_within_one_unit(folder_of, kind, rope):
    """Real head sizes (128; Gemma's 256) and the 8,192 positions a pack stores, where a float32 angle is far
    from its exact value: the tables are the model's own float32 computation, not the ideal one."""
    import torch
    import transformers

    family, folder = detect_loader(folder_of(kind))
    head = 256 if kind == "gemma3-1b" else 128
    raw = {**folder.config, **rope, "head_dim": head, "max_position_embeddings": 8192}
    config_class = transformers.AutoConfig.for_model(raw["model_type"]).__class__
    config = config_class(**raw)
    model = getattr(transformers, family.model_class)(config)
    ours = rotary_tables(family.rotary_specs(family.model_config(HfFolder(folder.path, raw))), 8192)
    modules = {"global": model.model.rotary_emb}
    if kind == "gemma3-1b":
        modules["local"] = model.model.rotary_emb_local
    for key, module in modules.items():
        cos, sin = module(torch.zeros(1, dtype=torch.float32), torch.arange(8192)[None, :])
        for mine, theirs in ((ours[key].cos, cos), (ours[key].sin, sin)):
            theirs = theirs[0, :, : head // 2].numpy()
            assert np.abs(mine - theirs).max() < 1e-6, (kind, key)  # torch's float32 cos/sin: not always rounded
            assert np.mean(mine == theirs) > 0.9, (kind, key)


# --- the tokenizer ---------------------------------------------------------------------------------
def _same_facts(folder, family) -> None:
    from transformers import AutoTokenizer

    theirs = AutoTokenizer.from_pretrained(folder)
    ours = HfTokenizer(folder, family.hf_tokenizer_class)
    assert ours.special_tokens_map == theirs.special_tokens_map
    assert ours.unk_token_id == theirs.unk_token_id
    assert ours.chat_template == theirs.chat_template
    assert ours.additional_special_tokens == theirs.additional_special_tokens
    assert set(ours.all_special_tokens) == set(theirs.all_special_tokens)
    assert ours.legacy_behaviour == getattr(theirs, "legacy_behaviour", False)
    if family.name == "m2m100":
        assert ours.lang_code_to_id == theirs.lang_code_to_id
        assert ours.lang_code_to_token == theirs.lang_code_to_token
    for token in ours.additional_special_tokens[:60] + ["<unk>", "never-a-token"]:
        assert ours.convert_tokens_to_ids(token) == theirs.convert_tokens_to_ids(token), token


@pytest.mark.parametrize("kind", ["marian", *MANY, *LLMS, *BARTS])
def test_the_tokenizer_facts_are_autotokenizers(folder_of, kind):
    family, folder = detect_loader(folder_of(kind))
    _same_facts(folder.path, family)


@pytest.mark.parametrize("tokenizer_class", ["Qwen2Tokenizer", "GemmaTokenizer", "PreTrainedTokenizerFast"])
def test_a_tokenizer_class_default_fills_what_the_configuration_leaves_out(folder_of, tmp_path, tokenizer_class):
    from tokenizers import AddedToken, Tokenizer

    folder = shutil.copytree(folder_of("qwen3"), tmp_path / tokenizer_class)
    vocabulary = Tokenizer.from_file(str(folder / "tokenizer.json"))  # the classes' default tokens, as real ones have
    vocabulary.add_special_tokens([AddedToken(t, special=True) for t in ("<unk>", "<bos>", "<eos>", "<pad>")])
    vocabulary.save(str(folder / "tokenizer.json"))
    config = json.loads((folder / "tokenizer_config.json").read_text(encoding="utf-8"))
    config["tokenizer_class"] = tokenizer_class
    for key in ("bos_token", "unk_token", "pad_token"):
        config.pop(key, None)
    (folder / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    _same_facts(folder, LOADERS["qwen3"])


def test_the_older_format_takes_its_special_tokens_from_special_tokens_map(folder_of, tmp_path):
    folder = shutil.copytree(folder_of("gemma3"), tmp_path / "legacy")
    config = json.loads((folder / "tokenizer_config.json").read_text(encoding="utf-8"))
    config.pop("added_tokens_decoder")
    config["eos_token"] = "<bos>"  # overridden by special_tokens_map.json in this format
    (folder / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    _same_facts(folder, LOADERS["gemma3"])


def test_a_chat_template_in_tokenizer_config_is_found_as_transformers_finds_it(folder_of, tmp_path):
    folder = shutil.copytree(folder_of("qwen3"), tmp_path / "inline-template")
    template = (folder / "chat_template.jinja").read_text(encoding="utf-8")
    (folder / "chat_template.jinja").unlink()
    config = json.loads((folder / "tokenizer_config.json").read_text(encoding="utf-8"))
    config["chat_template"] = [{"name": "default", "template": template}, {"name": "tool_use", "template": "x"}]
    (folder / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    assert HfTokenizer(folder, "Qwen2Tokenizer").chat_template == template
    config["chat_template"] = template
    (folder / "tokenizer_config.json").write_text(json.dumps(config), encoding="utf-8")
    _same_facts(folder, LOADERS["qwen3"])


# --- generation settings and configuration defaults ---------------------------------------------------
def test_the_generation_defaults_are_generation_configs():
    from transformers import GenerationConfig

    theirs = GenerationConfig().to_dict()
    theirs.pop("transformers_version")
    theirs.pop("_from_model_config")
    assert theirs == DEFAULTS


@pytest.mark.parametrize("kind", ["marian", *MANY, *LLMS, *BARTS])
@pytest.mark.parametrize("with_file", [True, False])
def test_generation_settings_are_read_as_generation_config_reads_them(folder_of, tmp_path, kind, with_file):
    from transformers import AutoConfig, GenerationConfig

    folder = shutil.copytree(folder_of(kind), tmp_path / kind)
    if kind in BARTS and with_file:  # the file the Hub added later, from config.json
        GenerationConfig.from_model_config(AutoConfig.from_pretrained(folder)).save_pretrained(folder)
    if not with_file:  # from_model_config: config.json's settings (a Marian config carries beams and lengths)
        (folder / "generation_config.json").unlink(missing_ok=True)
        theirs = GenerationConfig.from_model_config(AutoConfig.from_pretrained(folder)).to_diff_dict()
    else:
        theirs = GenerationConfig.from_pretrained(folder).to_diff_dict()
    family, hf = detect_loader(folder)
    ours = read_generation_config(folder, *model_settings(family, hf))
    for key in ("transformers_version", "_from_model_config"):
        theirs.pop(key, None)
        ours.pop(key, None)
    assert ours == theirs


CONFIG_CLASSES = {
    "bart": "BartConfig",
    "marian": "MarianConfig",
    "mbart50": "MBartConfig",
    "m2m100": "M2M100Config",
    "nllb": "M2M100Config",
    "qwen3": "Qwen3Config",
    "hunyuan": "HunYuanDenseV1Config",
    "gemma3": "Gemma3TextConfig",
}


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_each_familys_configuration_defaults_are_every_default_of_its_transformers_config(name):
    """Every argument a released config.json may leave out (gemma-3-4b-it's text_config sets five), with the
    default transformers' configuration class gives it."""
    import inspect

    import transformers

    config_class = getattr(transformers, CONFIG_CLASSES[name])
    arguments = {
        key: parameter.default
        for key, parameter in inspect.signature(config_class.__init__).parameters.items()
        if key not in ("self", "kwargs")
    }
    defaults = LOADERS[name].config_defaults
    assert set(arguments) <= set(defaults), sorted(set(arguments) - set(defaults))
    for key, value in arguments.items():
        assert defaults[key] == value, key
    theirs = config_class()
    for key in set(defaults) - set(arguments):  # PretrainedConfig's, such as tie_word_embeddings
        assert getattr(theirs, key) == defaults[key], key


# what each family's configuration class derives that the export does not read: Qwen3's layer types (its
# sliding window is refused), MarianMT's decoder vocabulary (a separate one is refused)
NOT_READ = {"qwen3": {"layer_types"}, "marian": {"decoder_vocab_size"}}
# config.json as released files may be: nothing but the architecture; gemma-3-4b-it's; keys set to null
SPARSE = {
    "bart": [
        {"architectures": ["BartForConditionalGeneration"], "model_type": "bart"},
        # the transformers-3 flag of bart-large-cnn's and distilbart's config.json: <s> forced first
        {
            "architectures": ["BartForConditionalGeneration"],
            "model_type": "bart",
            "force_bos_token_to_be_generated": True,
        },
        {"model_type": "bart", "force_bos_token_to_be_generated": True, "forced_bos_token_id": 5, "bos_token_id": 4},
    ],
    "marian": [{"architectures": ["MarianMTModel"], "model_type": "marian"}],
    "mbart50": [{"architectures": ["MBartForConditionalGeneration"], "model_type": "mbart"}],
    "m2m100": [{"architectures": ["M2M100ForConditionalGeneration"], "model_type": "m2m_100"}],
    "nllb": [{"architectures": ["M2M100ForConditionalGeneration"], "model_type": "m2m_100"}],
    "qwen3": [
        {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3"},
        {"architectures": ["Qwen3ForCausalLM"], "model_type": "qwen3", "num_key_value_heads": None},
    ],
    "hunyuan": [
        {"architectures": ["HunYuanDenseV1ForCausalLM"], "model_type": "hunyuan_v1_dense"},
        {"architectures": ["HunYuanDenseV1ForCausalLM"], "model_type": "hunyuan_v1_dense", "head_dim": 128},
    ],
    "gemma3": [
        {"architectures": ["Gemma3ForCausalLM"], "model_type": "gemma3_text"},
        {"architectures": ["Gemma3ForCausalLM"], "model_type": "gemma3_text", "sliding_window_pattern": 2},
        {
            "architectures": ["Gemma3ForConditionalGeneration"],
            "model_type": "gemma3",
            "tie_word_embeddings": False,  # not the language model's: transformers ties as text_config says
            "text_config": {
                "hidden_size": 2560,
                "intermediate_size": 10240,
                "model_type": "gemma3_text",
                "num_hidden_layers": 34,
                "rope_scaling": {"factor": 8.0, "rope_type": "linear"},
                "sliding_window": 1024,
            },
        },
        {"architectures": ["Gemma3ForConditionalGeneration"], "model_type": "gemma3"},
    ],
}


@pytest.mark.parametrize("name", sorted(LOADERS))
def test_a_config_that_leaves_values_out_reads_as_transformers_reads_it(name, tmp_path):
    """What the converter makes of a sparse config.json is what transformers' configuration class makes of it,
    derived values included (Gemma 3's layer pattern, the key/value heads of Qwen3 and HunYuan)."""
    import transformers

    loader = LOADERS[name]
    for values in SPARSE[name]:
        theirs = transformers.AutoConfig.for_model(**values)
        if values["model_type"] == "gemma3":
            theirs = theirs.text_config
        ours = vars(loader.model_config(HfFolder(tmp_path, values)))
        for key, value in ours.items():
            if key not in NOT_READ.get(name, ()) and hasattr(theirs, key):
                assert getattr(theirs, key) == value, (values, key)
        assert set(loader.config_defaults) - set(ours) == set()
