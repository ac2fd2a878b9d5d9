"""The process machinery, apart from the core types: every command runs in a supervised worker
(:mod:`.supervisor`), independent work runs in killable forked workers (:mod:`.runner`), every child
dies with its parent (:mod:`.children`). The worker's side of the supervision, what it reports, is
:mod:`puzzlesat.core.reporting`, which the core types use without this package.

A layer of its own, above ``core`` and below everything else (tests/test_layers.py).
"""
