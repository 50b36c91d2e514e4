"""Read a Hugging Face MarianMT folder into plain numpy weights and generation settings (build time: torch)."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from .errors import ExportError
from .marian_graphs import Attention, Layer, Linear, MarianWeights, Norm, embed_scale_for

# generation_config fields the runtime implements; anything else set to a non-default value is refused
SUPPORTED_GENERATION_KEYS = (
    "num_beams", "max_length", "max_new_tokens", "min_length", "length_penalty", "early_stopping",
    "no_repeat_ngram_size", "repetition_penalty", "bad_words_ids", "forced_eos_token_id", "renormalize_logits",
)


def load_model(hf_dir: Path):
    from transformers import MarianMTModel

    if not (hf_dir / "config.json").is_file():
        raise ExportError(f"{hf_dir} is not a Hugging Face model folder: config.json is missing")
    config = json.loads((hf_dir / "config.json").read_text(encoding="utf-8"))
    if config.get("model_type") != "marian":
        raise ExportError(f"{hf_dir}: model_type is {config.get('model_type')!r}; only MarianMT models are supported")
    model = MarianMTModel.from_pretrained(hf_dir)
    model.eval()
    return model


def _np(t) -> np.ndarray:
    return t.detach().cpu().numpy().astype(np.float32)


def _linear(module) -> Linear:
    return Linear(_np(module.weight).T.copy(), None if module.bias is None else _np(module.bias))


def _norm(module) -> Norm:
    return Norm(_np(module.weight), _np(module.bias))


def _attention(module) -> Attention:
    return Attention(_linear(module.q_proj), _linear(module.k_proj), _linear(module.v_proj), _linear(module.out_proj))


def extract_weights(model) -> MarianWeights:
    cfg = model.config
    enc, dec = model.model.encoder, model.model.decoder
    eps = enc.layers[0].self_attn_layer_norm.eps if len(enc.layers) else 1e-5

    def shared_or_copy(tensor, reference_tensor, reference_array):
        return reference_array if tensor.data_ptr() == reference_tensor.data_ptr() else _np(tensor)

    dec_emb_t = dec.embed_tokens.weight
    dec_emb = _np(dec_emb_t)
    enc_emb = shared_or_copy(enc.embed_tokens.weight, dec_emb_t, dec_emb)
    lm_head = shared_or_copy(model.lm_head.weight, dec_emb_t, dec_emb)

    encoder_layers = [
        Layer(_attention(l.self_attn), _norm(l.self_attn_layer_norm), _linear(l.fc1), _linear(l.fc2), _norm(l.final_layer_norm))
        for l in enc.layers
    ]
    decoder_layers = [
        Layer(_attention(l.self_attn), _norm(l.self_attn_layer_norm), _linear(l.fc1), _linear(l.fc2), _norm(l.final_layer_norm),
              cross_attn=_attention(l.encoder_attn), cross_norm=_norm(l.encoder_attn_layer_norm))
        for l in dec.layers
    ]
    if cfg.d_model % cfg.encoder_attention_heads or cfg.encoder_attention_heads != cfg.decoder_attention_heads:
        raise ExportError("encoder and decoder must use the same number of attention heads dividing d_model")
    return MarianWeights(
        d_model=cfg.d_model,
        heads=cfg.decoder_attention_heads,
        activation=cfg.activation_function,
        embed_scale=embed_scale_for(cfg.d_model, cfg.scale_embedding),
        layer_norm_eps=float(eps),
        encoder_embedding=enc_emb,
        decoder_embedding=dec_emb,
        lm_head=lm_head,
        final_logits_bias=_np(model.final_logits_bias).reshape(-1),
        encoder_positions=_np(enc.embed_positions.weight),
        decoder_positions=_np(dec.embed_positions.weight),
        encoder_layers=encoder_layers,
        decoder_layers=decoder_layers,
    )


def generation_defaults(hf_dir: Path) -> dict:
    """Generation settings exactly as `generate()` would use them: generation_config.json, else config.json."""
    from transformers import GenerationConfig

    try:
        gen = GenerationConfig.from_pretrained(hf_dir)
    except OSError:
        from transformers import AutoConfig

        gen = GenerationConfig.from_model_config(AutoConfig.from_pretrained(hf_dir))
    defaults = GenerationConfig()
    if gen.do_sample:
        raise ExportError("the model's generation config samples (do_sample=True); Fanyi decodes greedily or by beam search")
    for key, value in gen.to_diff_dict().items():
        if key in SUPPORTED_GENERATION_KEYS or key in ("bos_token_id", "eos_token_id", "pad_token_id",
                                                     "decoder_start_token_id", "transformers_version",
                                                     "forced_bos_token_id", "_from_model_config"):
            continue
        if getattr(defaults, key, None) != value and value is not None:
            raise ExportError(f"generation setting {key}={value!r} is not supported by the Fanyi runtime")
    if gen.forced_bos_token_id is not None:
        raise ExportError("forced_bos_token_id is not supported by the Fanyi runtime")
    eos = gen.eos_token_id
    eos_ids = [eos] if isinstance(eos, int) else list(eos or [])
    if not eos_ids or gen.pad_token_id is None or gen.decoder_start_token_id is None:
        raise ExportError("the model must define eos_token_id, pad_token_id and decoder_start_token_id")
    out = {key: getattr(gen, key) for key in SUPPORTED_GENERATION_KEYS}
    out["eos_token_ids"] = eos_ids
    out["pad_token_id"] = gen.pad_token_id
    out["decoder_start_token_id"] = gen.decoder_start_token_id
    return out
