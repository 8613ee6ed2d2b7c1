"""Structure promises: exports, finality, values, import direction, pickling."""

from __future__ import annotations

import ast
import importlib
import inspect
import pathlib
import pickle
from typing import Any

import attrs
import cloudpickle  # type: ignore[import-untyped]
import pytest

import combinators
import combinators.authoring as authoring
import combinators.agents
import combinators.chat_history
import combinators.components
import combinators.documents
import combinators.embeddings
import combinators.language_models
import combinators.load
import combinators.messages
import combinators.output_parsers
import combinators.outputs
import combinators.prompt_values
import combinators.prompts
import combinators.retrievers
import combinators.secrets
import combinators.tools
import combinators.vectorstores
import effects
import effects.authoring as effects_authoring
import effects.scope as effects_scope
from combinators import Runnable, RunnableLambda, RunnableParallel, RunnablePassthrough
from combinators.language_models import LLM, BaseChatModel, BaseLLM, SimpleChatModel
from combinators.messages import BaseMessage
from combinators.output_parsers import BaseOutputParser
from combinators.prompts import BaseMessagePromptTemplate
from combinators.retrievers import BaseRetriever
from combinators.tools import BaseTool

ROOT = pathlib.Path(__file__).resolve().parents[2]
# Looked up by name: an import statement would make this file one of the importers that
# test_only_the_runnable_imports_the_runtime_entry_calls refuses.
effects_runtime = importlib.import_module("effects.runtime")


DOMAIN_ROOTS = [
    combinators.agents,
    combinators.chat_history,
    combinators.documents,
    combinators.embeddings,
    combinators.language_models,
    combinators.load,
    combinators.messages,
    combinators.output_parsers,
    combinators.outputs,
    combinators.prompt_values,
    combinators.prompts,
    combinators.retrievers,
    combinators.secrets,
    combinators.tools,
    combinators.vectorstores,
]
"""The public import paths by domain, named as LangChain's modules (a port renames
``langchain_core.X`` to ``combinators.X``)."""

ROOTS = [combinators, effects, *DOMAIN_ROOTS]
"""Every public root: each public name has exactly one of them as its home."""


def public_names(module: Any) -> set[str]:
    names = {name for name in vars(module) if not name.startswith("_") and not inspect.ismodule(getattr(module, name))}
    return names | set(getattr(module, "_LAZY", {}))


@pytest.mark.parametrize("module", [*ROOTS, combinators.components], ids=lambda m: m.__name__)
def test_all_equals_the_public_names(module: Any) -> None:
    assert set(module.__all__) == public_names(module) - {"annotations"}
    assert len(set(module.__all__)) == len(module.__all__)


def test_every_public_name_has_one_home() -> None:
    homes: dict[str, list[str]] = {}
    for root in ROOTS:
        for name in root.__all__:
            homes.setdefault(name, []).append(root.__name__)
    assert {name: where for name, where in homes.items() if len(where) > 1} == {}


ROOMS = ["agents", "memory", "messages", "models", "parsers", "partial_json", "prompts", "retrieval", "tools"]


@pytest.mark.parametrize("room", ROOMS)
def test_a_room_exports_nothing_its_old_names_warn_and_name_their_home(room: str) -> None:
    package = importlib.import_module(f"combinators.components.{room}")
    assert package.__all__ == []
    roots = [r for r in ROOTS if r.__name__ != "combinators"]
    some = next(name for root in roots for name in root.__all__ if _room_of(root, name) == room)
    with pytest.warns(DeprecationWarning, match=rf"combinators.components.{room}.{some} is deprecated: import it from"):
        value = getattr(package, some)
    assert any(getattr(root, some, None) is value for root in roots)


def _room_of(root: Any, name: str) -> str | None:
    module = getattr(getattr(root, name), "__module__", "")
    parts = module.split(".")
    return parts[2] if parts[:2] == ["combinators", "components"] and len(parts) > 3 else None


def test_domain_roots_are_packages_of_one_module_each() -> None:
    # A package with a literal __all__ (the API reference reads it statically); the code
    # stays in combinators/components/.
    for path in DOMAIN_ROOT_FILES:
        assert sorted(p.name for p in path.parent.iterdir() if p.suffix == ".py") == ["__init__.py"], path


def test_domain_roots_are_named_as_langchains_modules() -> None:
    # The counterpart of each langchain_core.X (the agents' of langchain_classic.agents).
    assert {root.__name__.removeprefix("combinators.") for root in DOMAIN_ROOTS} >= {
        "prompts", "messages", "language_models", "output_parsers", "tools", "retrievers", "documents",
        "embeddings", "vectorstores", "chat_history", "prompt_values", "outputs", "agents", "load",
    }  # fmt: skip


def concrete_classes() -> list[type[Any]]:
    found: list[type[Any]] = []
    for module in (combinators, effects, *DOMAIN_ROOTS):
        for name in module.__all__:
            value = getattr(module, name)
            # Errors declare their fields with attrs too, but are no values: raising one writes
            # its traceback and notes, and each domain (models, remote runnables...) subclasses them.
            if inspect.isclass(value) and attrs.has(value) and not issubclass(value, BaseException):
                found.append(value)
    return found


EXTENSIBLE = {
    Runnable,
    BaseMessage,
    BaseRetriever,
    BaseChatModel,
    SimpleChatModel,
    BaseLLM,
    LLM,
    BaseTool,  # an attrs class once a subclass was built (DeclaredFields), in any test before
    BaseMessagePromptTemplate,
    BaseOutputParser,  # an attrs class through its RunFields base (name=, tags=, ...)
}


@pytest.mark.parametrize("cls", [c for c in concrete_classes() if c not in EXTENSIBLE], ids=lambda c: c.__name__)
def test_every_public_concrete_value_class_is_final_and_frozen(cls: type[Any]) -> None:
    assert getattr(cls, "__final__", False), f"{cls.__name__} must be @final"
    assert attrs.fields(cls) is not None
    params = getattr(cls, "__attrs_attrs__")
    assert params is not None
    assert cls.__setattr__ is not object.__setattr__, f"{cls.__name__} must be frozen"


@pytest.mark.parametrize("cls", sorted(EXTENSIBLE, key=lambda c: c.__name__), ids=lambda c: c.__name__)
def test_documented_bases_are_extensible(cls: type[Any]) -> None:
    assert not getattr(cls, "__final__", False)


def test_effects_never_imports_combinators() -> None:
    for path in (ROOT / "effects").rglob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                names = [node.module or ""]
            else:
                continue
            assert not any(n == "combinators" or n.startswith("combinators.") for n in names), path


def test_only_the_log_projection_imports_jsonpatch_inside_effects() -> None:
    importers = {
        path.name
        for path in (ROOT / "effects").rglob("*.py")
        if any(m.split(".")[0] in ("jsonpatch", "jsonpointer") for m in imported_modules(path))
    }
    assert importers <= {"run_log.py", "log_values.py"}  # the log projection and its values


def imported_modules(path: pathlib.Path) -> set[str]:
    """Every module a file imports (``from x import y`` counts ``x`` and ``x.y``)."""
    return modules_imported_by(ast.parse(path.read_text()))


def modules_imported_by(tree: ast.AST) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)
    return found


def is_private(module: str) -> bool:
    return any(part.startswith("_") for part in module.split("."))


def package_files(*parts: str) -> list[pathlib.Path]:
    return sorted(ROOT.joinpath(*parts).rglob("*.py"))


DOMAIN_ROOT_FILES = [
    ROOT / "combinators" / root.__name__.removeprefix("combinators.") / "__init__.py" for root in DOMAIN_ROOTS
]

CORE = [
    p
    for p in package_files("combinators")
    if not {"components", "integrations", "testing"} & set(p.parts) and p not in DOMAIN_ROOT_FILES
]


def test_domain_roots_only_re_export_the_component_rooms() -> None:
    # Imports point down: domain roots -> component rooms -> the core -> effects.
    for path in DOMAIN_ROOT_FILES:
        assert path.is_file(), path
        used = {m for m in run_time_imports(path) if m.startswith(("combinators", "effects"))}
        assert all(m.startswith("combinators.components") for m in used), f"{path}: {sorted(used)}"


def test_nothing_below_the_domain_roots_imports_them() -> None:
    names = {root.__name__ for root in DOMAIN_ROOTS}
    for path in [*CORE, *package_files("combinators", "components"), *package_files("effects")]:
        bad = {m for m in run_time_imports(path) if m in names or m.rsplit(".", 1)[0] in names}
        assert bad == set(), f"{path} imports a domain root at run time: {sorted(bad)}"


def test_the_core_imports_neither_components_nor_integrations() -> None:
    for path in CORE:
        bad = {
            m for m in imported_modules(path) if m.startswith(("combinators.components", "combinators.integrations"))
        }
        assert bad == set(), path


def test_components_use_only_public_names_of_the_core() -> None:
    for path in package_files("combinators", "components"):
        bad = {
            m
            for m in imported_modules(path)
            if m.startswith(("combinators", "effects")) and not m.startswith("combinators.components") and is_private(m)
        }
        assert bad == set(), f"{path} imports private modules: {sorted(bad)}"


def test_integrations_are_imported_only_lazily_by_the_components_root() -> None:
    for path in [*package_files("combinators"), *package_files("effects")]:
        if "integrations" in path.parts:
            continue
        imports = {m for m in imported_modules(path) if m.startswith("combinators.integrations")}
        if path == ROOT / "combinators" / "components" / "__init__.py":
            # only under TYPE_CHECKING; at run time through ``__getattr__`` on first use
            assert "if _typing.TYPE_CHECKING:" in path.read_text()
            continue
        assert imports == set(), path


def test_importing_the_components_imports_no_integration() -> None:
    import subprocess
    import sys

    code = "import sys, combinators.components; print(sorted(m for m in sys.modules if 'integrations' in m))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_nodes_never_import_each_other_upward() -> None:
    for path in package_files("combinators", "_support"):
        bad = {
            m
            for m in imported_modules(path)
            if m.startswith("combinators.")
            and not m.startswith(
                (
                    "combinators._support",
                    "combinators.runnable",
                    "combinators.nodes",
                    "combinators.retry_policy",
                    "combinators.addable",
                )
            )
        }
        assert bad == set(), path


def run_time_imports(path: pathlib.Path) -> set[str]:
    """The modules a file imports when it runs: ``imported_modules`` without the
    ``if TYPE_CHECKING:`` blocks."""
    tree = ast.parse(path.read_text())
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in (
            "TYPE_CHECKING",
            "_typing.TYPE_CHECKING",
            "typing.TYPE_CHECKING",
        ):
            node.body = [ast.Pass()]
    return modules_imported_by(tree)


def test_only_the_fluent_layer_imports_nodes_and_graphs_into_the_runnable() -> None:
    # The Runnable's layers name the nodes for types only; fluent.py builds them (late).
    importers = {
        path.name
        for path in package_files("combinators", "runnable")
        if any(m.startswith(("combinators.nodes", "combinators.graph")) for m in run_time_imports(path))
    }
    assert importers == {"fluent.py"}


def test_run_time_imports_leave_out_what_only_the_checkers_read() -> None:
    wrapping = ROOT / "combinators" / "runnable" / "wrapping.py"
    assert "combinators.nodes.binding" in imported_modules(wrapping)
    assert "combinators.nodes.binding" not in run_time_imports(wrapping)


# Component domains, lower first: a domain imports only the domains before it.
DOMAINS = [
    "partial_json", "run_fields", "secrets", "serialization", "messages", "prompts", "tools", "retrieval", "models",
    "parsers", "memory", "agents",
]  # fmt: skip


def test_component_domains_never_import_upward() -> None:
    for path in package_files("combinators", "components"):
        inside = path.relative_to(ROOT / "combinators" / "components").parts
        if inside == ("__init__.py",):
            continue  # the root re-exports every domain
        domain = inside[0].removesuffix(".py")
        assert domain in DOMAINS, f"{path}: a new domain belongs in DOMAINS, in its place"
        allowed = set(DOMAINS[: DOMAINS.index(domain) + 1])
        used = {m.split(".")[2] for m in imported_modules(path) if m.startswith("combinators.components.")}
        assert used <= allowed, f"{path} imports upward: {sorted(used - allowed)}"


def test_projections_are_folds_that_never_reach_into_the_runtime() -> None:
    for path in package_files("effects", "projections"):
        assert not {m for m in imported_modules(path) if m.startswith("effects._runtime")}, path


def private_runtime_imports(path: pathlib.Path) -> list[str]:
    return sorted(m for m in imported_modules(path) if m == "effects._runtime" or m.startswith("effects._runtime."))


def test_nothing_in_combinators_imports_the_private_runtime() -> None:
    # Authors (nodes, components, integrations, testing) use effects.authoring; only the
    # Runnable's calls reach the runtime, through effects.runtime.
    reaching = {
        path.relative_to(ROOT).as_posix(): private_runtime_imports(path)
        for path in package_files("combinators")
        if private_runtime_imports(path)
    }
    assert reaching == {}


def test_only_the_runnable_imports_the_runtime_entry_calls() -> None:
    everything = [
        *package_files("combinators"),
        *package_files("tests"),
        *package_files("bench"),
        *package_files("examples"),
    ]
    runnable = ROOT / "combinators" / "runnable"
    importers = {
        path.relative_to(ROOT).as_posix()
        for path in everything
        if "effects.runtime" in imported_modules(path) and not path.is_relative_to(runnable)
    }
    assert importers == set()


def test_the_public_scope_is_the_author_protocol_and_the_runtime_class_stays_private() -> None:
    import typing

    import combinators.authoring
    import effects.authoring
    from effects._runtime.scope import RunScope

    scope = effects.authoring.Scope
    assert scope is effects.Scope
    assert "Scope" not in combinators.__all__  # its home is effects (the old spelling warns)
    assert getattr(scope, "_is_protocol", False)
    members = {name for name in vars(scope) if not name.startswith("_")} - set(vars(typing.Protocol))
    assert members == {
        "config", "clock", "run", "plain", "invoke", "ainvoke", "stream", "astream", "with_recursion_step",
        "runs_inline", "wants_chunks", "stream_chunk", "emit_custom", "adopt",
    }  # fmt: skip
    for module in (effects, effects.authoring, combinators, combinators.authoring):
        assert all(getattr(module, name) is not RunScope for name in module.__all__), module
    assert members <= set(dir(RunScope))


def inc(x: int) -> int:
    return x + 1


def test_values_have_structural_equality_and_expression_reprs() -> None:
    a = RunnableLambda(inc) | RunnableParallel(x=RunnablePassthrough[int](), y=RunnableLambda(inc))
    b = RunnableLambda(inc) | RunnableParallel(x=RunnablePassthrough[int](), y=RunnableLambda(inc))
    assert a == b and hash(a) == hash(b)
    assert repr(a) == ("RunnableLambda(inc) | RunnableParallel({'x': RunnablePassthrough(), 'y': RunnableLambda(inc)})")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        RunnableLambda(inc).func = abs  # type: ignore[misc]


def test_values_survive_pickle_and_cloudpickle_round_trips() -> None:
    chain = (RunnableLambda(inc) | RunnableParallel(a=RunnableLambda(inc))).with_retry(stop_after_attempt=2)
    for dumps, loads in ((pickle.dumps, pickle.loads), (cloudpickle.dumps, pickle.loads)):
        copy = loads(dumps(chain))
        assert copy == chain
        assert copy.invoke(1) == chain.invoke(1) == {"a": 3}
    with_lambda = RunnableLambda(lambda x: x * 3)
    assert pickle.loads(cloudpickle.dumps(with_lambda)).invoke(2) == 6


def test_building_never_runs_anything() -> None:
    calls: list[int] = []

    def record(x: int) -> int:
        calls.append(x)
        return x

    chain = RunnableLambda(record) | record | {"a": record}
    chain.with_retry().with_fallbacks([chain]).with_config(tags=["x"]).each()
    assert calls == []


@pytest.mark.parametrize(
    "module",
    [*ROOTS, authoring, effects_authoring, effects_runtime, effects_scope],
    ids=lambda m: m.__name__,
)
def test_every_public_name_has_a_runnable_example(module: Any) -> None:
    missing = []
    for name in module.__all__:
        value = getattr(module, name)
        if not (inspect.isclass(value) or inspect.isfunction(value)):
            continue
        own = inspect.getdoc(value) or ""
        home = inspect.getmodule(value)
        module_doc = (home.__doc__ or "") if home else ""
        if ">>>" not in own and not (">>>" in module_doc and name in module_doc):
            missing.append(name)
    assert missing == []


@pytest.mark.parametrize("package", ["combinators", "effects"])
def test_packages_are_marked_typed(package: str) -> None:
    # PEP 561: without the marker an installed package is untyped to mypy and pyright.
    assert (ROOT / package / "py.typed").is_file()


# ---------------------------------------------------------------------- Runnable's shape


def test_runnable_is_one_class_over_one_level_of_sibling_bases() -> None:
    from typing import Generic

    from combinators.runnable.calls import RunnableCalls
    from combinators.runnable.hooks import RunnableHooks
    from combinators.runnable.wrapping import RunnableWrappers

    assert Runnable.__bases__ == (RunnableCalls, RunnableWrappers, RunnableHooks)
    for base in Runnable.__bases__:
        assert base.__bases__ == (Generic,), f"{base.__name__} must not be a layer over another base"


CALLS = [
    "invoke", "ainvoke", "batch", "abatch", "batch_as_completed", "abatch_as_completed", "stream", "astream",
    "transform", "atransform", "stream_events", "astream_events", "stream_log", "astream_log",
]  # fmt: skip
COMBINATORS = [
    "pipe", "map", "bind", "each", "pick", "assign", "with_config", "with_kwargs", "with_listeners",
    "with_retry", "with_fallbacks", "with_timeout", "with_types", "as_tool",
]  # fmt: skip

# Every public name of ``dir(Runnable)`` that is not an author hook, with why a user calls it.
USER_API = {
    # DESIGN.md §2, the calls
    **dict.fromkeys(CALLS, "DESIGN.md §2: the calls"),
    "batch_results": "DESIGN.md §2: results as returns.Result",
    "abatch_results": "DESIGN.md §2: results as returns.Result",
    # DESIGN.md §2, the combinators
    **dict.fromkeys(COMBINATORS, "DESIGN.md §2: the combinators"),
    # named by issue 25 beside §2
    "name": "the run name in events and logs",
    "input_schema": "JSON Schema of the input (tools need it)",
    "output_schema": "JSON Schema of the output",
    "config_specs": "the configurable ids a chain declares",
    "get_graph": "the picture of a chain",
    # the rest of today's public API
    "astream_effects": "the effect stream every projection folds over (recordings replay it)",
    "stream_effects": "sync astream_effects",
    "with_tracing": "OpenTelemetry spans per run (the otel extra)",
    "with_config_specs": "declare configurable ids a function reads (checked, in config_schema)",
    "configurable_fields": "LangChain's configurable fields",
    "configurable_alternatives": "LangChain's configurable alternatives",
    "config_schema": "LangChain's config_schema (JSON Schema of the configurable ids)",
    "get_input_schema": "LangChain's name for input_schema",
    "get_output_schema": "LangChain's name for output_schema",
    "get_input_jsonschema": "LangChain's name for input_schema",
    "get_output_jsonschema": "LangChain's name for output_schema",
}

AUTHOR_HOOKS = {
    "run_type", "is_leaf", "input_known_at_start", "emits_stream_events", "step_binding",
    "streams_in_place", "relays_chunks",
    "step_invoke", "step_ainvoke", "step_stream", "step_astream",
    "describe_input", "describe_output", "describe_params", "tool_call_id",
    "check_config", "declared_type", "input_schema_before", "input_draw", "graph_fragment", "receiver_repr",
}  # fmt: skip


def _public(names: list[str]) -> set[str]:
    return {n for n in names if not n.startswith("_")}


def test_dir_of_runnable_less_the_author_base_is_exactly_the_user_api() -> None:
    from combinators.runnable.hooks import RunnableHooks

    assert _public(dir(Runnable)) - _public(dir(RunnableHooks)) == set(USER_API)


def test_the_author_base_holds_the_hooks_and_nothing_users_call() -> None:
    from combinators.runnable.hooks import RunnableHooks

    assert _public(dir(RunnableHooks)) == AUTHOR_HOOKS
    assert not AUTHOR_HOOKS & set(USER_API)


def test_every_author_hook_is_documented_in_the_internals() -> None:
    internals = (ROOT / "docs" / "internals.md").read_text()
    assert [hook for hook in sorted(AUTHOR_HOOKS) if hook not in internals] == []


def test_the_generated_call_modules_are_fresh() -> None:
    # Regenerated in memory from call_spec and compared: edit the spec, then run the generator.
    from combinators.runnable import _generate

    assert _generate.stale() == [], f"regenerate with `{_generate.COMMAND}`"


def test_the_generated_modules_say_they_are_generated() -> None:
    # Each is written by hand down to its one marker line, and by the generator after it.
    from combinators.runnable import _generate

    for name in ("calls.py", "sync_calls.py"):
        text = (ROOT / "combinators" / "runnable" / name).read_text()
        head = text.splitlines()[:2]
        assert head[0].startswith("# AUTOGENERATED") and "do not edit" in head[0]
        assert "combinators/runnable/_generate.py" in head[1]
        assert text.count(_generate.MARKER) == 1


def test_the_event_filters_are_spelled_once_and_reach_every_projected_call() -> None:
    import inspect as insp

    from combinators.runnable import call_spec

    spec_text = (ROOT / "combinators" / "runnable" / "call_spec.py").read_text()
    assert spec_text.count('"include"') == 1 and "include_names" not in spec_text.split("FILTERS = ")[1][:200]
    filters = [p.name for p in call_spec.FILTERS]
    for name in ("stream_events", "astream_events", "stream_log", "astream_log"):
        params = list(insp.signature(getattr(Runnable, name)).parameters)
        assert params[-len(filters) - 1 : -1] == filters, name


def test_importing_the_core_loads_no_asyncio_nor_the_generated_calls_decorators() -> None:
    # Sync code pays nothing for async: the generated calls' @deprecated overloads are
    # for the checkers only (typing_extensions' decorator would import asyncio).
    import subprocess
    import sys

    code = "import sys, combinators; print(sorted(m for m in sys.modules if m.split('.')[0] == 'asyncio'))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


HEAVY_ROOMS = (
    "effects._runtime",  # the runtime: loaded by the first run, through effects.lazy.deferred
    "effects.runtime",
    "effects.authoring",
    "effects.effect_values",
    "effects.config",
    "effects.step",
    "effects.projections",
    "effects.executors",
    "combinators.components",
    "combinators.integrations",
    "combinators.graph",
    "combinators.prompts",
    "combinators.messages",
    "combinators.language_models",
    "combinators.tools",
    "combinators.nodes.sequence",  # other nodes: each loads when first named or built
    "combinators.nodes.parallel",
    "combinators.nodes.tool",
    "combinators.nodes.retry",
    "combinators._support.type_schema",
    "combinators._support.config_specs",
    "typing_extensions",
    "json",
    "uuid",
    "random",
    "datetime",
    "textwrap",
    "asyncio",
)
"""What ``from combinators import RunnableLambda`` leaves out: the benchmark's import row
(W10) is held to 1/10 of langchain-core's, and these are most of what it would cost."""


@pytest.mark.parametrize("statement", ["import combinators, effects", "from combinators import RunnableLambda"])
def test_importing_the_roots_or_a_node_leaves_the_heavy_rooms_unloaded(statement: str) -> None:
    import subprocess
    import sys

    code = f"{statement}; import sys; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    heavy = [m for m in out.split() if m in HEAVY_ROOMS or m.startswith(tuple(room + "." for room in HEAVY_ROOMS))]
    assert heavy == []


def test_the_first_run_loads_the_runtime_and_rebinds_the_stand_ins() -> None:
    # After the first call the runtime's names are the real objects (a plain global read
    # on the hot path, no stand-in left between a call and the runtime).
    import subprocess
    import sys

    code = (
        "from combinators import RunnableLambda; import sys;"
        "assert 'effects._runtime.scope' not in sys.modules;"
        "assert RunnableLambda(abs).invoke(-2) == 2;"
        "import combinators.runnable.calls as c, effects.runtime as r, combinators.nodes.lambda_ as l;"
        "import effects.authoring as a;"
        "assert c.runtime is r, c.runtime; assert list(RunnableLambda(abs).stream(-2)) == [2];"
        "assert l.run_on_total is a.run_on_total and l.in_worker is a.in_worker, l.in_worker; print('ok')"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "ok"


def _declared_homes(module: Any) -> dict[str, str]:
    """The ``from M import X as X`` declarations of a root (eager or under TYPE_CHECKING)."""
    homes: dict[str, str] = {}
    for node in ast.walk(ast.parse(pathlib.Path(module.__file__).read_text())):
        if isinstance(node, ast.ImportFrom) and node.module:
            for alias in node.names:
                if alias.asname == alias.name and not alias.name.startswith("_"):
                    homes[alias.name] = node.module
    return homes


@pytest.mark.parametrize("module", [combinators, effects], ids=lambda m: m.__name__)
def test_a_lazy_roots_table_agrees_with_its_declarations(module: Any) -> None:
    # The checkers read the declarations, the run time reads _LAZY: one may not drift
    # from the other (a name declared from one module and loaded from another).
    declared = _declared_homes(module)
    lazy: dict[str, str] = module._LAZY
    assert {name: declared.get(name) for name in lazy} == lazy
    assert set(declared) - set(lazy) == set(getattr(module, "_MOVED", {})) | set(getattr(module, "_RENAMED", {}))


@pytest.mark.parametrize("module", [combinators, effects], ids=lambda m: m.__name__)
def test_a_lazy_roots_all_is_composed_from_its_table_not_copied(module: Any) -> None:
    # One runtime list of a root's names (_LAZY, beside the checkers' declarations): its
    # __all__ is composed from it, so no name is written a third time (issue 25 item 4).
    assert module.__all__ == list(module._LAZY)
    assert "\n__all__ = list(_LAZY)" in pathlib.Path(module.__file__).read_text(encoding="utf-8")
