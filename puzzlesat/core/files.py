"""Reading inputs and writing outputs safely.

- Inputs are read whole, at most :data:`MAX_INPUT_BYTES` (``/dev/zero`` is refused, not swallowed) but
  formula files (as large as ``--max-memory`` allows, as solvers read them), as
  UTF-8 with or without a byte-order mark; ``-`` is stdin. A gzip, bzip2, xz or lzma input (told by its
  first bytes) is read uncompressed, as solvers read ``.cnf.gz``; at most the same size once unpacked.
  Every input read is remembered, so that a command never writes over its own input.
- A regular output file is replaced atomically (a temporary file beside it, then a rename), so that an
  interrupted run never leaves a half-written file; a symbolic link is followed and its target replaced,
  the link kept. Anything else (``-``, a device such as ``/dev/null`` or ``/dev/full``, a FIFO,
  ``/dev/stdout``) is written through: renaming over it would replace the device with a plain file.
- Several outputs that belong together (an export and its variable map) are published together: all
  written first, the stale companions removed, then renamed in order, so an interruption can leave a
  companion missing but never one that disagrees with its file.
- A full disk is :class:`DiskFull` (exit code 6), with the file named.
"""
from __future__ import annotations

import errno
import os
import stat
import sys
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from .bundled import located

if TYPE_CHECKING:
    from .puzzle import Puzzle
from .errors import DiskFull, PuzzlesatError
from .reporting import announce_temp

#: the largest input read (puzzle files and solver outputs alike): far above any real puzzle
MAX_INPUT_BYTES = 64 << 20

_inputs: set[tuple[int, int]] = set()
_stdin_text: str | None = None


def preload_stdin(limit: int | None = MAX_INPUT_BYTES) -> None:
    """Read stdin now: the supervisor does this for a terminal before its worker starts (a worker in
    a background process group cannot read a terminal); a pipe or a file is read by the worker, under
    the command's time and memory limits."""
    global _stdin_text
    _stdin_text = _decode(sys.stdin.buffer.read(-1 if limit is None else limit + 1), "-", limit)


def instance_text(puzzle: Puzzle[Any, Any, Any], path: str) -> str:
    """An instance argument's text: the argument itself where the puzzle takes it inline
    (:meth:`~puzzlesat.core.puzzle.Puzzle.inline`: a URL is the puzzle it spells, even where a file of
    that relative path exists, since the report names the URL), else the file's."""
    if path != "-" and puzzle.inline(path):
        return path
    return read_text(path, puzzle.max_input_bytes)


def read_text(path: str, limit: int | None = MAX_INPUT_BYTES) -> str:
    """Read a whole input file (``-`` = stdin) with a one-line error when it cannot be read. A missing
    ``instances/...`` path is the bundled example of that name (:mod:`.bundled`). ``limit`` caps its
    size, compressed or not (None: a formula file, as large as ``--max-memory`` lets it be)."""
    global _stdin_text
    if path == "-":
        if _stdin_text is None:
            preload_stdin(limit)
        text, _stdin_text = _stdin_text or "", None
        return text
    try:
        with open(located(path), "rb") as handle:
            info = os.fstat(handle.fileno())
            if stat.S_ISDIR(info.st_mode):
                raise IsADirectoryError
            _inputs.add((info.st_dev, info.st_ino))
            data = handle.read(-1 if limit is None else limit + 1)
    except FileNotFoundError:
        raise PuzzlesatError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise PuzzlesatError(f"{path}: is a directory, not a file") from None
    except OSError as exc:
        raise PuzzlesatError(f"{path}: cannot read ({exc.strerror})") from None
    return _decode(data, path, limit)


#: compressed inputs, told by their first bytes (so stdin and any file name work), as solvers read
#: them (MiniSat, CaDiCaL, PySAT's ``CNF(from_file=...)``): gzip, bzip2, xz and the older lzma
_COMPRESSED = ((b"\x1f\x8b", "gzip"), (b"BZh", "bzip2"), (b"\xfd7zXZ\x00", "xz"), (b"\x5d\x00\x00", "lzma"))


def _decompressed(data: bytes, path: str, limit: int | None) -> bytes:
    """``data`` uncompressed when it starts like a compressed file, at most ``limit`` + 1 bytes of it
    (a small file may unpack to gigabytes; None: no limit but memory's). The standard library's
    readers take concatenated members (``cat a.gz b.gz``) in one linear pass, and gzip's skips the
    zeros that tape-blocked files are padded with, as gzip itself does."""
    kind = next((name for magic, name in _COMPRESSED if data.startswith(magic)), None)
    if kind is None:
        return data
    import bz2
    import gzip
    import io
    import lzma

    source = io.BytesIO(data)
    reader: Any = (gzip.GzipFile(fileobj=source) if kind == "gzip" else bz2.BZ2File(source) if kind == "bzip2"
                   else lzma.LZMAFile(source))
    try:
        with reader:
            return bytes(reader.read(-1 if limit is None else limit + 1))
    except EOFError:
        raise PuzzlesatError(f"{path}: a {kind} file cut short") from None
    except (OSError, ValueError, lzma.LZMAError) as exc:
        raise PuzzlesatError(f"{path}: not a valid {kind} file ({str(exc)[:80]})") from None


def _decode(data: bytes, path: str, limit: int | None) -> str:
    data = _decompressed(data, path, limit)
    if limit is not None and len(data) > limit:
        raise PuzzlesatError(f"{path}: larger than {limit >> 20} MiB, far beyond any puzzle input")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise PuzzlesatError(f"{path}: not a UTF-8 text file (byte {exc.start})") from None


def write_text_atomic(path: str, text: str) -> None:
    """Write ``text`` to ``path`` (see the module's rules); ``-`` writes to stdout."""
    if path == "-":
        sys.stdout.flush()
        try:
            _write_all(sys.stdout.fileno(), text.encode("utf-8"))
        except OSError as exc:
            if isinstance(exc, BrokenPipeError):
                raise
            raise _write_error("stdout", exc) from None
        return
    write_bytes_atomic(path, text.encode("utf-8"))


def _write_all(fd: int, data: bytes) -> None:
    """Write every byte to ``fd``. (Python's buffered stdout can take a pipe's partial write for the
    whole and drop the rest without an error when the reader has gone; ``os.write`` reports EPIPE.)"""
    view = memoryview(data)
    while view:
        view = view[os.write(fd, view):]


def write_bytes_atomic(path: str, data: bytes) -> None:
    """The write behind :func:`write_text_atomic`, for binary files such as pictures."""
    publish([(path, data)])


def publish(outputs: list[tuple[str, bytes]]) -> None:
    """Write files that belong together: every temporary file first, then the stale files removed
    (all but the first), then the renames in order. Non-regular targets are written through. The
    removes and renames of files that belong together hold an exclusive lock on their directories, so
    that two commands publishing to the same paths (an export and its map) leave one's files or the
    other's, never one file of each."""
    staged: list[tuple[str, str, str]] = []  # (temporary file, final path, the path as given)
    current = outputs[0][0]  # the output an error is about
    try:
        for current, data in outputs:
            target = _target(current)
            if target is None:
                _write_through(current, data)
            else:
                staged.append((_stage(current, target, data), target, current))
        with _locked(sorted({os.path.dirname(target) for _, target, _ in staged}) if len(staged) > 1 else []):
            for _, target, current in staged[1:]:
                _remove(target)
            for tmp, target, current in staged:
                os.replace(tmp, target)
    except BrokenPipeError:
        raise
    except OSError as exc:
        raise _write_error(current, exc) from None
    finally:
        for tmp, _, _ in staged:
            _remove(tmp)


@contextmanager
def _locked(directories: list[str]) -> Iterator[None]:
    """Hold ``flock`` on each directory (in sorted order: two publishers cannot wait on each other).
    Nothing is created for it, so no lock file is left beside the outputs."""
    import fcntl  # here: only a command that publishes files together pays for it

    handles: list[int] = []
    try:
        for directory in directories:
            handles.append(os.open(directory, os.O_RDONLY | os.O_DIRECTORY))
            fcntl.flock(handles[-1], fcntl.LOCK_EX)
        yield
    finally:
        for handle in handles:
            os.close(handle)  # closing releases the lock


def writes_a_file(path: str) -> bool:
    """Whether writing ``path`` makes or replaces a regular file (not ``-``, a device or a FIFO)."""
    return path != "-" and _target(path) is not None


def check_writable(directory: str) -> None:
    """Create ``directory`` if needed and prove that files can be written there (a command that writes
    only at its end checks this first, so that a bad path does not cost the work)."""
    try:
        os.makedirs(directory or ".", exist_ok=True)
        with tempfile.TemporaryFile(dir=directory or "."):
            pass
    except OSError as exc:
        raise _write_error(directory, exc) from None


def _target(path: str) -> str | None:
    """Where an atomic write renames to (a link's target), or ``None`` to write through."""
    try:
        info = os.stat(path)
    except FileNotFoundError:
        return os.path.realpath(path)
    except OSError as exc:
        raise _write_error(path, exc) from None
    if not stat.S_ISREG(info.st_mode):
        return None
    if (info.st_dev, info.st_ino) in _inputs:
        raise PuzzlesatError(f"{path}: is an input of this command; refusing to write over it")
    return os.path.realpath(path)


def _stage(path: str, target: str, data: bytes) -> str:
    """Write ``data`` to a new temporary file beside ``target``. Its name is announced to the supervisor
    before the file exists, so that no moment leaves a file the supervisor does not know of."""
    tmp = os.path.join(os.path.dirname(target), f".puzzlesat-{os.getpid()}-{os.urandom(6).hex()}.tmp")
    announce_temp(tmp)
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)  # the umask applies, as to any file
    except OSError as exc:
        raise _write_error(path, exc) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
    except BaseException:  # a full disk, an interruption: no half-written temporary file stays
        _remove(tmp)
        raise
    return tmp


def _write_through(path: str, data: bytes) -> None:
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o666)
    try:
        _write_all(fd, data)
    finally:
        os.close(fd)


def _remove(path: str) -> None:
    try:
        os.unlink(path)
    except OSError:
        pass


def _write_error(path: str, exc: OSError) -> PuzzlesatError:
    if exc.errno in (errno.ENOSPC, errno.EDQUOT):
        return DiskFull(f"{path}: cannot write: no space left on the device")
    return PuzzlesatError(f"{path}: cannot write ({exc.strerror})")

