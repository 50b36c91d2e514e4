"""Read a Hugging Face translation model folder into plain numpy weights and generation settings (build time: torch).

Which family a folder holds is decided here (detect_family), from config.json's model_type and
the tokenizer it ships; anything else is refused with a message naming its architecture.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..engine.families import LEARNED_POSITION_OFFSET, M2M100, MARIAN, MBART50, NLLB, Family
from .errors import ExportError
from .transformer_graphs import Attention, Layer, Linear, Norm, Seq2SeqWeights, embed_scale_for

# generation_config fields the runtime implements; anything else set to a non-default value is refused
SUPPORTED_GENERATION_KEYS = (
    "num_beams", "max_length", "max_new_tokens", "min_length", "length_penalty", "early_stopping",
    "no_repeat_ngram_size", "repetition_penalty", "bad_words_ids", "forced_eos_token_id", "renormalize_logits",
)


SUPPORTED = "MarianMTModel (OPUS-MT), MBartForConditionalGeneration (mBART-50), M2M100ForConditionalGeneration " \
            "(M2M100, NLLB-200)"


def _read_json(path: Path) -> dict:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ExportError(f"{path} cannot be read: {exc}") from None
    return data if isinstance(data, dict) else {}


def tokenizer_config(hf_dir: Path) -> dict:
    path = hf_dir / "tokenizer_config.json"
    return _read_json(path) if path.is_file() else {}


def detect_family(hf_dir: Path) -> Family:
    """The family of a Hugging Face folder, from its config.json and its tokenizer files."""
    if not (hf_dir / "config.json").is_file():
        raise ExportError(f"{hf_dir} is not a Hugging Face model folder: config.json is missing")
    config = _read_json(hf_dir / "config.json")
    model_type = config.get("model_type")
    architecture = (config.get("architectures") or [None])[0] or f"model_type {model_type!r}"
    tokenizer_class = str(tokenizer_config(hf_dir).get("tokenizer_class") or "")
    if model_type == "marian":
        return MARIAN
    if model_type == "mbart":
        if tokenizer_class.startswith("MBart50") or (not tokenizer_class and (hf_dir / "tokenizer.json").is_file()):
            return MBART50
        raise ExportError(f"{hf_dir}: {architecture} with the {tokenizer_class or 'unknown'} tokenizer is not supported; "
                          "of mBART models Fanyi exports the mBART-50 ones (MBart50Tokenizer)")
    if model_type == "m2m_100":
        if tokenizer_class.startswith("Nllb"):
            return NLLB
        if tokenizer_class.startswith("M2M100") or (hf_dir / "vocab.json").is_file():
            return M2M100
        if (hf_dir / "tokenizer.json").is_file() or (hf_dir / "sentencepiece.bpe.model").is_file():
            return NLLB
        raise ExportError(f"{hf_dir}: {architecture} has no tokenizer Fanyi knows (M2M100Tokenizer or NllbTokenizer)")
    raise ExportError(f"{hf_dir}: {architecture} is not supported; Fanyi exports {SUPPORTED}")


def load_model(hf_dir: Path, family: Family | None = None):
    import transformers

    family = family or detect_family(hf_dir)
    model = getattr(transformers, family.model_class).from_pretrained(hf_dir)
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


def _final_logits_bias(model, vocab: int) -> np.ndarray:
    bias = getattr(model, "final_logits_bias", None)  # M2M100 has none
    return np.zeros(vocab, np.float32) if bias is None else _np(bias).reshape(-1)


def _position_table(module) -> np.ndarray:
    # learned tables are a weight, sinusoidal ones (Marian, M2M100) a weight or a buffer
    return _np(module.weight if hasattr(module, "weight") else module.weights)


def extract_weights(model, family: Family = MARIAN) -> Seq2SeqWeights:
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
    final = family.pre_norm
    return Seq2SeqWeights(
        d_model=cfg.d_model,
        heads=cfg.decoder_attention_heads,
        activation=cfg.activation_function,
        embed_scale=embed_scale_for(cfg.d_model, cfg.scale_embedding),
        layer_norm_eps=float(eps),
        encoder_embedding=enc_emb,
        decoder_embedding=dec_emb,
        lm_head=lm_head,
        final_logits_bias=_final_logits_bias(model, dec_emb.shape[0]),
        encoder_positions=_position_table(enc.embed_positions),
        decoder_positions=_position_table(dec.embed_positions),
        encoder_layers=encoder_layers,
        decoder_layers=decoder_layers,
        pre_norm=family.pre_norm,
        position_offset={"sinusoidal": 0, "learned": LEARNED_POSITION_OFFSET,
                         "fairseq": cfg.pad_token_id + 1}[family.positions],
        pad_position=cfg.pad_token_id if family.positions == "fairseq" else None,
        encoder_embedding_norm=_norm(enc.layernorm_embedding) if family.layernorm_embedding else None,
        decoder_embedding_norm=_norm(dec.layernorm_embedding) if family.layernorm_embedding else None,
        encoder_final_norm=_norm(enc.layer_norm) if final else None,
        decoder_final_norm=_norm(dec.layer_norm) if final else None,
    )


def generation_defaults(hf_dir: Path, family: Family = MARIAN) -> dict:
    """Generation settings exactly as `generate()` would use them: generation_config.json, else config.json.

    forced_bos_token_id is how mBART-50, M2M100 and NLLB choose the target language; the runtime
    sets it per request, so a default in the folder is only kept as the default target language.
    """
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
    if gen.forced_bos_token_id is not None and family.target_language != "forced_bos":
        raise ExportError("forced_bos_token_id is not supported by the Fanyi runtime for MarianMT models")
    eos = gen.eos_token_id
    eos_ids = [eos] if isinstance(eos, int) else list(eos or [])
    if not eos_ids or gen.pad_token_id is None or gen.decoder_start_token_id is None:
        raise ExportError("the model must define eos_token_id, pad_token_id and decoder_start_token_id")
    out = {key: getattr(gen, key) for key in SUPPORTED_GENERATION_KEYS}
    out["eos_token_ids"] = eos_ids
    out["pad_token_id"] = gen.pad_token_id
    out["decoder_start_token_id"] = gen.decoder_start_token_id
    out["forced_bos_token_id"] = gen.forced_bos_token_id
    return out
