"""``puzzlesat generate PUZZLE``: new instances, one subcommand per puzzle (their parameters differ)."""
from __future__ import annotations

import click

from ..core.files import write_text_atomic
from ..encoders import get_puzzle

output_option = click.option("-o", "--output", default="-", type=click.Path(dir_okay=False, allow_dash=True),
                             help="Output file (default: stdout).")
seed_option = click.option("--seed", type=int, default=0, show_default=True, help="Random seed (same seed, same puzzle).")


@click.group("generate")
def command() -> None:
    """Generate puzzle instances."""


@command.command("aquarium")
@click.option("--size", type=click.IntRange(min=2), required=True, help="Grid size N (N x N).")
@seed_option
@output_option
def aquarium(size: int, seed: int, output: str) -> None:
    """An N x N aquarium with exactly one solution (proven by the SAT solver).

    \b
    Example:
      puzzlesat generate aquarium --size 50 --seed 1 -o big.txt
    """
    write_text_atomic(output, get_puzzle("aquarium").generate(size, seed))
