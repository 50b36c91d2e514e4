"""Read a Hugging Face model folder into its family, numpy weights and generation settings (build time: torch).

Which family a folder holds is the registry's answer (fanyi.engine.families); anything else is
refused with a message naming its architecture.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from ..engine.families import ExportRefused, Family, HfFolder, family_for_folder
from ..engine.families.causal_lm import CausalLM
from ..engine.families.seq2seq import EncoderDecoder
from ..engine.families.weights import CausalWeights, Rotary, Seq2SeqWeights
from .errors import ExportError

# generation_config fields the runtime implements; anything else set to a non-default value is refused
SUPPORTED_GENERATION_KEYS = (
    "num_beams",
    "max_length",
    "max_new_tokens",
    "min_length",
    "length_penalty",
    "early_stopping",
    "no_repeat_ngram_size",
    "repetition_penalty",
    "bad_words_ids",
    "forced_eos_token_id",
    "renormalize_logits",
)
# generation_config fields that choose how generate() runs, never which tokens it picks: accepted whatever
# their value (Gemma 3's and TranslateGemma's released generation_config.json set cache_implementation)
OUTPUT_NEUTRAL_GENERATION_KEYS = {
    "cache_implementation": "the class of transformers' key/value cache (hybrid, static, sliding window): same values",
    "cache_config": "options of that cache class",
    "use_cache": "whether generate() keeps a key/value cache at all: the same tokens, computed again or not",
    "compile_config": "how torch.compile builds the forward pass",
    "disable_compile": "whether torch.compile builds it",
    "return_dict_in_generate": "what generate() returns around the tokens",
    "output_scores": "whether generate() also returns the scores",
    "output_logits": "whether generate() also returns the logits",
    "output_attentions": "whether generate() also returns the attention weights",
    "output_hidden_states": "whether generate() also returns the hidden states",
}
# what a chat model's generation_config sets for sampling, which a decoder-only pack leaves out: its
# translations are greedy, exactly generate(do_sample=False) (a sampling setting may come later)
SAMPLING_KEYS = ("do_sample", "temperature", "top_k", "top_p", "min_p", "typical_p", "repetition_penalty")
IDS = (
    "bos_token_id",
    "eos_token_id",
    "pad_token_id",
    "decoder_start_token_id",
    "transformers_version",
    "forced_bos_token_id",
    "_from_model_config",
)
DECODER_ONLY_MAX_NEW_TOKENS = 512  # a paragraph's translation; the positions left after the prompt bound it too


def detect_family(hf_dir: Path) -> tuple[Family, HfFolder]:
    """The family of a Hugging Face folder and the folder's configuration; ExportError when none exports it."""
    try:
        folder = HfFolder.read(hf_dir)
        family = family_for_folder(folder)
        family.check_folder(folder)
    except ExportRefused as exc:
        raise ExportError(str(exc)) from None
    return family, folder


def model_class(family: Family, folder: HfFolder) -> str:
    """The transformers class of the folder: its own architecture where the family exports it (Gemma 3 takes
    Gemma3ForCausalLM and Gemma3ForConditionalGeneration), else the family's."""
    return folder.architecture if folder.architecture in family.architectures else family.model_class


def load_model(hf_dir: Path, family: Family) -> Any:
    """The model in its checkpoint's own dtype: a bfloat16 LLM stays half the size of a float32 copy while its
    weights are read one by one into float32 arrays (seq2seq.array)."""
    import transformers

    name = model_class(family, HfFolder.read(hf_dir))
    model = getattr(transformers, name).from_pretrained(hf_dir, dtype="auto")
    model.eval()
    return model


def rotary_tables(family: CausalLM, model: Any) -> dict[str, Rotary]:
    """Each rotary embedding's cos and sin at every position, as the model itself computes them (its
    scaling included), so the pack's tables are the model's exact values."""
    import torch

    config = model.get_decoder().config
    positions = family.table_positions(config)
    half = family.head_dim(config) // 2
    tables = {}
    with torch.no_grad():
        for key, module in family.rotary_modules(model).items():
            ids = torch.arange(positions)[None, :]
            cos, sin = module(torch.zeros(1, dtype=torch.float32), ids)
            tables[key] = Rotary(cos[0, :, :half].numpy().copy(), sin[0, :, :half].numpy().copy())
    return tables


def model_weights(family: Family, model: Any) -> Seq2SeqWeights | CausalWeights:
    try:
        if isinstance(family, CausalLM):
            return family.weights(model, rotary_tables(family, model))
        assert isinstance(family, EncoderDecoder)
        return family.weights(model)
    except ValueError as exc:
        raise ExportError(str(exc)) from None


def generation_defaults(hf_dir: Path, family: Family) -> dict[str, Any]:
    """Generation settings exactly as `generate()` would use them: generation_config.json, else config.json.

    forced_bos_token_id is how mBART-50, M2M100 and NLLB choose the target language; the runtime
    sets it per request, so a default in the folder is only kept as the default target language.
    A decoder-only model's sampling settings are left out: its packs decode greedily.
    """
    from transformers import GenerationConfig

    try:
        gen = GenerationConfig.from_pretrained(hf_dir)
    except OSError:
        from transformers import AutoConfig

        gen = GenerationConfig.from_model_config(AutoConfig.from_pretrained(hf_dir))
    defaults = GenerationConfig()
    ignored = IDS + tuple(OUTPUT_NEUTRAL_GENERATION_KEYS) + (SAMPLING_KEYS if family.decoder_only else ())
    if gen.do_sample and not family.decoder_only:
        raise ExportError(
            "the model's generation config samples (do_sample=True); Fanyi decodes greedily or by beam search"
        )
    for key, value in gen.to_diff_dict().items():
        if key in ignored or key in SUPPORTED_GENERATION_KEYS:
            continue
        if getattr(defaults, key, None) != value and value is not None:
            raise ExportError(f"generation setting {key}={value!r} is not supported by the Fanyi runtime")
    eos = gen.eos_token_id
    eos_ids = [eos] if isinstance(eos, int) else list(eos or [])
    out: dict[str, Any] = {key: getattr(gen, key) for key in SUPPORTED_GENERATION_KEYS}
    start = gen.decoder_start_token_id
    if family.decoder_only:
        # greedy, generate(do_sample=False); decoder_start only stands for the prompt in the search
        out.update(
            num_beams=1,
            repetition_penalty=None,
            max_length=None,
            max_new_tokens=gen.max_new_tokens or DECODER_ONLY_MAX_NEW_TOKENS,
        )
        start = gen.bos_token_id if gen.bos_token_id is not None else (eos_ids or [None])[0]
    pad = gen.pad_token_id
    if pad is None and family.decoder_only and eos_ids:
        pad = eos_ids[0]  # what generate() pads with then; a decoder-only pack pads only its prompt chunks
    if not eos_ids or pad is None or start is None:
        raise ExportError("the model must define eos_token_id, pad_token_id and decoder_start_token_id")
    out["eos_token_ids"] = eos_ids
    out["pad_token_id"] = pad
    out["decoder_start_token_id"] = start
    out["forced_bos_token_id"] = gen.forced_bos_token_id
    return out
