"""transformers' side of the decoder-only LLM comparisons: the model and tokenizer of a tiny Hugging Face folder,
asked what a pack is asked (the prompt's ids, greedy ids with generate(), teacher-forced logits)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import torch
import transformers

from fanyi.engine.options import DecodeOptions
from fanyi.engine.translator import Translator
from fanyi.export.hf_weights import model_class
from fanyi.export.loaders import LOADERS, HfFolder


class Reference:
    """transformers' model and tokenizer of a tiny folder, asked what the pack is asked."""

    def __init__(self, hf: Path, translator: Translator):
        family = translator.family
        name = model_class(LOADERS[family.name], HfFolder.read(hf))
        self.model = getattr(transformers, name).from_pretrained(hf, dtype=torch.float32).eval()
        self.tokenizer = transformers.AutoTokenizer.from_pretrained(hf)
        self.translator = translator

    def prompt(self, text: str, options: DecodeOptions) -> list[int]:
        prompts = self.translator.tokenizer.prompts
        request = self.translator.family.request(self.translator.languages(options))
        return list(
            self.tokenizer.apply_chat_template(
                prompts.messages(text, request),
                add_generation_prompt=prompts.generation_prompt,
                tokenize=True,
                **prompts.template_kwargs,
            )
        )

    def generate(self, ids: list[int], max_new_tokens: int) -> list[int]:
        """generate() with the folder's own settings, cut after the template's end of turn: a pack stops there
        even where generation_config.json does not list it (TranslateGemma's third-party copy)."""
        stops = set(self.translator.pack.special_ids["eos_all"])
        new = self.generate_all(ids, max_new_tokens)
        return next((new[: i + 1] for i, token in enumerate(new) if token in stops), new)

    def generate_all(self, ids: list[int], max_new_tokens: int) -> list[int]:
        with torch.no_grad():
            out = self.model.generate(
                torch.tensor([ids]),
                attention_mask=torch.ones(1, len(ids), dtype=torch.long),
                do_sample=False,
                max_new_tokens=max_new_tokens,
                top_k=None,
                top_p=None,
                temperature=None,
                repetition_penalty=None,
            )
        return out[0, len(ids) :].tolist()

    def logits(self, ids: list[int], continuation: list[int]) -> np.ndarray:
        with torch.no_grad():
            out = self.model(torch.tensor([ids + continuation[:-1]])).logits[0].numpy()
        return out[len(ids) - 1 :]
