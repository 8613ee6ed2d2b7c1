"""Type tests as data: the case files in ``cases/`` checked by mypy --strict and pyright strict.

Each checker runs ONCE over the whole ``cases/`` folder (module-scoped fixture, both
started concurrently); every expectation written in the case files is then one test
item per checker. The comment grammar (see ``README.md`` next to this file)::

    reveal_type(expr)  # R: Runnable[int, str]            same type for both checkers
    reveal_type(expr)  # R-mypy: X  # R-pyright: Y         when their spellings differ
    return bad  # type: ignore[operator]  # E: operator / reportOperatorIssue, ...
    return bad  # pyright: ignore[reportFoo]  # E: - / reportFoo     (pyright only)

``E: <mypy codes> / <pyright rules>`` is the expected error. The suppression comment is
required so that the project-wide ``make typecheck`` (whose mypy ``files`` and pyright
``include`` contain ``tests/typesafety``) stays green on the case files:

* mypy runs with the project config and ``--warn-unused-ignores``: an expected code
  that is not reported shows up as ``unused-ignore``, any other code on that line is
  reported as usual. So "nothing reported on an E line" means "exactly those codes".
* pyright runs with a config generated from ``[tool.pyright]`` plus
  ``enableTypeIgnoreComments = false``, so it reports its rules on ``# type: ignore``
  lines and the test compares them with the E marker. On ``# pyright: ignore[...]``
  lines pyright itself reports an unnecessary rule.

Any other diagnostic in a case file (an error on a line that should be clean, a note,
a second reveal) fails. Diagnostics in library modules are left to ``make typecheck``.

``messages.py`` (no suppression comments; ``make typecheck`` skips it) pins what a user
reads: ``# M-mypy: <text>`` / ``# M-pyright: <text>`` is part of that checker's first error
on the line (in column order), a second marker for the same checker part of its second.

Set ``COMBINATORS_SKIP_TYPESAFETY=1`` to skip this module (it runs by default).
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import tokenize
import tomllib
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal, cast

import pytest

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
CASES = HERE / "cases"
APP = HERE / "app"
"""A small typed application: it must check cleanly (its ``mistakes.py`` is counted apart)."""
MESSAGES = HERE / "messages.py"
"""Typical mistakes and the errors each checker reports first on them."""
MESSAGES_FILE = str(MESSAGES.relative_to(ROOT))
SKIP_ENV = "COMBINATORS_SKIP_TYPESAFETY"
TIMEOUT_SECONDS = 600

pytestmark = pytest.mark.skipif(
    os.environ.get(SKIP_ENV, "") not in ("", "0"),
    reason=f"{SKIP_ENV} is set",
)

Checker = Literal["mypy", "pyright"]
CHECKERS: tuple[Checker, ...] = ("mypy", "pyright")

# ---------------------------------------------------------------------- the case files

_REVEAL = re.compile(r"#\s*R(?:-(mypy|pyright))?:\s*([^#]+?)\s*(?=#|$)")
_ERROR = re.compile(r"#\s*E:\s*([^#/]*?)\s*/\s*([^#]*?)\s*(?=#|$)")
_TYPE_IGNORE = re.compile(r"#\s*type:\s*ignore(?:\[([^\]]*)\])?")
_PYRIGHT_IGNORE = re.compile(r"#\s*pyright:\s*ignore(?:\[([^\]]*)\])?")
_MESSAGE = re.compile(r"#\s*M-(mypy|pyright):\s*(.*?)\s*(?=#\s*M-|$)")


def _names(text: str) -> frozenset[str]:
    """``"a, b"`` -> ``{"a", "b"}``; ``"-"`` (none) -> ``{}``."""
    return frozenset(n.strip() for n in text.split(",") if n.strip() and n.strip() != "-")


@dataclass(frozen=True)
class Expectation:
    """What one line of a case file expects from each checker."""

    file: str
    line: int
    source: str
    reveals_call: bool
    reveal: Mapping[Checker, str] = field(default_factory=dict[Checker, str])
    errors: Mapping[Checker, frozenset[str]] | None = None
    type_ignore: frozenset[str] | None = None
    pyright_ignore: frozenset[str] | None = None

    @property
    def where(self) -> str:
        return f"{self.file}:{self.line}"


def _comments(source: str) -> dict[int, str]:
    """Line number -> the comment on that line (tokenized, so ``#`` in strings is skipped)."""
    found: dict[int, str] = {}
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type == tokenize.COMMENT:
            found[token.start[0]] = token.string
    return found


def _reveal_lines(source: str) -> set[int]:
    """Lines that call ``reveal_type(...)``."""
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    return {
        token.start[0]
        for token, after in zip(tokens, tokens[1:], strict=False)
        if token.type == tokenize.NAME and token.string == "reveal_type" and after.string == "("
    }


def parse_case_file(path: Path) -> list[Expectation]:
    """Every line of ``path`` that carries an expectation or calls ``reveal_type``."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    comments = _comments(source)
    reveal_calls = _reveal_lines(source)
    out: list[Expectation] = []
    for number in sorted(set(comments) | reveal_calls):
        comment = comments.get(number, "")
        reveal: dict[Checker, str] = {}
        for which, text in _REVEAL.findall(comment):
            targets: tuple[Checker, ...] = CHECKERS if which == "" else (cast(Checker, which),)
            for checker in targets:
                reveal[checker] = text
        errors: dict[Checker, frozenset[str]] | None = None
        if (match := _ERROR.search(comment)) is not None:
            errors = {"mypy": _names(match.group(1)), "pyright": _names(match.group(2))}
        type_ignore = pyright_ignore = None
        if (match := _TYPE_IGNORE.search(comment)) is not None:
            type_ignore = _names(match.group(1) or "")
        if (match := _PYRIGHT_IGNORE.search(comment)) is not None:
            pyright_ignore = _names(match.group(1) or "")
        if not (reveal or errors or type_ignore is not None or pyright_ignore is not None) and (
            number not in reveal_calls
        ):
            continue
        out.append(
            Expectation(
                file=path.name,
                line=number,
                source=lines[number - 1].strip(),
                reveals_call=number in reveal_calls,
                reveal=reveal,
                errors=errors,
                type_ignore=type_ignore,
                pyright_ignore=pyright_ignore,
            )
        )
    return out


@dataclass(frozen=True)
class MessageExpectation:
    """Parts of the first errors (in column order) each checker reports on one line."""

    line: int
    source: str
    texts: Mapping[Checker, tuple[str, ...]]

    @property
    def where(self) -> str:
        return f"{MESSAGES.name}:{self.line}"


def parse_messages(path: Path) -> list[MessageExpectation]:
    """Every line of ``path`` with ``# M-<checker>:`` markers."""
    source = path.read_text(encoding="utf-8")
    lines = source.splitlines()
    out: list[MessageExpectation] = []
    for number, comment in sorted(_comments(source).items()):
        texts: dict[Checker, tuple[str, ...]] = {}
        for which, text in _MESSAGE.findall(comment):
            checker = cast(Checker, which)
            texts[checker] = (*texts.get(checker, ()), text)
        if texts:
            out.append(MessageExpectation(number, lines[number - 1].strip(), texts))
    return out


def case_files() -> list[Path]:
    return sorted(CASES.glob("*.py"))


EXPECTATIONS: list[Expectation] = [e for path in case_files() for e in parse_case_file(path)]
MESSAGE_EXPECTATIONS: list[MessageExpectation] = parse_messages(MESSAGES)


def malformed(e: Expectation) -> list[str]:
    """Why the comments on this line are inconsistent (empty when they are fine)."""
    problems: list[str] = []
    if e.reveals_call and not e.reveal:
        problems.append("reveal_type without an '# R: <type>' expectation")
    if e.reveal and not e.reveals_call:
        problems.append("'# R:' expectation on a line without reveal_type")
    if e.reveal and set(e.reveal) != set(CHECKERS):
        problems.append("give '# R:' or both '# R-mypy:' and '# R-pyright:'")
    if e.reveal and e.errors is not None:
        problems.append("a line expects either a revealed type or an error, not both")
    if e.errors is None:
        if e.type_ignore is not None or e.pyright_ignore is not None:
            problems.append("suppression comment without an '# E: codes / rules' marker")
        return problems
    mypy_codes, pyright_rules = e.errors["mypy"], e.errors["pyright"]
    if not pyright_rules:
        problems.append(
            "a mypy-only error cannot be written: pyright (make typecheck) would report the"
            " '# type: ignore' as unnecessary; document the difference in a comment instead"
        )
    if mypy_codes:
        if e.type_ignore != mypy_codes:
            problems.append(f"needs '# type: ignore[{', '.join(sorted(mypy_codes))}]'")
        if e.pyright_ignore is not None:
            problems.append("'# pyright: ignore' next to '# type: ignore' is reported as unnecessary")
    else:
        if e.type_ignore is not None:
            problems.append("'# type: ignore' on a line where mypy expects no error")
        if e.pyright_ignore != pyright_rules:
            problems.append(f"needs '# pyright: ignore[{', '.join(sorted(pyright_rules))}]'")
    return problems


# ---------------------------------------------------------------------- the checkers


@dataclass(frozen=True)
class Diagnostic:
    checker: Checker
    file: str
    line: int
    severity: str
    rule: str | None
    message: str
    in_cases: bool = True
    column: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.severity}: {self.message} [{self.rule}]"

    @property
    def is_reveal(self) -> bool:
        return self.severity in ("note", "information") and self.revealed is not None

    @property
    def revealed(self) -> str | None:
        pattern = _MYPY_REVEALED if self.checker == "mypy" else _PYRIGHT_REVEALED
        match = pattern.match(self.message)
        return None if match is None else match.group(1)


_MYPY_REVEALED = re.compile(r'^Revealed type is "(.*)"$', re.DOTALL)
_PYRIGHT_REVEALED = re.compile(r'^Type of ".*" is "(.*)"$', re.DOTALL)
_QUALIFIER = re.compile(r"\b(?:[A-Za-z_]\w*\.)+(?=[A-Za-z_])")


def normalise_type(text: str) -> str:
    """``combinators.runnable.composing.Runnable[builtins.int, typing.Iterator[str]]`` ->
    ``Runnable[int, Iterator[str]]``; whitespace collapsed."""
    return " ".join(_QUALIFIER.sub("", text).split()).replace("[ ", "[").replace(" ]", "]")


def _where(path: Path) -> tuple[str, bool]:
    """A case file's name (and True), or another file's path relative to the project."""
    resolved = path.resolve()
    if resolved.parent == CASES:
        return resolved.name, True
    try:
        return str(resolved.relative_to(ROOT)), False
    except ValueError:
        return str(resolved), False


def _record(value: object) -> dict[str, object]:
    assert isinstance(value, dict), value
    return cast(dict[str, object], value)


def _int(value: object) -> int:
    assert isinstance(value, int), value
    return value


def parse_mypy(stdout: str) -> list[Diagnostic]:
    found: list[Diagnostic] = []
    for raw in stdout.splitlines():
        if not raw.startswith("{"):
            continue
        record = _record(json.loads(raw))
        file, in_cases = _where(ROOT / str(record["file"]))
        message = str(record["message"])
        if record.get("hint"):
            message += f"\n{record['hint']}"
        code = record.get("code")
        found.append(
            Diagnostic(
                checker="mypy",
                file=file,
                line=_int(record["line"]),
                severity=str(record["severity"]),
                rule=None if code is None else str(code),
                message=message,
                in_cases=in_cases,
                column=_int(record.get("column", 0)),
            )
        )
    return found


def parse_pyright(stdout: str) -> list[Diagnostic]:
    report = _record(json.loads(stdout))
    found: list[Diagnostic] = []
    diagnostics = report.get("generalDiagnostics", [])
    assert isinstance(diagnostics, list)
    for item in cast(list[object], diagnostics):
        record = _record(item)
        file, in_cases = _where(Path(str(record["file"])))
        start = _record(_record(record["range"])["start"])
        rule = record.get("rule")
        found.append(
            Diagnostic(
                checker="pyright",
                file=file,
                line=_int(start["line"]) + 1,
                severity=str(record["severity"]),
                rule=None if rule is None else str(rule),
                message=str(record["message"]),
                in_cases=in_cases,
                column=_int(start["character"]),
            )
        )
    return found


def pyright_config(directory: Path) -> Path:
    """The project's ``[tool.pyright]`` with absolute paths and ``# type: ignore`` disabled."""
    with (ROOT / "pyproject.toml").open("rb") as handle:
        project = _record(tomllib.load(handle))
    tool = _record(project.get("tool", {}))
    config = dict(_record(tool.get("pyright", {})))
    config.pop("include", None)
    config.pop("exclude", None)
    stub_path = str(config.get("stubPath", "typings"))
    config["stubPath"] = str(ROOT / stub_path)
    extra = config.get("extraPaths", [])
    assert isinstance(extra, list)
    config["extraPaths"] = [str(ROOT), *(str(ROOT / str(p)) for p in cast(list[object], extra))]
    config["enableTypeIgnoreComments"] = False
    path = directory / "pyrightconfig.json"
    path.write_text(json.dumps(config, indent=2), encoding="utf-8")
    return path


@dataclass(frozen=True)
class Run:
    checker: Checker
    command: Sequence[str]
    returncode: int
    stdout: str
    stderr: str

    def describe(self) -> str:
        return (
            f"{' '.join(self.command)} exited {self.returncode}\n"
            f"--- stdout ---\n{self.stdout[-4000:]}\n--- stderr ---\n{self.stderr[-4000:]}"
        )


def _start(command: Sequence[str]) -> subprocess.Popen[str]:
    return subprocess.Popen(
        list(command),
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"},
    )


def run_checkers(config_dir: Path) -> dict[Checker, Run]:
    """Both checkers over the whole ``cases/`` folder, once each, concurrently."""
    cases = str(CASES)
    app = [str(p) for p in sorted(APP.glob("*.py")) if p.name not in ("mistakes.py", "count_mistakes.py")]
    commands: dict[Checker, list[str]] = {
        "mypy": [
            sys.executable,
            "-m",
            "mypy",
            "--config-file",
            str(ROOT / "pyproject.toml"),
            "--warn-unused-ignores",
            # A cache of its own: a warm project cache spells some revealed types differently
            # (a ParamSpec's ``...`` read back from the cache as ``[*Any, **Any]``).
            "--cache-dir",
            str(config_dir / "mypy-cache"),
            "--output",
            "json",
            cases,
            *app,
            str(MESSAGES),
        ],
        "pyright": [
            str(Path(sys.executable).parent / "pyright"),
            "--pythonpath",
            sys.executable,
            "--project",
            str(pyright_config(config_dir)),
            "--outputjson",
            cases,
            *app,
            str(MESSAGES),
        ],
    }
    processes: dict[Checker, subprocess.Popen[str]] = {
        checker: _start(command) for checker, command in commands.items()
    }
    runs: dict[Checker, Run] = {}
    for checker, process in processes.items():
        try:
            stdout, stderr = process.communicate(timeout=TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            stdout, stderr = process.communicate()
        runs[checker] = Run(checker, commands[checker], process.returncode, stdout, stderr)
    return runs


@pytest.fixture(scope="module")
def diagnostics(tmp_path_factory: pytest.TempPathFactory) -> dict[Checker, list[Diagnostic]]:
    runs = run_checkers(tmp_path_factory.mktemp("pyright-config"))
    parsed: dict[Checker, list[Diagnostic]] = {}
    mypy, pyright = runs["mypy"], runs["pyright"]
    # mypy exits 0 when clean, 1 on errors (maybe in a library module), 2 on a crash or bad usage.
    if mypy.returncode not in (0, 1) or (mypy.returncode == 1 and '{"file"' not in mypy.stdout):
        pytest.fail(f"mypy did not run:\n{mypy.describe()}")
    parsed["mypy"] = parse_mypy(mypy.stdout)
    # pyright exits 0 when clean, 1 on errors, 2 fatal, 3 config error, 4 bad command line.
    if pyright.returncode not in (0, 1):
        pytest.fail(f"pyright did not run:\n{pyright.describe()}")
    parsed["pyright"] = parse_pyright(pyright.stdout)
    for checker, found in parsed.items():
        # A checker that revealed nothing in the cases did not get to check them (a
        # blocking error in a library module, say): fail with why, not with a missing
        # reveal on every case.
        if not any(d.in_cases and d.is_reveal for d in found):
            elsewhere = "\n".join(f"  {d}" for d in found if not d.in_cases)
            pytest.fail(f"{checker} checked no case file; other diagnostics:\n{elsewhere}")
        # Library modules are make typecheck's business; the cases and the app are this module's.
        app_noise = [d for d in found if d.file.startswith("tests/typesafety/app/")]
        messages = [d for d in found if d.file == MESSAGES_FILE]
        parsed[checker] = [d for d in found if d.in_cases] + app_noise + messages
    return parsed


def _context(where: str, checker: Checker, source: str, reported: Iterable[str]) -> str:
    """A failed expectation's line and what the checker reported on it."""
    shown = "\n".join(f"  {r}" for r in reported) or "  (nothing)"
    return f"{where} [{checker}]: {source}\n{checker} reported:\n{shown}"


def _on_line(found: Mapping[Checker, list[Diagnostic]], checker: Checker, file: str, line: int) -> list[Diagnostic]:
    return [d for d in found[checker] if d.file == file and d.line == line]


# ---------------------------------------------------------------------- the tests


def test_case_files_exist_and_are_well_formed() -> None:
    assert case_files(), f"no case files in {CASES}"
    problems = [f"{e.where}: {p}\n    {e.source}" for e in EXPECTATIONS for p in malformed(e)]
    assert not problems, "malformed case lines:\n" + "\n".join(problems)


def _params() -> Iterator[object]:
    for e in EXPECTATIONS:
        if e.reveal or e.errors is not None:
            for checker in CHECKERS:
                yield pytest.param(e, checker, id=f"{e.where}-{checker}")


@pytest.mark.parametrize(("expectation", "checker"), list(_params()))
def test_case_line(
    expectation: Expectation,
    checker: Checker,
    diagnostics: dict[Checker, list[Diagnostic]],
) -> None:
    e = expectation
    got = _on_line(diagnostics, checker, e.file, e.line)
    context = _context(e.where, checker, e.source, (str(d) for d in got))
    if e.reveal:
        reveals = [d for d in got if d.is_reveal]
        others = [d for d in got if not d.is_reveal]
        assert not others, f"unexpected diagnostics on a reveal line\n{context}"
        assert len(reveals) == 1, f"expected one revealed type\n{context}"
        actual = normalise_type(reveals[0].revealed or "")
        expected = normalise_type(e.reveal[checker])
        assert actual == expected, f"revealed {actual!r}, expected {expected!r}\n{context}"
        return
    assert e.errors is not None
    if checker == "mypy" or e.pyright_ignore is not None:
        # Suppressed on purpose; the checker itself reports a wrong or missing code
        # (mypy: unused-ignore / the uncovered code, pyright: unnecessary ignore rule).
        assert not got, f"expected error not as declared\n{context}"
        return
    errors = [d for d in got if d.severity == "error"]
    rules = frozenset(d.rule or "<no rule>" for d in errors)
    assert rules == e.errors["pyright"], (
        f"expected pyright rules {sorted(e.errors['pyright'])}, got {sorted(rules)}\n{context}"
    )
    assert len(errors) == len(got), f"unexpected non-error diagnostics\n{context}"


@pytest.mark.parametrize("checker", CHECKERS)
def test_no_diagnostics_outside_expectations(checker: Checker, diagnostics: dict[Checker, list[Diagnostic]]) -> None:
    expected_lines = {(e.file, e.line) for e in EXPECTATIONS if e.reveal or e.errors is not None} | {
        (MESSAGES_FILE, m.line) for m in MESSAGE_EXPECTATIONS
    }
    stray = [d for d in diagnostics[checker] if (d.file, d.line) not in expected_lines]
    assert not stray, f"{checker} reported diagnostics on lines that expect none:\n" + "\n".join(
        f"  {d}" for d in stray
    )


def test_message_lines_are_well_formed() -> None:
    assert MESSAGE_EXPECTATIONS, f"no '# M-<checker>:' markers in {MESSAGES}"
    one_sided = [m.where for m in MESSAGE_EXPECTATIONS if set(m.texts) != set(CHECKERS)]
    assert not one_sided, f"give both '# M-mypy:' and '# M-pyright:' on {', '.join(one_sided)}"


@pytest.mark.parametrize(
    ("expectation", "checker"),
    [pytest.param(m, c, id=f"{m.where}-{c}") for m in MESSAGE_EXPECTATIONS for c in CHECKERS],
)
def test_first_errors_read_as_written(
    expectation: MessageExpectation,
    checker: Checker,
    diagnostics: dict[Checker, list[Diagnostic]],
) -> None:
    m = expectation
    got = _on_line(diagnostics, checker, MESSAGES_FILE, m.line)
    errors = sorted((d for d in got if d.severity == "error"), key=lambda d: d.column)
    shown = (f"{d.column}: {normalise_type(d.message)} [{d.rule}]" for d in errors)
    context = _context(m.where, checker, m.source, shown)
    wanted = m.texts[checker]
    assert len(errors) >= len(wanted), f"expected {len(wanted)} error(s)\n{context}"
    for position, (text, error) in enumerate(zip(wanted, errors), start=1):
        assert normalise_type(text) in normalise_type(error.message), (
            f"error {position} does not read {text!r}\n{context}"
        )


@pytest.mark.parametrize("checker", CHECKERS)
def test_the_typed_application_checks_cleanly(checker: Checker, diagnostics: dict[Checker, list[Diagnostic]]) -> None:
    found = [d for d in diagnostics[checker] if d.file.startswith("tests/typesafety/app/")]
    assert not found, f"{checker} reported on the typed application (a false positive):\n" + "\n".join(
        f"  {d}" for d in found
    )


def test_most_mistakes_against_the_application_are_caught() -> None:
    from tests.typesafety.app import count_mistakes

    names = list(count_mistakes.functions())
    assert len(names) == 82
    # documented limits (see mistakes.py and tests/typesafety/README.md)
    limits = {"m22", "m27", "m30", "m31", "reads_a_key_assign_never_added", "misspelled_template_variable"}
    for checker, lines in (("mypy", count_mistakes.mypy_lines()), ("pyright", count_mistakes.pyright_lines())):
        caught = set(count_mistakes.caught(lines))
        assert len(caught) >= 0.9 * len(names), f"{checker} caught only {len(caught)} of {len(names)}"
        known = limits | ({"parallel_branches_take_different_inputs"} if checker == "mypy" else set[str]())
        assert set(names) - caught <= known, f"{checker} missed {sorted(set(names) - caught - known)}"
        assert {n for n in names if n.startswith("misspelled_import_from_")} <= caught
