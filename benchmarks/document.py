"""Document throughput: one 2,000-sentence English text through `fanyi file` and through CTranslate2.

Both engines get the copying model of document_model.py (int8), the pack's default beam size, the
same maximum batch size (the Marian family's batch_size) and the same sentences (Fanyi's splitter; the text is
made of distinct sentences, so Fanyi's de-duplication saves nothing):

- ours: `fanyi.documents.job.translate_document`, what `fanyi file IN -o OUT` runs once the pack
  is loaded: read, split, batch by length, decode with the degenerate-translation watch, detokenize,
  write atomically. The sentence cache is cleared before each pass.
- CTranslate2: split with the same splitter, tokenize with the pack's tokenizer, one
  `translate_batch(beam_size=4, max_batch_size=16, max_decoding_length=511)` call (which sorts by
  length itself), detokenize, join and write.

Run through benchmarks/paired.py --document (paired, interleaved rounds like the other rows).
"""

from __future__ import annotations

import itertools
import json
import random
import re
from pathlib import Path

SENTENCES = 2000
PER_PARAGRAPH = 5
PUNCTUATION = re.compile(r"[.!?;:\"“”…]")


def make_document(path: Path, corpus: Path, count: int = SENTENCES) -> list[str]:
    """A text of `count` distinct sentences, PER_PARAGRAPH to a paragraph, each the first half of one
    corpus line and the second half of another (so lengths are the corpus's); returns the sentences."""
    lines = [line.split() for line in corpus.read_text(encoding="utf-8").splitlines() if len(line.split()) >= 4]
    pairs = list(itertools.product(range(len(lines)), repeat=2))
    random.Random(0).shuffle(pairs)
    sentences: list[str] = []
    seen: set[str] = set()
    for a, b in pairs:
        if len(sentences) == count:
            break
        first, second = lines[a], lines[b]
        words = first[: len(first) // 2] + second[len(second) // 2 :]
        text = PUNCTUATION.sub("", " ".join(words)).strip(" ,")
        text = text[:1].upper() + text[1:] + "."
        if text not in seen:
            seen.add(text)
            sentences.append(text)
    if len(sentences) < count:
        raise ValueError(f"{corpus} makes only {len(sentences)} distinct sentences, not {count}")
    paragraphs = [" ".join(sentences[i : i + PER_PARAGRAPH]) for i in range(0, count, PER_PARAGRAPH)]
    path.write_text("\n\n".join(paragraphs) + "\n", encoding="utf-8")
    return sentences


class OursDocument:
    def __init__(self, folder: Path, threads: int) -> None:
        from fanyi.engine.translator import Translator

        self.translator = Translator.open(folder, threads=threads)

    def translate(self, src: Path, dst: Path) -> None:
        from fanyi.documents.job import translate_document

        self.translator.clear_cache()
        translate_document(src, self.translator, dst=dst, overwrite=True)


class CT2Document:
    def __init__(self, folder: Path, pack: Path, threads: int) -> None:
        from engines import CT2Engine

        from fanyi.engine.families import family_named
        from fanyi.engine.tokenizer import Tokenizer

        manifest = json.loads((pack / "manifest.json").read_text(encoding="utf-8"))
        self.target_token = manifest.get("default_target")
        self.beams = manifest["generation"]["num_beams"]
        self.max_steps = manifest["generation"]["max_length"] - 1  # generate()'s max_length counts the start
        self.batch = family_named("marian").batch_size
        self.tokenizer = Tokenizer.from_files(pack / "source.spm", pack / "target.spm", pack / "vocab.json")
        self.ct2 = CT2Engine("int8", {"eos": self.tokenizer.eos_id})
        self.ct2.load(folder, threads)

    def translate(self, src: Path, dst: Path) -> None:
        from fanyi.engine.segment import separator_text, split_text

        paragraphs = [split_text(p, source_lang="en") for p in src.read_text(encoding="utf-8").split("\n\n")]
        sources = []
        for pieces in paragraphs:
            for piece in pieces:
                if piece.translate:
                    sources.append(self.ct2._source(self.tokenizer.encode(piece.text, self.target_token)))
        results = self.ct2.model.translate_batch(
            sources, beam_size=self.beams, max_batch_size=self.batch, max_decoding_length=self.max_steps
        )
        outputs = iter(self.tokenizer.decode([self.ct2.ids[t] for t in r.hypotheses[0]]) for r in results)
        rendered = []
        for pieces in paragraphs:
            rendered.append(
                "".join(
                    separator_text(pieces, i, "zh") + (next(outputs) if p.translate else "")
                    for i, p in enumerate(pieces)
                )
            )
        dst.write_text("\n\n".join(rendered), encoding="utf-8")
