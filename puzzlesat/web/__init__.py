"""``puzzlesat serve``: puzzlesat in a browser, on this machine (issue 73, begun).

A Starlette app (:mod:`.app`) serves a page with no build step (:mod:`puzzlesat.web` ``page/``) and a JSON
API under it. Every job is the command line itself, run as a child process (:mod:`.jobs`): ``solve
--json``, ``explain --from --json``, with the time and memory limits the server sets. So the page's
answers are the command line's, checked the same way, one pipeline; a job's crash, memory or hang ends
that child, never the server; and a job whose limit passes is ended by the command's own supervisor,
which says what it had found.
"""
