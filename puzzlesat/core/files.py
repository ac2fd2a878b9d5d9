"""Reading inputs and writing outputs safely: atomic writes, ``-`` for stdin/stdout."""
from __future__ import annotations

import os
import sys
import tempfile

from .errors import PuzzlesatError


def read_text(path: str) -> str:
    """Read a whole input file (``-`` = stdin) with a one-line error when it cannot be read."""
    try:
        if path == "-":
            return sys.stdin.read()
        with open(path, encoding="utf-8", newline="") as handle:
            return handle.read()
    except FileNotFoundError:
        raise PuzzlesatError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise PuzzlesatError(f"{path}: is a directory, not a file") from None
    except UnicodeDecodeError as exc:
        raise PuzzlesatError(f"{path}: not a UTF-8 text file (byte {exc.start})") from None
    except OSError as exc:
        raise PuzzlesatError(f"{path}: cannot read ({exc.strerror})") from None


def write_text_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` through a temporary file and a rename, so that an interrupted or
    failed run never leaves a half-written output. ``-`` writes to stdout."""
    if path == "-":
        sys.stdout.write(text)
        sys.stdout.flush()
        return
    write_bytes_atomic(path, text.encode("utf-8"))


def write_bytes_atomic(path: str, data: bytes) -> None:
    """The atomic write behind :func:`write_text_atomic`, for binary files such as pictures."""
    directory = os.path.dirname(os.path.abspath(path))
    try:
        fd, tmp = tempfile.mkstemp(dir=directory, prefix=".puzzlesat-", suffix=".tmp")
    except OSError as exc:
        raise PuzzlesatError(f"{path}: cannot write ({exc.strerror})") from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes it private; give it a normal file's mode
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _umask() -> int:
    """The process's umask (reading it means setting it, so it is set straight back)."""
    mask = os.umask(0)
    os.umask(mask)
    return mask
