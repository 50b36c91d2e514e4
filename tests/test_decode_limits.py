"""Hard limits on decoding options: refused with a message naming the bound, or clamped where documented."""

from __future__ import annotations

import math

import pytest
from test_cli import run

from fanyi import limits
from fanyi.engine.options import DecodeOptions
from fanyi.engine.sessions import default_threads, session_options, thread_count

BOUNDED = [  # field, the largest value allowed
    ("beams", limits.MAX_BEAMS),
    ("max_length", limits.MAX_DECODE_LENGTH),
    ("max_new_tokens", limits.MAX_DECODE_LENGTH),
    ("min_length", limits.MAX_DECODE_LENGTH),
    ("no_repeat_ngram_size", limits.MAX_NO_REPEAT_NGRAM),
]


@pytest.mark.parametrize("name, most", BOUNDED, ids=[b[0] for b in BOUNDED])
def test_options_past_their_bound_are_refused_naming_it(name, most):
    DecodeOptions(**{name: most})  # the bound itself is allowed
    for value in (most + 1, 100_000, 10**9):
        with pytest.raises(ValueError, match=rf"^{name} must be an integer from \d+ to {most}, got {value}$"):
            DecodeOptions(**{name: value})


@pytest.mark.parametrize(
    "options",
    [
        dict(beams=0),
        dict(beams=-1),
        dict(beams=True),
        dict(beams=2.0),
        dict(max_length="512"),
        dict(min_length=-1),
        dict(no_repeat_ngram_size=False),
        dict(length_penalty=math.nan),
        dict(length_penalty=math.inf),
        dict(repetition_penalty=-math.inf),
        dict(repetition_penalty=0),
        dict(early_stopping="sometimes"),
    ],
)
def test_malformed_options_are_refused(options):
    with pytest.raises(ValueError):
        DecodeOptions(**options)


def test_threads_are_clamped_to_the_cpus_and_max_threads():
    most = limits.max_threads()
    assert 1 <= most <= limits.MAX_THREADS
    assert thread_count(100_000) == thread_count(10**9) == most
    assert thread_count(most) == most
    assert thread_count(None) == thread_count(0) == thread_count(-3) == default_threads()
    assert session_options(10**9).intra_op_num_threads == most


def test_a_length_past_the_model_positions_is_cut_to_them(tiny_translator):
    """max_length above the model's positions (128 here) must not run the decoder off its position table."""
    positions = tiny_translator.max_source_tokens
    source = tiny_translator.encode(" ".join(["word"] * 40))
    options = DecodeOptions(beams=1, max_length=limits.MAX_DECODE_LENGTH, min_length=limits.MAX_DECODE_LENGTH)
    ids = tiny_translator.generate_ids([source], options)[0]
    assert len(ids) == positions  # min_length keeps it going; the positions stop it (forced eos last)


def test_cli_refuses_huge_beams_and_lengths_in_one_line(tiny_pack):
    for args, bound in (
        (["--beams", "100000"], limits.MAX_BEAMS),
        (["--max-length", "1000000000"], limits.MAX_DECODE_LENGTH),
    ):
        result = run("translate", "--model", str(tiny_pack), *args, "Good morning.")
        assert result.returncode == 2
        assert result.stdout == ""
        # the option as it was typed, the range, and no name of the code's ("limits.MAX_BEAMS")
        assert result.stderr == f"fanyi: {args[0]} must be an integer from 1 to {bound}, not {args[1]}\n"


def test_cli_refuses_a_non_integer_beam_count(tiny_pack):
    result = run("translate", "--model", str(tiny_pack), "--beams", "1e9", "Good morning.")
    assert result.returncode == 2 and "invalid int value: '1e9'" in result.stderr
    assert "Traceback" not in result.stderr


def test_cli_clamps_huge_thread_counts(tiny_pack):
    expected = run("translate", "--model", str(tiny_pack), "--beams", "1", "Good morning.")
    for threads in ("100000", "1000000000"):
        result = run("translate", "--model", str(tiny_pack), "--beams", "1", "--threads", threads, "Good morning.")
        assert result.returncode == 0, result.stderr
        assert result.stdout == expected.stdout
        assert f"not {threads}" in result.stderr
