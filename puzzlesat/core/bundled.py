"""The example instances that ship inside the package, named as in the source tree: ``instances/...``.

Every ``--help`` example and README command names a bundled file by its path in the repository
(``instances/aquarium/pa-6x6-easy-681742.txt``), where ``instances`` is a link to ``puzzlesat/instances``.
A user who installed the wheel has no such directory; for them a relative path under ``instances/`` that
does not exist in the working directory is the bundled copy. A file or directory of that name in the
working directory always comes first, so nobody's own ``instances/`` is shadowed, and a working directory
with an ``instances`` of its own reads only its own.
"""
from __future__ import annotations

import os
from pathlib import Path

#: the bundled instances, inside the installed package
ROOT = Path(__file__).resolve().parent.parent / "instances"
#: how a path names them: the repository's own spelling
PREFIX = "instances/"


def located(path: str) -> str:
    """``path`` itself when it exists, does not name a bundled instance, or the working directory has
    an ``instances`` of its own (then a file missing from it is missing, not silently the bundled
    copy); else the bundled copy's path."""
    if not path.startswith(PREFIX) or os.path.lexists(path) or os.path.lexists(PREFIX.rstrip("/")):
        return path
    bundled = ROOT / path.removeprefix(PREFIX)
    return str(bundled) if bundled.exists() else path
