"""Run LangChain's own unit tests against this library, in a process of their own.

``python -m tests.conformance.langchain.run`` takes the pinned langchain-core sdist
from the package index (``pip download``, cached in ``$COMBINATORS_CONFORMANCE_CACHE``
or ``~/.cache/combinators-conformance``), lays the test files of ``FILES`` out in a
temporary directory (``tests.unit_tests`` renamed ``lc_unit_tests``: our own ``tests``
package keeps its name), runs pytest on them with the renaming shim
(``plugin.py``), and prints the count against ``applicable.py``. Nothing of the sdist is
ever written into the repository.

``--prune`` drops the listed failures that now pass (and rewrites the README);
``--lay-out DIR`` only lays the tests out in DIR and prints the pytest command (to
debug one test by hand). ``--write-outcomes FILE`` keeps each test's outcome; ``--list-failures`` prints the
failing applicable tests that ``applicable.EXPECTED_FAILURES`` does not name.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from tests.conformance.langchain.applicable import (
    EXCLUDED,
    FILES,
    PINNED,
    Tally,
    failures_markdown,
    tally,
)

REPO = Path(__file__).resolve().parents[3]
SUPPORT = ("__init__.py", "pydantic_utils.py", "prompt_file.txt")
OURS = Path(__file__).parent


def cache_dir() -> Path:
    default = Path.home() / ".cache" / "combinators-conformance"
    return Path(os.environ.get("COMBINATORS_CONFORMANCE_CACHE", default))


def sdist_tests() -> Path:
    """The sdist's ``tests/unit_tests``, downloaded once and unpacked in the cache."""
    cache = cache_dir()
    unpacked = cache / f"langchain_core-{PINNED}"
    tests = unpacked / "tests" / "unit_tests"
    if tests.is_dir():
        return tests
    cache.mkdir(parents=True, exist_ok=True)
    archive = cache / f"langchain_core-{PINNED}.tar.gz"
    if not archive.exists():
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", "--no-binary", ":all:"]
            + ["--dest", str(cache), f"langchain-core=={PINNED}"],
            check=True,
        )
    with tarfile.open(archive) as tar:
        tar.extractall(cache, filter="data")
    return tests


def lay_out(source: Path, target: Path) -> None:
    """The test files under ``target/lc_unit_tests``, with the data files they read."""
    package = target / "lc_unit_tests"
    for name in SUPPORT:
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(source / name, package / name)
    # The peer's stubs set ids on built messages; ours build them with the id (frozen values).
    shutil.copy(OURS / "stubs.py", package / "stubs.py")
    for file in FILES:
        destination = package / file
        destination.parent.mkdir(parents=True, exist_ok=True)
        (destination.parent / "__init__.py").touch()
        text = (source / file).read_text()
        destination.write_text(text.replace("tests.unit_tests", "lc_unit_tests"))
    # The peer reads its data both beside the tests and from its own working directory.
    shutil.copytree(source / "data", package / "data")
    shutil.copytree(source / "data", target / "tests" / "unit_tests" / "data")
    (target / "pytest.ini").write_text(
        "[pytest]\nasyncio_mode = auto\nasyncio_default_fixture_loop_scope = function\n"
        "filterwarnings =\n    ignore::DeprecationWarning\n"
    )


def pytest_command(where: Path, outcomes_file: Path) -> tuple[list[str], dict[str, str]]:
    """The pytest command (run in ``where``) and its environment."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(REPO), str(where)]), "LANGSMITH_TRACING": "false"}
    command = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "no:randomly"]
    command += ["-p", "tests.conformance.langchain.plugin", f"--lc-outcomes={outcomes_file}"]
    command += ["--rootdir", str(where), "-c", str(where / "pytest.ini")]
    excluded = where / "excluded.json"
    excluded.write_text(json.dumps(sorted(EXCLUDED)))
    command += [f"--lc-excluded={excluded}"]
    return command, env


def run(outcomes_file: Path) -> dict[str, str]:
    """Each test's outcome ("passed", "failed" or "skipped"), by its id."""
    source = sdist_tests()
    with tempfile.TemporaryDirectory(prefix="lc-conformance-") as tmp:
        lay_out(source, Path(tmp))
        command, env = pytest_command(Path(tmp), outcomes_file)
        subprocess.run([*command, "--tb=no", "lc_unit_tests"], cwd=tmp, env=env, check=False, stdout=subprocess.DEVNULL)
    return dict(json.loads(outcomes_file.read_text()))


README = REPO / "tests" / "conformance" / "README.md"
FAILURES_START = "<!-- failures: written by python -m tests.conformance.langchain.run --readme -->"
FAILURES_END = "<!-- end of failures -->"


def write_readme() -> None:
    """Replace the README's failures section with ``failures_markdown()``."""
    text = README.read_text()
    head, _, rest = text.partition(FAILURES_START)
    _, _, tail = rest.partition(FAILURES_END)
    README.write_text(f"{head}{FAILURES_START}\n{failures_markdown()}{FAILURES_END}{tail}")


def prune(passing: list[str]) -> None:
    """Drop ``passing`` from ``EXPECTED_FAILURES`` in applicable.py, then rewrite the README."""
    import importlib

    from tests.conformance.langchain import applicable

    path = Path(applicable.__file__)
    lines = path.read_text().splitlines(keepends=True)
    path.write_text("".join(line for line in lines if not any(line.startswith(f'    "{t}":') for t in passing)))
    importlib.reload(applicable)
    globals()["failures_markdown"] = applicable.failures_markdown
    write_readme()


def main(argv: list[str] | None = None) -> Tally:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--write-outcomes", type=Path, default=None)
    parser.add_argument("--list-failures", action="store_true")
    parser.add_argument(
        "--readme", action="store_true", help="rewrite the failures section of tests/conformance/README.md"
    )
    parser.add_argument("--prune", action="store_true", help="drop listed failures that now pass, then --readme")
    parser.add_argument("--lay-out", type=Path, default=None, help="only lay the tests out there and print the command")
    options = parser.parse_args(argv)
    if options.readme:
        write_readme()
        raise SystemExit(0)
    if options.lay_out:
        lay_out(sdist_tests(), options.lay_out)
        command, env = pytest_command(options.lay_out, options.lay_out / "outcomes.json")
        print(f"cd {options.lay_out} && PYTHONPATH={env['PYTHONPATH']} {' '.join(command)} lc_unit_tests")
        raise SystemExit(0)
    with tempfile.TemporaryDirectory() as tmp:
        outcomes = run(Path(tmp) / "outcomes.json")
    if options.write_outcomes:
        options.write_outcomes.write_text(json.dumps(outcomes, indent=1, sort_keys=True) + "\n")
    result = tally(outcomes)
    print(result.summary())
    if options.prune:
        prune(result.unexpected_passes)
    if options.list_failures:
        for test in result.unexpected_failures:
            print("unexpected failure:", test)
        for test in result.unexpected_passes:
            print("passes, listed as failing:", test)
    return result


if __name__ == "__main__":
    main()
