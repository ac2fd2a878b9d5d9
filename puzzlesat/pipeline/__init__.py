"""The orchestration between the surfaces (command line, Python API, cross-check, bench, cube and conquer,
executors) and the encoders: one implementation per task, which every surface calls.

Its modules import one way, in this order, with no cycle (tests/test_layers.py checks it, imports made
for type checking included):

- :mod:`.report`: the frozen :class:`~.report.Report` a task returns, and the claims' certificates;
- :mod:`.optimize`: the optimisation methods as strategy objects (RC2, descent, Z3 Optimize, an outside
  MaxSAT solver), each declaring the formula and the backends it takes;
- :mod:`.request`: the frozen :class:`~.request.Request`, resolved once from names;
- :mod:`.steps`: read, decode and check, count one formula;
- :mod:`.satisfy`: find a solution and prove it unique;
- :mod:`.crosscheck`: run a cross-check's methods and mark the rows;
- :mod:`.plans`: which methods a cross-check runs, built from a task's own solve, count and reference;
- :mod:`.parts`: an instance of independent parts solved part by part, and the reports joined;
- :mod:`.tasks`: the tasks (satisfy, optimise; dice brings its own), owning solve, count, the
  cross-check plan and the reference's answers, and :func:`~.tasks.solve`/:func:`~.tasks.count`/
  :func:`~.tasks.crosscheck`, which the surfaces call;
- :mod:`.cubes`, :mod:`.executors`, :mod:`.bench`: cube and conquer, where tasks run, benchmarks.

One import crosses the layers the other way, for type checking only: ``core.puzzle`` names the type of
a puzzle's ``task`` (:class:`~.tasks.Task`). A puzzle holds its task, and the task works on puzzles;
the alternative, a protocol in ``core`` that repeats the task's methods, would be a second description
of one interface to keep in step. No run-time import goes that way.

Importing this package imports none of its modules, so that a command pays only for what it uses.
"""
