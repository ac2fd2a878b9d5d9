"""Sudoku as a puzzlesat puzzle, in a package of its own: registered by the entry point in
pyproject.toml, so `puzzlesat solve sudoku FILE` works once this package is installed, and puzzlesat
itself is not touched. docs/adding-a-puzzle.md walks through it."""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from puzzlesat.core.choices import CARDINALITY_ENCODINGS
from puzzlesat.core.declared import Generator, Option
from puzzlesat.core.encoding import Encoding
from puzzlesat.core.model import CnfModel, SmtModel
from puzzlesat.core.options import EncoderOptions, choice
from puzzlesat.core.puzzle import Puzzle
from puzzlesat.formats.picture import Picture
from puzzlesat.pipeline.tasks import Satisfy

from .check import check as _check
from .instance import SudokuInstance
from .instance import parse as _parse
from .solution import SudokuSolution

if TYPE_CHECKING:
    from pysat.formula import IDPool


@dataclass(frozen=True)
class SudokuOptions(EncoderOptions):
    #: ``pysat.card`` encoding of the CNF's "exactly one" constraints (``puzzlesat ... --cardinality``)
    cardinality: str = choice("seqcounter", CARDINALITY_ENCODINGS)


def _generate(seed: int, deadline: Any, size: int) -> str:
    from .generate import generate

    return generate(size, seed)


class Sudoku(Puzzle[SudokuInstance, SudokuSolution, SudokuOptions]):
    name = "sudoku"
    encodings = ("cnf", "smt")
    options_type = SudokuOptions
    #: a proper Sudoku has one solution: ``solve`` proves it (a second search must be UNSAT)
    task = Satisfy(unique=True)
    #: declared, so every command that reads a Sudoku offers ``--blank`` (core/declared.py)
    reading_options = (Option("blank", str, "Another character that marks a blank cell, besides '.' and '0'."),)
    #: ``puzzlesat generate sudoku``: made by the command line from this declaration
    generator = Generator(
        "A random Sudoku with exactly one solution (proven by the reference search).",
        "Givens are taken away in a random order while the solution stays unique.\n\n\b\nExample:\n"
        "  puzzlesat generate sudoku --size 9 --seed 1 -o s.txt",
        (Option("size", int, "Grid size: 4, 6 or 9.", default=9, choices=(4, 6, 9)),),
        _generate)

    def parse(self, text: str, path: str, blank: str | None = None, **reading: Any) -> SudokuInstance:
        return _parse(text, path, blank)

    def build(self, instance: SudokuInstance, kind: str, options: SudokuOptions, vpool: IDPool) -> Encoding:
        from .encode import encode_cnf, encode_smt

        return encode_cnf(instance, options.cardinality, vpool) if kind == "cnf" else encode_smt(instance)

    def decode(self, instance: SudokuInstance, encoding: Encoding, model: CnfModel | SmtModel) -> SudokuSolution:
        from .encode import decode

        return SudokuSolution(decode(instance, encoding, model))

    def check(self, instance: SudokuInstance, solution: SudokuSolution) -> list[str]:
        return _check(instance, solution)

    def reference(self, instance: SudokuInstance, limit: int | None,
                  options: SudokuOptions | None = None) -> list[SudokuSolution]:
        from .reference import solve_reference

        return solve_reference(instance, limit)

    def picture(self, instance: SudokuInstance, solution: SudokuSolution) -> Picture:
        n = instance.n
        picture = Picture(n + 1, n + 1)
        for r, row in enumerate(solution.digits):
            for c, digit in enumerate(row):
                given = instance.givens[r][c] != 0
                picture.rect(c + 0.5, r + 0.5, 0.96, 0.96, (225, 225, 225) if given else (250, 250, 250))
                picture.label(c + 1, r + 1, str(digit), 0.6, (0, 0, 0) if given else (30, 80, 200))
        return picture


PUZZLE = Sudoku()
