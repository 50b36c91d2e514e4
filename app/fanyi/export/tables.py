"""The tables a model computes rather than stores: sinusoidal positions and rotary cos/sin, the same on every machine.

transformers computes them when a model is built: Marian's sinusoids in float64 numpy, M2M100's and
the rotary embeddings' in float32 torch. Here each step that transformers rounds to float32 is rounded
to float32 too, and each function it applies (exp, pow, sin, cos) is computed once, correctly rounded,
by means that give the same bits on every CPU and platform: Python's decimal for the few frequencies, and
for the many angles a sine and cosine made only of additions and multiplications in float64 (libm's and
numpy's vectorised sin differ between machines in their last bits). A table then differs from torch's by
at most a unit in the last place where torch's own float32 functions are not correctly rounded, and a pack
converted anywhere has the same bytes.
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext

import numpy as np

# π/2 in three parts of 33 bits (fdlibm's pio2_1, pio2_2, pio2_3): k · part is exact for k < 2^20
_PIO2 = (1.57079632673412561417e00, 6.07710050630396597660e-11, 2.02226624871116645580e-21)
_MAX_ANGLE = 2.0**19  # |x| beyond this would lose the exactness of the reduction above
# Taylor coefficients of sin and cos to the 21st/20th power: on |r| ≤ π/4 the first term left out is below 1e-21
_SIN = tuple((-1) ** n / math.factorial(2 * n + 1) for n in range(11))
_COS = tuple((-1) ** n / math.factorial(2 * n) for n in range(11))


def _poly(coefficients: tuple[float, ...], r2: np.ndarray) -> np.ndarray:
    acc = np.full_like(r2, coefficients[-1])
    for c in reversed(coefficients[:-1]):
        acc = acc * r2 + c
    return acc


def sin_cos(angles: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """sin and cos of float64 angles (|x| < 2^19) to about a unit in the last place of float64, with the same
    bits on every machine: range reduction by π/2 in exact steps, then polynomials evaluated in float64."""
    x = np.asarray(angles, np.float64)
    if x.size and float(np.abs(x).max()) >= _MAX_ANGLE:
        raise ValueError("angle out of the range the tables need")
    k = np.rint(x * (2.0 / math.pi))
    r = ((x - k * _PIO2[0]) - k * _PIO2[1]) - k * _PIO2[2]
    r2 = r * r
    s = r * _poly(_SIN, r2)
    c = _poly(_COS, r2)
    quadrant = k.astype(np.int64) & 3
    sin = np.where(quadrant == 0, s, np.where(quadrant == 1, c, np.where(quadrant == 2, -s, -c)))
    cos = np.where(quadrant == 0, c, np.where(quadrant == 1, -s, np.where(quadrant == 2, -c, s)))
    return sin, cos


def _f32(value: Decimal | float) -> np.float32:
    """A value rounded to float32 (through float64, as float(Decimal) rounds correctly)."""
    rounded: np.float32 = np.float32(float(value))
    return rounded


_PRECISION = 40  # significant digits of the exact steps: far beyond float64's 17


def exact_exp(value: float) -> Decimal:
    with localcontext() as ctx:
        ctx.prec = _PRECISION
        return Decimal(value).exp()


def exact_ln(value: float) -> Decimal:
    with localcontext() as ctx:
        ctx.prec = _PRECISION
        return Decimal(value).ln()


def exact_power(base: float, exponent: float) -> Decimal:
    with localcontext() as ctx:
        ctx.prec = _PRECISION
        return (Decimal(exponent) * Decimal(base).ln()).exp()


# --- encoder-decoder positions ---------------------------------------------------------------------
def marian_positions(rows: int, dim: int) -> np.ndarray:
    """MarianSinusoidalPositionalEmbedding: sin of pos / 10000^(2⌊j/2⌋/dim) in the first half, cos in the second,
    computed in float64 and stored as float32."""
    scale = [float(exact_power(10000.0, 2 * (j // 2) / dim)) for j in range(dim)]
    angles = np.arange(rows, dtype=np.float64)[:, None] / np.asarray(scale)[None, :]
    sin, _ = sin_cos(angles[:, 0::2])
    _, cos = sin_cos(angles[:, 1::2])
    half = dim // 2 if dim % 2 == 0 else dim // 2 + 1
    table = np.empty((rows, dim), np.float32)
    table[:, :half] = sin
    table[:, half:] = cos
    return table


def fairseq_positions(rows: int, dim: int, padding_row: int | None) -> np.ndarray:
    """M2M100SinusoidalPositionalEmbedding.get_embedding: float32 frequencies exp(-i·ln(10000)/(half-1)), sin then
    cos of position · frequency, the padding row zero."""
    half = dim // 2
    step = _f32(-float(exact_ln(10000.0)) / (half - 1))
    exponents = (np.arange(half, dtype=np.float32) * step).astype(np.float32)
    frequencies = np.array([_f32(exact_exp(float(e))) for e in exponents], np.float32)
    angles = (np.arange(rows, dtype=np.float32)[:, None] * frequencies[None, :]).astype(np.float32)
    sin, cos = sin_cos(angles.astype(np.float64))
    table = np.zeros((rows, dim), np.float32)
    table[:, :half] = sin
    table[:, half : 2 * half] = cos
    if padding_row is not None:
        table[padding_row] = 0.0
    return table


# --- rotary embeddings -----------------------------------------------------------------------------
def inverse_frequencies(base: float, dim: int, factor: float = 1.0) -> np.ndarray:
    """transformers' 1 / base^(arange(0, dim, 2) / dim) in float32 (base rounded to float32 as torch does with a
    Python number against a float32 tensor), divided by a linear scaling factor."""
    exponents = (np.arange(0, dim, 2, dtype=np.float32) / np.float32(dim)).astype(np.float32)
    base32 = float(np.float32(base))
    powers = np.array([_f32(exact_power(base32, float(e))) for e in exponents], np.float32)
    inv: np.ndarray = (np.float32(1.0) / powers).astype(np.float32)
    if factor != 1.0:
        inv = (inv / np.float32(factor)).astype(np.float32)
    return inv


def rotary_table(inverse: np.ndarray, positions: int, scaling: float = 1.0) -> tuple[np.ndarray, np.ndarray]:
    """cos and sin [positions, dim / 2] of float32 angles position · frequency, times the attention scaling."""
    angles = (np.arange(positions, dtype=np.float32)[:, None] * inverse[None, :]).astype(np.float32)
    sin, cos = sin_cos(angles.astype(np.float64))
    cos32, sin32 = cos.astype(np.float32), sin.astype(np.float32)
    if scaling != 1.0:
        cos32 = (cos32 * np.float32(scaling)).astype(np.float32)
        sin32 = (sin32 * np.float32(scaling)).astype(np.float32)
    return cos32, sin32
