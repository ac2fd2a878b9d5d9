"""Edge-matching tilings, shared by jigsaw (AoC 2020 day 20) and jig (tab types).

Both puzzles place every piece once on a grid, each in one of a set of orientations, so that touching
sides fit. A puzzle reduces itself to a :class:`TilingProblem` (oriented variants with side keys) and
gets the exact-one cover encoding, the decoder and the solver-free backtracking reference from here.
"""
