"""Literal weights of weighted model counting, kept exact.

The model counting competition's weighted formats (``c t wmc``, ``c t pwmc``) give a literal a weight
with a line ``c p weight LIT W 0``. A model's weight is the product of the weights of its literals (of
the shown variables only, in a projected count); the weighted count is the sum over the models. A
weight is written as a decimal (``0.3``, ``-1.5e-3``) or a fraction (``1/3``), and puzzlesat keeps it a
:class:`~fractions.Fraction`: a sum of products of decimals is exact as a fraction, where floating
point would round it (Ganak's own tests ask for ``143/840``, a weight that no float holds).

A variable with no weight line weighs 1 on both literals (Ganak's README); one weighted on a single
literal has its other literal weigh ``1 - w`` (Ganak's test ``weight_defaults.cnf``: a weight alone
reads as a probability).
"""
from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from fractions import Fraction
from math import prod

#: the answer label of a weighted count (beside the count of models, ``solutions``)
WEIGHTED_COUNT = "weighted count"

#: a weight as the formats write it: an integer, a decimal with an optional exponent, or a fraction
_WEIGHT = re.compile(r"[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?(?:/\d+)?")
#: the largest exponent a decimal weight may have: 10^±1000 is already past every counter's field
MAX_EXPONENT = 1000


def parse_weight(token: str) -> Fraction:
    """The exact value of a weight token; ValueError (its message the reason) for anything else."""
    if not _WEIGHT.fullmatch(token):
        raise ValueError(f"'{token[:30]}' is not a weight (a decimal such as 0.3 or 1e-3, or a fraction such as 1/3)")
    number, _, denominator = token.partition("/")
    mantissa, _, exponent = number.lower().partition("e")
    if exponent and abs(int(exponent)) > MAX_EXPONENT:
        raise ValueError(f"'{token[:30]}': the exponent is past ±{MAX_EXPONENT}")
    if denominator and ("." in number or exponent):
        raise ValueError(f"'{token[:30]}': a fraction is two integers, such as 1/3")
    if denominator and int(denominator) == 0:
        raise ValueError(f"'{token[:30]}' divides by zero")
    value = Fraction(mantissa) * Fraction(10) ** int(exponent or 0)
    return value / int(denominator) if denominator else value


def weight_text(value: Fraction) -> str:
    """A weight or weighted count written exactly: as a decimal where it has a finite one of at most 30
    digits (``1.9``, ``-0.25``, ``12``), else as a fraction (``143/840``); :func:`parse_weight` reads
    it back to the same value."""
    denominator = value.denominator
    twos = fives = 0
    while denominator % 2 == 0:
        denominator //= 2
        twos += 1
    while denominator % 5 == 0:
        denominator //= 5
        fives += 1
    places = max(twos, fives)
    if denominator != 1 or places > 30:
        return f"{value.numerator}/{value.denominator}"
    if not places:
        return str(value.numerator)
    scaled = abs(value.numerator) * 10 ** places // value.denominator
    digits = str(scaled).rjust(places + 1, "0")
    return f"{'-' if value < 0 else ''}{digits[:-places]}.{digits[-places:]}"


def completed(given: Mapping[int, Fraction]) -> dict[int, Fraction]:
    """Both literals' weights of every variable ``given`` weighs: a literal whose complement has no
    weight of its own weighs ``1 - w``."""
    weights = dict(given)
    for literal, weight in given.items():
        weights.setdefault(-literal, 1 - weight)
    return weights


def model_weight(weights: Mapping[int, Fraction], true_literals: Iterable[int]) -> Fraction:
    """The weight of a model given by its literals: the product of theirs (a literal with no weight
    weighs 1)."""
    return prod((weights.get(lit, Fraction(1)) for lit in true_literals), start=Fraction(1))


def weighted_label(label: str) -> str:
    """The answer label of the weighted count beside the count ``label``: :data:`WEIGHTED_COUNT` for a
    formula's one count (``solutions``)."""
    return WEIGHTED_COUNT if label == "solutions" else f"weighted {label}"
