"""The pytest plugin of the conformance process (``-p tests.conformance.langchain.plugin``).

It stands in for the peer's ``conftest.py`` files (which need langsmith): the renaming
shim is installed before any test module is imported, the fixtures the peer's tests ask
for (``blockbuster``, ``deterministic_uuids``) are defined as the peer defines them,
with our packages in place of ``langchain_core``, and each test's outcome is written as
JSON to the file named by ``--lc-outcomes``. Imported by the main suite only as a module
(its doctest collection): nothing happens until pytest loads it as a plugin.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any
from uuid import UUID

import pytest

from tests.conformance.langchain import shim

SCANNED = ("combinators", "effects")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--lc-outcomes", default=None, help="where to write each test's outcome (JSON)")
    parser.addoption("--lc-excluded", default=None, help="a JSON list of test ids not to run (exact ids)")


def pytest_configure(config: pytest.Config) -> None:
    shim.install()
    config.addinivalue_line("markers", "requires: the peer's marker for tests needing a package")
    config.stash[_outcomes] = {}


_outcomes = pytest.StashKey[dict[str, str]]()


def _test_id(nodeid: str) -> str:
    return nodeid.split("lc_unit_tests/", 1)[-1]


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    report: pytest.TestReport = yield  # type: ignore[misc]
    outcomes = item.config.stash[_outcomes]
    test = _test_id(item.nodeid)
    if report.failed:
        outcomes[test] = "failed"
    elif report.skipped and test not in outcomes:
        outcomes[test] = "skipped"
    elif report.when == "call" and report.passed:
        outcomes[test] = "passed"
    return report  # type: ignore[return-value]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    # Exact ids (pytest's own --deselect matches prefixes: test_each would take test_each_simple).
    listed = config.getoption("--lc-excluded")
    excluded = set(json.loads(Path(listed).read_text())) if listed else set[str]()
    kept = [item for item in items if _test_id(item.nodeid) not in excluded]
    config.stash[_outcomes].update({_test_id(i.nodeid): "excluded" for i in items if _test_id(i.nodeid) in excluded})
    config.hook.pytest_deselected(items=[item for item in items if _test_id(item.nodeid) in excluded])
    items[:] = kept


def pytest_collectreport(report: pytest.CollectReport) -> None:
    if report.failed:
        raise pytest.UsageError(
            f"the peer's test module did not import under the shim: {report.nodeid}\n{report.longrepr}"
        )


def pytest_sessionfinish(session: pytest.Session) -> None:
    target = session.config.getoption("--lc-outcomes")
    if target:
        Path(target).write_text(json.dumps(session.config.stash[_outcomes], indent=1, sort_keys=True))


@pytest.fixture(autouse=True)
def blockbuster() -> Iterator[Any]:
    """Blocking calls made by our packages inside a running event loop fail the test."""
    from blockbuster import blockbuster_ctx

    with blockbuster_ctx(SCANNED) as bb:
        yield bb


@pytest.fixture
def deterministic_uuids(mocker: Any) -> Any:
    side_effect = (UUID(f"00000000-0000-4000-8000-{i:012}", version=4) for i in range(10000))
    return mocker.patch("uuid.uuid4", side_effect=side_effect)
