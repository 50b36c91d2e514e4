"""fanyi.engine.detok.StreamDecoder: streamed text always adds up to Tokenizer.decode, and comes early."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest
from tiny_models.spm_files import train_marian_tokenizer

from fanyi.engine.detok import StreamDecoder, _safe_split
from fanyi.engine.tokenizer import Tokenizer, clean_up_tokenization

CORPUS = Path(__file__).resolve().parents[1] / "assets" / "corpus"
CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
# The characters of the clean-up patterns, plus a few that are not.
CLEANUP_ALPHABET = " .?!,'ntmsverxa\n"


def lines(name: str) -> list[str]:
    return (CORPUS / name).read_text(encoding="utf-8").splitlines()


@pytest.fixture(scope="module")
def folders(tmp_path_factory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("detok_tok")
    train_marian_tokenizer(
        root / "en-zh", CORPUS / "en.txt", CORPUS / "zh.txt", target_tokens=(">>cmn_Hans<<", ">>cmn_Hant<<", ">>yue<<")
    )
    train_marian_tokenizer(root / "zh-en", CORPUS / "zh.txt", CORPUS / "en.txt", source_lang="zh", target_lang="en")
    return {"en-zh": root / "en-zh", "zh-en": root / "zh-en"}


@pytest.fixture(
    scope="module",
    params=[("en-zh", False), ("zh-en", False), ("en-zh", True), ("zh-en", True)],
    ids=lambda p: f"{p[0]}{'-cleanup' if p[1] else ''}",
)
def tok(request, folders) -> Tokenizer:
    direction, clean = request.param
    folder = folders[direction]
    return Tokenizer.from_files(
        folder / "source.spm", folder / "target.spm", folder / "vocab.json", clean_up_tokenization_spaces=clean
    )


def stream(tok: Tokenizer, ids: list[int], chunks: list[int]) -> tuple[list[str], str]:
    """Push ids in chunks of the given sizes; returns what each push gave and what finish() gave."""
    decoder, outs, start = StreamDecoder(tok), [], 0
    for size in chunks:
        outs.append(decoder.push(ids[start : start + size]))
        start += size
    return outs, decoder.finish()


def random_chunks(rng: random.Random, n: int) -> list[int]:
    chunks = []
    while sum(chunks) < n:
        chunks.append(rng.choice((0, 1, 1, 1, 2, 3, 7)))
    return chunks


def english_like(tok: Tokenizer, rng: random.Random, count: int) -> list[list[int]]:
    """Ids whose text is made of clean-up pattern characters: the hard case for the clean-up rules."""
    pool = [i for i in range(tok.vocab_size) if (t := tok.piece_text(i)) and set(t) <= set(" .?!,'ntmsvera")]
    return [[rng.choice(pool) for _ in range(rng.randrange(1, 30))] for _ in range(count)]


def sequences(
    tok: Tokenizer, seed: int, *, step: int = 3, random_count: int = 300, english_count: int = 300
) -> list[list[int]]:
    rng = random.Random(seed)
    specials = [tok.eos_id, tok.unk_id, tok.pad_id, -1, tok.vocab_size + 3, *range(2, 5)]
    out = [tok.encode_target(t)[:-1] for t in lines("en.txt")[::step] + lines("zh.txt")[::step]]
    out += [tok.encode(t) for t in lines("en.txt")[1 :: 3 * step]]  # source pieces, unknown to the target model
    for _ in range(random_count):
        out.append(
            [
                rng.choice(specials) if rng.random() < 0.2 else rng.randrange(tok.vocab_size)
                for _ in range(rng.randrange(0, 40))
            ]
        )
    return out + english_like(tok, rng, english_count)


def test_stream_adds_up_to_decode(tok):
    rng = random.Random(0)
    for ids in sequences(tok, seed=1, english_count=1500):
        outs, rest = stream(tok, ids, random_chunks(rng, len(ids)))
        assert "".join(outs) + rest == tok.decode(ids), ids


def test_decoder_is_reusable_after_finish(tok):
    decoder = StreamDecoder(tok)
    a, b = tok.encode_target(lines("en.txt")[0]), tok.encode_target(lines("zh.txt")[0])
    assert decoder.push(a) + decoder.finish() == tok.decode(a)
    assert decoder.push(b) + decoder.finish() == tok.decode(b)


def test_without_clean_up_everything_decided_is_out(folders):
    # Only whitespace that strip() could still remove may be held back.
    for direction in ("en-zh", "zh-en"):
        folder = folders[direction]
        tok = Tokenizer.from_files(folder / "source.spm", folder / "target.spm", folder / "vocab.json")
        for ids in sequences(tok, seed=2, step=6, random_count=100, english_count=100):
            decoder, shown = StreamDecoder(tok), ""
            for n in range(len(ids)):
                shown += decoder.push(ids[n : n + 1])
                assert shown == tok.decode(ids[: n + 1]), ids[: n + 1]


def test_cjk_is_emitted_by_the_push_that_decides_it(tok):
    for ids in sequences(tok, seed=3, step=6, random_count=100, english_count=0):
        decoder, shown = StreamDecoder(tok), ""
        for n in range(len(ids)):
            shown += decoder.push(ids[n : n + 1])
            assert CJK.findall(shown) == CJK.findall(tok.decode(ids[: n + 1])), ids[: n + 1]


def word_deadline(text: str, clean: bool) -> int:
    """Non-space characters of text that are final: every word followed by " " and another word.

    Under clean-up a space may still vanish when the next word starts like a pattern (" n't",
    " 's", " .") or the word ends with "'" (" ' "); those words may wait, the others may not.
    """
    count = 0
    for m in re.finditer(r"\S+(?= (\S))", text):
        if not clean or (m.group(1) not in ".?!,'n" and not m.group(0).endswith("'")):
            count = len(re.sub(r"\s", "", text[: m.end()]))
    return count


def test_a_word_is_out_once_the_next_word_starts(tok):
    rng = random.Random(4)
    english = [tok.encode_target(t)[:-1] for t in lines("en.txt")[::2]] + english_like(tok, rng, 200)
    for ids in english:
        decoder, shown = StreamDecoder(tok), ""
        for n in range(len(ids)):
            shown += decoder.push(ids[n : n + 1])
            due = word_deadline(tok.decode(ids[: n + 1]), tok.clean_up_tokenization_spaces)
            assert len(re.sub(r"\s", "", shown)) >= due, (ids[: n + 1], shown)


def test_safe_split_property():
    rng = random.Random(5)
    for _ in range(40000):
        s = "".join(rng.choice(CLEANUP_ALPHABET) for _ in range(rng.randrange(1, 10)))
        rest = "".join(rng.choice(CLEANUP_ALPHABET) for _ in range(rng.randrange(0, 8)))
        k = _safe_split(s)
        assert clean_up_tokenization(s + rest) == clean_up_tokenization(s[:k]) + clean_up_tokenization(s[k:] + rest), (
            s,
            rest,
            k,
        )


def test_safe_split_is_eager():
    # Where a replacement provably cannot straddle, the split must be taken.
    rng = random.Random(6)
    for _ in range(40000):
        s = "".join(rng.choice(CLEANUP_ALPHABET) for _ in range(rng.randrange(1, 10)))
        k = _safe_split(s)
        if s[-1] != " " and (s[-1] not in "'nvr" or " " not in s[-3:]):
            assert k == len(s), s  # no pattern continues after s[-1], or none can start close enough
        for m in re.finditer(r"[^ ](?= [^ .?!,'n ])", s):
            if m.group(0) != "'":
                assert k >= m.end(), s  # that space can never be deleted


def test_long_output_is_streamed_in_linear_time(tok):
    # Held-back text stays short, so each push only looks at its own text.
    ids = [i for t in lines("en.txt") + lines("zh.txt") for i in tok.encode_target(t)[:-1]]
    decoder = StreamDecoder(tok)
    longest = 0
    for i in ids:
        decoder.push([i])
        longest = max(longest, len(decoder._pending))
    assert longest < 40
