"""Sphinx configuration of puzzlesat's documentation site (``make docs``).

The docstrings are reST (``:param name:`` fields), read by autodoc alone: napoleon, which reads Google
and NumPy sections that no docstring here has, split every ``#:`` attribute comment at its first colon
into a type and a text ("Type: the backend asked (a portfolio's name").

Why Sphinx (with MyST, sphinx-click and myst-nb) rather than MkDocs: the pages stay Markdown, the API
reference comes from the docstrings by autodoc (PySAT's own site is Sphinx, so its objects link the
same way), sphinx-click renders the click commands as they are, and myst-nb executes the notebook page
with the same Python the tests use. ``-W`` turns every warning into an error, so a stale
cross-reference, a missing page or a notebook cell that raises fails the build.

The pictures the pages show are made by the build (:func:`make_pictures`), by the command line itself.
"""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from puzzlesat import __version__

DOCS = Path(__file__).resolve().parent
ROOT = DOCS.parent

project = "puzzlesat"
author = "The puzzlesat developers"
release = version = __version__
copyright = "the puzzlesat developers, MIT licence"

extensions = [
    "myst_nb",  # Markdown pages (MyST) and the executed notebook page
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx_click",
]
source_suffix = {".md": "myst-nb", ".ipynb": "myst-nb"}
exclude_patterns = ["_build", "_generated", "Thumbs.db", ".DS_Store", "puzzles.md"]  # puzzles.md: included by each puzzle's page
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3
# the design notes are a record kept as it was written (headings jump levels in places)
suppress_warnings = ["myst.header"]

nb_execution_mode = "force"
nb_execution_raise_on_error = True
nb_execution_timeout = 300

autodoc_member_order = "bysource"
autodoc_typehints = "description"
autodoc_default_options = {"members": True}

html_theme = "furo"
html_title = f"puzzlesat {version}"
html_static_path: list[str] = []


def make_pictures() -> None:
    """The pictures the pages show, drawn by the installed command line from bundled instances (so a
    change of the drawing code shows on the site at the next build)."""
    out = DOCS / "_generated"
    out.mkdir(exist_ok=True)
    puzzlesat = str(Path(sys.executable).parent / "puzzlesat")
    runs = {
        "aquarium.svg": ["solve", "aquarium", "instances/aquarium/pa-6x6-easy-681742.txt"],
        "jigsaw.svg": ["solve", "jigsaw", "instances/aoc/2020-20/example.txt"],
        "jig.svg": ["solve", "jig", "instances/jig/matt5x5.jig"],
        "amphipod.svg": ["solve", "amphipod", "instances/aoc/2021-23/example.txt", "--backend", "glucose4"],
        "dice.svg": ["solve", "dice", "instances/aoc/2021-21/example.txt"],
        "explain-aquarium.svg": ["explain", "aquarium", "instances/aquarium/pa-6x6-hard-1001841.txt"],
        "hint-aquarium.svg": ["explain", "aquarium", "instances/aquarium/pa-6x6-easy-681742.txt", "--from",
                              "instances/aquarium/pa-6x6-easy-681742.marks"],
    }
    for name, args in runs.items():
        target = out / name
        subprocess.run([puzzlesat, *args, "--quiet", "--svg", str(target)], cwd=ROOT, check=True,
                       stdout=subprocess.DEVNULL)


def option_tables() -> None:
    """Each built-in puzzle's declared options (core/declared.py) as the Markdown its page includes: the
    same declarations the command line builds its flags from."""
    from puzzlesat.encoders import builtin_names, get_puzzle

    out = DOCS / "_generated"
    out.mkdir(exist_ok=True)
    every = []
    for name in builtin_names():
        puzzle = get_puzzle(name)
        sections = [("Reading options (every command that reads a file)", puzzle.reading_options),
                    ("Formula options (`export` and `decode`)", puzzle.formula_options),
                    (f"`puzzlesat generate {name}`", puzzle.generator.parameters if puzzle.generator else ())]
        lines = []
        for title, options in sections:
            if options:
                lines += [f"**{title}**", "", "| option | type | default | what it does |", "|---|---|---|---|"]
                lines += [f"| `{option.spelling}` | {option.type.__name__} | "
                          f"{'' if option.default is None or option.type is bool else option.default} | "
                          f"{option.help.replace('|', '/')} |" for option in options]
                lines.append("")
        (out / f"options-{name}.md").write_text("\n".join(lines) or "This puzzle takes no options of its own.\n")
        every.append(f"### {name}\n\n" + ("\n".join(lines) or "No options of its own.\n"))
    (out / "options-all.md").write_text("\n".join(every))


def examples_as_code(app: object, ctx: object, lines: list[str]) -> None:
    """A command's "Example:" block, which click keeps line by line in ``--help`` (``\\b``), as a code
    block on the site (sphinx-click made it a line block of prose: a pasted line carried its dashes as
    typography, and the prompt-less lines read as text)."""
    out: list[str] = []
    in_example = False
    for line in lines:
        if line.startswith("| ") and line[2:].strip() in ("Example:", "Examples:"):
            out += [line[2:].strip(), "", ".. code-block:: shell", ""]
            in_example = True
        elif in_example and line.startswith("| "):
            out.append("   " + line[2:].strip())
        else:
            in_example = in_example and line.startswith("| ")
            out.append(line)
    lines[:] = out


def puzzles_listed(app: object, ctx: object, lines: list[str]) -> None:
    """Under a command that takes a PUZZLE, what PUZZLE may be, the plug-ins marked, as ``--help`` says
    it (sphinx-click renders the command's docstring, not the help text click formats)."""
    from puzzlesat.cli.options import PuzzleName, puzzles_in_words

    if any(isinstance(param.type, PuzzleName) for param in ctx.command.params):  # type: ignore[attr-defined]
        lines += ["", puzzles_in_words(), ""]


#: docutils' "smart quotes" turned every "--backends" in the generated references into an en dash, which a
#: pasted command then carried ("Got unexpected extra arguments (–backends ...)")
smartquotes = False


def setup(app: object) -> None:
    make_pictures()
    option_tables()
    app.connect("sphinx-click-process-description", examples_as_code)  # type: ignore[attr-defined]
    app.connect("sphinx-click-process-description", puzzles_listed)  # type: ignore[attr-defined]
