"""A plug-in's puzzle as puzzlesat hands it out: a copy whose methods turn the plug-in's faults into one
line naming its entry point and method (:class:`~puzzlesat.core.plugins.PluginFailed`, exit 2), never an
internal error; puzzlesat's own errors and the stops (time, memory, signals) pass as they are."""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from ..core.errors import PuzzlesatError
from ..core.plugins import PUZZLE_GROUP, PluginFailed, registered, said
from ..core.puzzle import Puzzle


def _is_instance(result: Any) -> str | None:
    return "None, not an instance" if result is None else None


def _is_encoding(result: Any) -> str | None:
    from ..core.encoding import Encoding

    return None if isinstance(result, Encoding) else f"a {type(result).__name__}, not an Encoding"


def _is_solution(result: Any) -> str | None:
    missing = [name for name in ("render", "answers", "to_json") if not callable(getattr(result, name, None))]
    return f"a {type(result).__name__}, not a solution (no {', '.join(missing)})" if missing else None


def _is_sentences(result: Any) -> str | None:
    if isinstance(result, list) and all(isinstance(item, str) for item in result):
        return None
    return f"a {type(result).__name__}, not a list of sentences (one per broken rule; [] when none)"


def _is_list(result: Any) -> str | None:
    return None if isinstance(result, list) else f"a {type(result).__name__}, not a list of solutions"


def _is_picture(result: Any) -> str | None:
    from ..formats.picture import Picture

    return None if isinstance(result, Picture) else f"a {type(result).__name__}, not a Picture"


def _is_text(result: Any) -> str | None:
    return None if isinstance(result, str) else f"a {type(result).__name__}, not a str"


#: the methods of a plug-in's puzzle that the pipeline calls, each with what it must return (a check
#: that names what is wrong, None: anything it returns is taken)
_CONTRACTS: dict[str, Callable[[Any], str | None] | None] = {
    "parse": _is_instance, "build": _is_encoding, "decode": _is_solution, "check": _is_sentences,
    "reference": _is_list, "picture": _is_picture, "spell": _is_text, "facts": None, "forced": None,
    "search_count": None, "search_solution": None, "reference_counts": None, "parts": None, "joined": None,
    "count_variants": None, "lower_bounds": None, "reading_notes": None, "inline": None}


def guarded(puzzle: Puzzle[Any, Any, Any], name: str) -> Puzzle[Any, Any, Any]:
    """A copy of a plug-in's puzzle whose methods (:data:`_CONTRACTS`) and generator turn a fault into
    :class:`PluginFailed` naming the entry point and the method: puzzlesat's own errors (a parse's one
    line about its file) and the stops (time, memory, signals) pass as they are. It pickles as its
    name (a Dask worker loads the plug-in itself)."""
    import copy
    import dataclasses
    from importlib import import_module

    where = f"{PUZZLE_GROUP} entry point '{name}' ({registered(PUZZLE_GROUP)[name].value})"
    base = type(puzzle)

    def guard(method: str, call: Callable[..., Any], contract: Callable[[Any], str | None] | None) -> Callable[..., Any]:
        def guarded_call(*args: Any, **kwargs: Any) -> Any:
            try:
                result = call(*args, **kwargs)
            except (PuzzlesatError, MemoryError):
                raise
            except (Exception, SystemExit) as exc:
                raise PluginFailed(f"{where}: {method}() raised {said(exc)}") from None
            problem = contract(result) if contract is not None else None
            if problem is not None:
                raise PluginFailed(f"{where}: {method}() returned {problem}")
            return result
        return guarded_call

    def method_of(method: str, contract: Callable[[Any], str | None] | None) -> Callable[..., Any]:
        original = getattr(base, method)
        return lambda self, *args, **kwargs: guard(method, lambda: original(self, *args, **kwargs), contract)()

    # only what the plug-in defines (puzzlesat's own defaults need no guard, and the pipeline tells what a
    # puzzle offers by whether it overrides a method: a search of its own, forced cells)
    namespace: dict[str, Any] = {method: method_of(method, contract) for method, contract in _CONTRACTS.items()
                                 if callable(getattr(base, method, None))
                                 and getattr(base, method) is not getattr(Puzzle, method, None)}
    namespace["__reduce__"] = lambda self: (import_module("puzzlesat.encoders").get_puzzle, (name,))
    namespace["__module__"], namespace["__qualname__"] = base.__module__, base.__qualname__
    copied = copy.copy(puzzle)
    copied.__class__ = type(base.__name__, (base,), namespace)
    generator = getattr(puzzle, "generator", None)
    if generator is not None:
        vars(copied)["generator"] = dataclasses.replace(generator, make=guard("generator.make", generator.make, _is_text))
    return copied
