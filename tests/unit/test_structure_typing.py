"""The three typing rules of CONTRIBUTING ("Typing rules"), checked over combinators/ and effects/.

1. No ``cast`` of a name right after a check narrowed it: use the ``effects.guards`` that
   narrow to a precise type (``is_list``, ``is_dict``, ``is_mapping``, ...) instead.
2. ``AnyRunnable`` (``Runnable[Never, object]``) for a runnable that is held, described or
   passed on; ``Runnable[Any, Any]`` only where code runs it on values it cannot type.
3. ``**kwargs: object`` for keyword arguments passed through; ``**kwargs: Any`` only where
   a signature is the peer's (LangChain's author hooks, its callback handlers and Runnable
   overrides) or the keywords are forwarded to a callee with typed keyword parameters.

Rules 1 and 2 hold existing code to a ceiling per file (``CAST_AFTER_CHECK``,
``RUNNABLE_ANY_ANY``): a new file has none, a file never gains one, and whoever removes
some lowers its number here. Rule 3 is checked exactly.
"""

from __future__ import annotations

import ast
import collections
import pathlib
import re

ROOT = pathlib.Path(__file__).resolve().parents[2]

NARROWING_CHECKS = frozenset(
    {"isinstance", "is_a", "is_mapping", "is_str_mapping", "is_list", "is_dict", "is_list_of", "is_list_or_tuple"}
)

CAST_AFTER_CHECK: dict[str, int] = {
    "combinators/_support/reprs.py": 2,
    "combinators/components/memory/with_history.py": 1,
    "combinators/components/prompts/chat_prompt.py": 2,
    "effects/projections/jsonable.py": 3,
    "effects/projections/shapes.py": 1,
}
"""Rule 1's ceilings (51 casts on 2026-12-02, 46 after the run log's): only ever lowered."""

RUNNABLE_ANY_ANY: dict[str, int] = {
    "combinators/_support/coerce.py": 1,
    "combinators/integrations/serving/options.py": 1,
    "combinators/nodes/sequence.py": 1,
    "combinators/runnable/call_spec.py": 1,
    "combinators/runnable/calls.py": 1,
    "combinators/runnable/fluent.py": 2,
}
"""Rule 2's ceilings (62 on 2026-12-02): only ever lowered."""

PEER_HOOKS = frozenset({"_generate", "_agenerate", "_stream", "_astream", "_run", "_arun"})
"""LangChain's author hooks, spelled with ``**kwargs: Any`` there: a port's override matches."""

PEER_SIGNATURES = ("combinators/integrations/langchain/",)
"""Rooms whose classes implement langchain-core's own callback and Runnable methods."""

FORWARDED: dict[tuple[str, str], str] = {
    ("combinators/_support/declared.py", "__init_subclass__"): "object.__init_subclass__ and attrs' class keywords",
}
"""Rule 3's forwarding functions, each with the callee that types the keywords."""


def _sources() -> list[tuple[str, str]]:
    return [
        (path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8"))
        for package in ("combinators", "effects")
        for path in sorted((ROOT / package).rglob("*.py"))
    ]


def _narrowed(test: ast.expr) -> set[str]:
    return {
        node.args[0].id
        for node in ast.walk(test)
        if isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in NARROWING_CHECKS
        and node.args
        and isinstance(node.args[0], ast.Name)
    }


def casts_after_checks(source: str) -> int:
    """``cast(T, x)`` inside the branch of a check that narrowed ``x``.

    >>> casts_after_checks("if isinstance(x, list):\\n    y = cast('list[int]', x)")
    1
    >>> casts_after_checks("if is_list(x):\\n    y = x")
    0
    """
    found = 0
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.If | ast.While | ast.IfExp):
            narrowed = _narrowed(node.test)
            body = [node.body] if isinstance(node, ast.IfExp) else node.body
            for part in body:
                for call in ast.walk(part):
                    if (
                        isinstance(call, ast.Call)
                        and isinstance(call.func, ast.Name)
                        and call.func.id == "cast"
                        and len(call.args) == 2
                        and isinstance(call.args[1], ast.Name)
                        and call.args[1].id in narrowed
                    ):
                        found += 1
    return found


def _over_ceiling(counts: dict[str, int], ceilings: dict[str, int]) -> dict[str, tuple[int, int]]:
    return {path: (n, ceilings.get(path, 0)) for path, n in counts.items() if n > ceilings.get(path, 0)}


def test_rule_1_no_cast_of_a_name_a_check_narrowed() -> None:
    counts = {path: n for path, source in _sources() if (n := casts_after_checks(source))}
    assert _over_ceiling(counts, CAST_AFTER_CHECK) == {}, "use an effects.guards check instead of isinstance + cast"


def test_rule_2_any_runnable_for_runnables_only_held() -> None:
    spelled = re.compile(r"(?<![A-Za-z_])Runnable\[Any, Any\]")
    counts = {path: n for path, source in _sources() if (n := len(spelled.findall(source)))}
    assert _over_ceiling(counts, RUNNABLE_ANY_ANY) == {}, "a runnable only held or passed on is an AnyRunnable"


def test_rule_2_any_runnable_is_the_top_type_not_an_alias_of_any() -> None:
    from combinators.runnable import composing

    alias: object = vars(composing)["AnyRunnable"]  # at run time, the alias's string
    assert alias == "Runnable[Never, object]"


def test_rule_3_keyword_arguments_passed_through_are_objects() -> None:
    offending: list[tuple[str, str]] = []
    seen: collections.Counter[tuple[str, str]] = collections.Counter()
    for path, source in _sources():
        for node in ast.walk(ast.parse(source)):
            if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) or node.args.kwarg is None:
                continue
            annotation = node.args.kwarg.annotation
            if not (isinstance(annotation, ast.Name) and annotation.id == "Any"):
                continue
            key = (path, node.name)
            if node.name in PEER_HOOKS or path.startswith(PEER_SIGNATURES):
                continue
            if key in FORWARDED:
                seen[key] += 1
                continue
            offending.append(key)
    assert offending == [], "**kwargs: object, unless the signature is the peer's or forwards to typed keywords"
    assert set(seen) == set(FORWARDED), "a FORWARDED entry whose function no longer takes **kwargs: Any"
