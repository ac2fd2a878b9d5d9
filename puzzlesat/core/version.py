"""The one place puzzlesat's version is written: ``pyproject.toml`` reads it from here, the package
re-exports it as ``puzzlesat.__version__``, and every layer that prints it (JSON outputs, ``--version``)
imports it from here, not upwards from the package."""

__version__ = "0.2.0"
