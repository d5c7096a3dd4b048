"""An exact reference for f16 and bf16 results: rational arithmetic rounded
once to nearest even, independent of the simulator and of numpy."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

import numpy as np


@dataclass(frozen=True)
class Format:
    """A binary IEEE format: significand bits (with the hidden one) and the
    exponent of its smallest normal number and of its largest finite one."""

    precision: int
    min_exponent: int
    max_exponent: int

    def round(self, value: float | Fraction) -> float:
        """`value` rounded to nearest even (infinity beyond the largest
        finite value plus half an ulp), as a float."""
        if isinstance(value, float) and not math.isfinite(value):
            return value
        exact = Fraction(value)
        if exact == 0:
            return math.copysign(0.0, value) if isinstance(value, float) else 0.0
        magnitude = abs(exact)
        exponent = magnitude.numerator.bit_length() - magnitude.denominator.bit_length()
        while Fraction(2) ** exponent > magnitude:
            exponent -= 1
        while Fraction(2) ** (exponent + 1) <= magnitude:
            exponent += 1
        ulp = Fraction(2) ** (max(exponent, self.min_exponent) - self.precision + 1)
        units, remainder = divmod(magnitude, ulp)
        if remainder > ulp / 2 or (remainder == ulp / 2 and units % 2 == 1):
            units += 1
        rounded = units * ulp
        largest = (2 - Fraction(2) ** (1 - self.precision)) * Fraction(2) ** self.max_exponent
        result = math.inf if rounded > largest else float(rounded)
        return -result if exact < 0 else result


F16 = Format(11, -14, 15)
BF16 = Format(8, -126, 127)


def bf16_bits(values: np.ndarray) -> np.ndarray:
    """The bf16 encodings of float values that bf16 represents exactly."""
    narrow = np.asarray(values, np.float64).astype(np.float32)
    assert np.array_equal(narrow.astype(np.float64), np.asarray(values, np.float64),
                          equal_nan=True)
    return (narrow.view(np.uint32) >> 16).astype(np.uint16)


def bf16_values(bits: np.ndarray) -> np.ndarray:
    """The float64 values of bf16 encodings."""
    return (np.asarray(bits, np.uint32) << 16).view(np.float32).astype(np.float64)
