"""puzzlesat: logic puzzles as SAT and SMT problems, solved by any backend, checked independently.

The package is layered (README, "Architecture"): ``core`` <- ``formats`` <- ``backends`` <- the pipeline
(``request``, ``solving``, ``optimize``, ``crosscheck``, ``bench``, ``tasks``) <- ``encoders`` <- ``cli``. Importing it imports
nothing else, so that the command line's start-up pays only for what a command uses.
"""

#: the one place the version is written (pyproject.toml reads it from here)
__version__ = "0.2.0"
