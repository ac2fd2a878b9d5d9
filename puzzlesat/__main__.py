"""``python -m puzzlesat``: the ``puzzlesat`` console script, for an environment whose scripts are not on
PATH (a venv not activated, ``pip install --user``)."""
from __future__ import annotations

from .entry import main

main()
