"""Property-based testing of chains: Hypothesis strategies and law checks.

Needs ``hypothesis`` (the extra ``testing``: ``pip install 'lcel-combinators[testing]'``). Strategies draw well-typed random
chains (``runnables``), fake models and retrievers with scripted replies, delays and
failures (``chat_models``, ``documents``, ``retrievers``) and inputs for a chain
(``inputs_for``). ``check_laws`` / ``assert_laws`` check a deterministic chain of
yours against the runtime laws (batch, stream, async, events, log,
return_exceptions) or, with ``laws=ALGEBRAIC_LAWS``, the combinators' laws around it;
each broken law comes with the smallest input that breaks it.

>>> from hypothesis import given, settings, strategies as st
>>> from combinators.testing import RUNTIME_LAWS, inputs_for, runnables
>>> @settings(max_examples=5, deadline=None)
... @given(runnables(int, str, max_leaves=4, failures=False), st.data())
... def test_random_chains_keep_the_laws(chain, data):
...     for law in RUNTIME_LAWS:
...         example = data.draw(law.examples(inputs_for(chain)))
...         assert law.violation(chain, example) is None
>>> test_random_chains_keep_the_laws()
"""

from __future__ import annotations

import typing as _typing

try:
    import hypothesis as _hypothesis
except ImportError as _error:  # pragma: no cover - exercised by a test that hides hypothesis
    from effects.hooks import install_line as _install_line

    raise ImportError(f"combinators.testing needs hypothesis: {_install_line('testing')}") from _error

from combinators.testing.agents import UNKNOWN_TOOL as UNKNOWN_TOOL
from combinators.testing.agents import agent_scripts as agent_scripts
from combinators.testing.algebra import ALGEBRAIC_LAWS as ALGEBRAIC_LAWS
from combinators.testing.chains import runnables as runnables
from combinators.testing.checks import Counterexample as Counterexample
from combinators.testing.checks import LawOutcome as LawOutcome
from combinators.testing.checks import LawReport as LawReport
from combinators.testing.checks import assert_laws as assert_laws
from combinators.testing.checks import check_laws as check_laws
from combinators.testing.fakes import ScriptedRetriever as ScriptedRetriever
from combinators.testing.fakes import chat_models as chat_models
from combinators.testing.fakes import documents as documents
from combinators.testing.fakes import retrievers as retrievers
from combinators.testing.inputs import inputs_for as inputs_for
from combinators.testing.law import Law as Law
from combinators.testing.nodes import Flaky as Flaky
from combinators.testing.nodes import Switch as Switch
from combinators.testing.outcomes import sum_of_chunks as sum_of_chunks
from combinators.testing.outcomes import last_chunk as last_chunk
from combinators.testing.outcomes import same_value as same_value
from combinators.testing.runtime_laws import RUNTIME_LAWS as RUNTIME_LAWS
from combinators.testing.steps import Record as Record
from combinators.testing.steps import ScriptedFailure as ScriptedFailure
from combinators.testing.plain_values import functions as functions
from combinators.testing.plain_values import values_of as values_of

del _hypothesis

if _typing.TYPE_CHECKING:
    # Renamed (``added_up`` looked like ``effects.authoring``'s totals); declared until its
    # removal so that an old import is a warning at run time, not a type error.
    added_up = sum_of_chunks
else:
    from effects.deprecation import Moved as _Moved
    from effects.deprecation import moved_modules as _moved_modules
    from effects.deprecation import renamed_exports as _renamed_exports

    # The old path of the value strategies' module, kept with a dated warning.
    _moved_modules(
        {"combinators.testing.values": _Moved("combinators.testing", source="combinators.testing.plain_values")}
    )

    __getattr__ = _renamed_exports(__name__, {"added_up": "sum_of_chunks"}, since="2026-12-02", removal="2027-03-01")

__all__ = [
    "ALGEBRAIC_LAWS",
    "RUNTIME_LAWS",
    "UNKNOWN_TOOL",
    "Counterexample",
    "Flaky",
    "Law",
    "LawOutcome",
    "LawReport",
    "Record",
    "ScriptedFailure",
    "ScriptedRetriever",
    "Switch",
    "agent_scripts",
    "assert_laws",
    "chat_models",
    "check_laws",
    "documents",
    "functions",
    "inputs_for",
    "last_chunk",
    "retrievers",
    "runnables",
    "same_value",
    "sum_of_chunks",
    "values_of",
]
