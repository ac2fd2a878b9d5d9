"""What a user of the published package has: the wheel, installed away from the source tree.

The wheel is built from a copy of the project (without network: no build isolation), installed into a
directory of its own, and every example of every ``--help`` is run from an empty working directory, so
an ``instances/...`` path can only be the bundled copy inside the installed package."""
from __future__ import annotations

import gzip
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import INSTANCES

ROOT = INSTANCES.parent

#: the commands and subcommands whose --help shows examples
HELPS = [[], ["backends"], ["bench"], ["count"], ["crosscheck"], ["decode"], ["export"], ["solve"],
         ["generate"], ["generate", "aquarium"], ["generate", "jigsaw"], ["generate", "jig"],
         ["generate", "amphipod"], ["generate", "dice"]]

#: exit codes that mean success for an example: 10 and 20 are a solver's SAT and UNSAT (``cadical`` and
#: ``solve --competition``)
SUCCESS = (0, 10, 20)


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    """The environment of a shell that runs the installed wheel's ``puzzlesat`` (PYTHONPATH and PATH
    point at the wheel's install directory only)."""
    base = tmp_path_factory.mktemp("wheel")
    source = base / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "puzzlesat", source / "puzzlesat", ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "--no-index", "-q",
                    "-w", str(base / "dist"), str(source)], check=True, capture_output=True)
    wheel = next((base / "dist").glob("puzzlesat-*.whl"))
    target = base / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "-q", "--target", str(target),
                    str(wheel)], check=True, capture_output=True)
    env = dict(os.environ, PYTHONPATH=str(target), PATH=f"{target / 'bin'}{os.pathsep}{os.environ['PATH']}")
    where = subprocess.run([sys.executable, "-c", "import puzzlesat; print(puzzlesat.__file__)"], env=env,
                           capture_output=True, text=True, check=True, cwd=base).stdout
    assert where.startswith(str(target)), f"the installed wheel is not the package imported: {where}"
    return env


def examples(env: dict[str, str]) -> list[str]:
    """Every example line of every --help, in order, as the installed package prints them."""
    lines: list[str] = []
    for args in HELPS:
        text = subprocess.run(["puzzlesat", *args, "--help"], env=env, capture_output=True, text=True, check=True).stdout
        block = text.split("Example:", 1)[1] if "Example:" in text else ""
        for line in block.splitlines()[1:]:
            if not line.startswith("    "):
                break
            if line.strip() not in lines:
                lines.append(line.strip())
    return lines


def test_the_wheel_carries_the_bundled_instances(installed):
    packaged = Path(installed["PYTHONPATH"]) / "puzzlesat" / "instances"
    assert sorted(p.relative_to(packaged) for p in packaged.rglob("*") if p.is_file()) == \
        sorted(p.relative_to(INSTANCES.resolve()) for p in INSTANCES.resolve().rglob("*") if p.is_file())


def test_every_help_example_runs_from_an_installed_wheel(installed, tmp_path):
    """Each example runs in an empty directory outside the source tree, one after the other (``decode``
    reads what ``export`` and ``cadical`` wrote). The two files a user brings of their own (``formula.cnf.gz``,
    ``my-cnfs/``) are made first, from an export."""
    lines = examples(installed)
    assert len(lines) >= 20, lines
    assert any("instances/" in line for line in lines)
    needed = {word for line in lines for word in re.findall(r"(?:^|&& )(\w[\w-]*)", line)} - {"puzzlesat"}
    missing = [tool for tool in needed if shutil.which(tool, path=installed["PATH"]) is None]
    if missing and not os.environ.get("PUZZLESAT_REQUIRE_TOOLS"):
        pytest.skip(f"the examples run {', '.join(missing)}, not installed here (make solvers)")
    subprocess.run(["puzzlesat", "export", "aquarium", "instances/aquarium/pa-6x6-easy-681742.txt", "-o", "f.cnf", "-q"],
                   env=installed, cwd=tmp_path, check=True)
    (tmp_path / "formula.cnf.gz").write_bytes(gzip.compress((tmp_path / "f.cnf").read_bytes()))
    (tmp_path / "my-cnfs").mkdir()
    shutil.copy(tmp_path / "formula.cnf.gz", tmp_path / "my-cnfs")
    # decode reads the answer that cadical wrote for the export: the export's lines run first
    lines.sort(key=lambda line: line.startswith("puzzlesat decode"))
    for line in lines:
        done = subprocess.run(["bash", "-c", line], env=installed, cwd=tmp_path, capture_output=True, text=True,
                              timeout=120)
        assert done.returncode in SUCCESS, f"{line}\n{done.stderr[-2000:]}"
        assert "Traceback" not in done.stderr, f"{line}\n{done.stderr}"
    assert not (tmp_path / "instances").exists()
    assert shlex.split(lines[-1])[:2] == ["puzzlesat", "decode"]


def test_the_sdist_and_the_wheel_pass_twine_check_strict(tmp_path):
    """What an index would be given: ``python -m build`` (without network: no build isolation) makes both,
    and ``twine check --strict`` accepts their metadata and README as an index would render it."""
    source = tmp_path / "source"
    source.mkdir()
    for name in ("pyproject.toml", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, source / name)
    shutil.copytree(ROOT / "puzzlesat", source / "puzzlesat", ignore=shutil.ignore_patterns("__pycache__"))
    subprocess.run([sys.executable, "-m", "build", "--no-isolation", "--outdir", str(tmp_path / "dist"), str(source)],
                   check=True, capture_output=True)
    built = sorted(path.name for path in (tmp_path / "dist").iterdir())
    assert sorted(name.rsplit(".", 1)[-1] for name in built) == ["gz", "whl"], built
    checked = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", *sorted((tmp_path / "dist").iterdir())],
                             capture_output=True, text=True)
    assert checked.returncode == 0 and checked.stdout.count("PASSED") == 2, checked.stdout + checked.stderr


def test_readmes_commands_run_from_an_installed_wheel_in_an_empty_folder(installed, tmp_path):
    """README's console examples, as a user of the wheel types them in an empty folder (``instances/...``
    is the bundled copy inside the package), print what README shows; those that run a tool not
    installed here, or read the repository's ``examples/`` (a plug-in's files), are left out."""
    from .examples import ROOT as REPOSITORY
    from .examples import blocks, output_matches, tools_missing, transcript

    run = 0
    for block in blocks(REPOSITORY / "README.md"):
        if block.info != "console":
            continue
        pairs = transcript(block)
        if any(tools_missing(command) or "examples/" in command for command, _ in pairs):
            continue
        here = tmp_path / f"block-{block.line}"
        here.mkdir()
        for command, shown in pairs:
            done = subprocess.run(["bash", "-c", command], env=installed | {"NO_COLOR": "1", "COLUMNS": "80"}, cwd=here,
                                  stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, timeout=300)
            assert output_matches(shown, done.stdout.splitlines()), f"$ {command}\n{done.stdout}"
            run += 1
        assert not (here / "instances").exists()
    assert run >= 5, "README's commands were all left out"
