"""A copying model of opus-mt-en-zh's exact shape, for the document-throughput benchmark.

With random weights a model repeats one token until its maximum length (512 for opus-mt-en-zh), so
translating a document with the pack's defaults would measure 512-token loops (which Fanyi's
degenerate-translation guard stops and decodes again) rather than translations. This model is built
instead so that it behaves like a translator as far as the work goes: it copies its source, one token
per step, and so ends (with the source's </s>) after as many steps as the source has tokens; it does
not loop unless its source does. Its margins are wide, so every engine, fp32 or int8, makes the
same choices, and each engine does the same number of steps.

How, in the real MarianMT architecture (post-norm, sinusoidal positions, tied embeddings):
- token embeddings are zero in 64 dimensions (the sine and cosine of the 32 highest position
  frequencies) and in a reference dimension, random in the other 447; positions are Marian's own
  sinusoids;
- every sublayer's output projection is near zero (noise of 1e-4: each layer is then just its
  LayerNorm; exact zeros would give every such matrix the same int8 scales, which the exporter
  stores once, and a pack whose weights share scales is refused), except the first decoder
  layer's cross-attention: its queries and keys read those 64 position dimensions, so
  every head of step t attends to source position t, and its values carry the token dimensions;
  the output projection adds them to the residual strongly enough to dominate it;
- the tied output matrix then scores the copied token's embedding far above any other.

The weights differ, the computation does not: the same shapes, the same number of multiplications
per step as the random model (zero weights are multiplied like any others).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

COPY_MARKER = "copy-model"
POSITION_FREQUENCIES = 32  # sine/cosine pairs the attention matches positions with
TOKEN_STD = 0.05  # token embedding entries (x sqrt(512) in the model): comparable to the positions
POSITION_GAIN = 8.0  # query and key gain on the position dimensions: a sharp attention peak
VALUE_GAIN = 50.0  # how strongly the copied token outweighs the residual stream
NOISE = 1e-4  # the "zero" matrices' entries


def build_copy_folder(out: Path, like: Path, seed: int = 0) -> Path:
    """A MarianMT folder with `like`'s configuration and tokenizers and copying weights."""
    if (out / COPY_MARKER).exists():
        return out
    import torch
    from transformers import MarianMTModel

    tmp = out.with_name(out.name + ".tmp")
    shutil.rmtree(tmp, ignore_errors=True)
    shutil.copytree(like, tmp, ignore=shutil.ignore_patterns("model.safetensors", "pad-row-zeroed"))
    model = MarianMTModel.from_pretrained(str(like)).eval()
    config = model.config
    d, heads = config.d_model, config.decoder_attention_heads
    head_dim = d // heads
    pad = config.pad_token_id
    half = d // 2
    position_dims = [i for i in range(POSITION_FREQUENCIES)] + [half + i for i in range(POSITION_FREQUENCIES)]
    # the sine of the lowest frequency is ~0 at every position a sentence reaches: subtracting it
    # takes the LayerNorm's mean out of the queries and keys
    reference = half - 1
    token_dims = [i for i in range(d) if i not in set(position_dims) | {reference}]
    assert len(position_dims) == head_dim and len(token_dims) <= (heads - 1) * head_dim
    generator = torch.Generator().manual_seed(seed)
    with torch.no_grad():
        for module in model.modules():
            if isinstance(module, torch.nn.LayerNorm):
                module.weight.fill_(1.0)
                module.bias.zero_()

        def quiet(linear: torch.nn.Linear) -> None:
            linear.weight.copy_(torch.randn(linear.weight.shape, generator=generator) * NOISE)
            linear.bias.zero_()

        layers = list(model.model.encoder.layers) + list(model.model.decoder.layers)
        for layer in layers:
            for attention in [layer.self_attn] + ([layer.encoder_attn] if hasattr(layer, "encoder_attn") else []):
                quiet(attention.out_proj)
            quiet(layer.fc2)
        shared = model.model.shared.weight
        shared.zero_()
        shared[:, token_dims] = torch.randn(shared.shape[0], len(token_dims), generator=generator) * TOKEN_STD
        shared[pad].zero_()  # as in the real checkpoint (CTranslate2 starts the decoder from zeros)
        model.final_logits_bias.zero_()

        cross = model.model.decoder.layers[0].encoder_attn
        for proj in (cross.q_proj, cross.k_proj, cross.v_proj):
            proj.weight.zero_()
            proj.bias.zero_()
        for h in range(heads):
            for j, dim in enumerate(position_dims):  # every head matches positions
                for proj in (cross.q_proj, cross.k_proj):
                    proj.weight[h * head_dim + j, dim] = POSITION_GAIN
                    proj.weight[h * head_dim + j, reference] = -POSITION_GAIN
        for j, dim in enumerate(token_dims):  # heads 0.. carry the token dimensions
            cross.v_proj.weight[j, dim] = 1.0
            cross.out_proj.weight[dim, j] = VALUE_GAIN
    model.save_pretrained(str(tmp))
    (tmp / COPY_MARKER).write_text(
        json.dumps({"seed": seed, "position_frequencies": POSITION_FREQUENCIES, "noise": NOISE}) + "\n"
    )
    shutil.rmtree(out, ignore_errors=True)
    tmp.rename(out)
    return out
