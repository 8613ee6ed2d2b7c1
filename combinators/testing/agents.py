"""Strategies for agents: random scripts for a ``ScriptedChatModel``.

A script is a list of replies: some steps that ask for tools (one or more calls each,
to the tools you name, with arguments from your strategies; some calls with ids,
some without), then, usually, a text answer. Give it to ``ScriptedChatModel`` and run
an agent on it: properties of the loop (limits, every call answered once, events
well nested) must hold whatever the script.

>>> from hypothesis import given, settings, strategies as st
>>> from combinators.language_models import ScriptedChatModel
>>> from combinators.tools import tool
>>> from combinators.agents import LoopPolicy, agent_loop
>>> @tool
... def add(a: int, b: int) -> int:
...     '''Add two integers.'''
...     return a + b
>>> numbers = st.fixed_dictionaries({"a": st.integers(0, 9), "b": st.integers(0, 9)})
>>> @settings(max_examples=20, deadline=None)
... @given(agent_scripts({"add": numbers}, max_steps=3), st.integers(1, 4))
... def test_the_model_is_called_at_most_max_iterations_times(script, limit):
...     model = ScriptedChatModel(script)
...     agent_loop(model, [add], policy=LoopPolicy(max_iterations=limit)).invoke("sum?")
...     assert len(model.calls) <= limit
>>> test_the_model_is_called_at_most_max_iterations_times()
"""

from __future__ import annotations

from collections.abc import Mapping
from hypothesis import strategies as st

from combinators.components.messages.message_classes import AIMessage, ToolCall
from combinators.testing.plain_values import sentences

UNKNOWN_TOOL = "no_such_tool"
"""The name a script calls when ``unknown_tools`` is set (no agent should have it)."""


def _call(
    draw: st.DrawFn,
    tool_args: Mapping[str, st.SearchStrategy[Mapping[str, object]]],
    unknown_tools: bool,
    call_id: str,
) -> ToolCall:
    names = sorted(tool_args) + ([UNKNOWN_TOOL] if unknown_tools else [])
    name = draw(st.sampled_from(names))
    args: Mapping[str, object] = draw(tool_args[name]) if name in tool_args else {}
    # Some calls come without an id: the model (or the loop) must make one up.
    return ToolCall(name, args, id=call_id if draw(st.booleans()) else None)


@st.composite
def _scripts(
    draw: st.DrawFn,
    tool_args: Mapping[str, st.SearchStrategy[Mapping[str, object]]],
    answers: st.SearchStrategy[str],
    max_steps: int,
    max_calls: int,
    unknown_tools: bool,
    finish: bool | None,
) -> list[AIMessage]:
    steps = draw(st.integers(0, max_steps))
    script: list[AIMessage] = []
    for step in range(steps):
        count = draw(st.integers(1, max_calls))
        calls = [_call(draw, tool_args, unknown_tools, f"call_{step}_{i}") for i in range(count)]
        thought = draw(st.sampled_from(["", "Let me check."]))
        script.append(AIMessage(thought, tool_calls=calls))
    ends = draw(st.booleans()) if finish is None else finish
    if ends:
        script.append(AIMessage(draw(answers)))
    return script


def agent_scripts(
    tool_args: Mapping[str, st.SearchStrategy[Mapping[str, object]]],
    *,
    answers: st.SearchStrategy[str] | None = None,
    max_steps: int = 4,
    max_calls: int = 3,
    unknown_tools: bool = False,
    finish: bool | None = True,
) -> st.SearchStrategy[list[AIMessage]]:
    """Scripts of up to ``max_steps`` tool-calling replies (1 to ``max_calls`` calls each,
    to the tools named in ``tool_args``, with arguments drawn from its strategies), then
    a text answer from ``answers`` (``finish=False``: never, ``None``: sometimes).
    ``unknown_tools`` also calls a tool no agent has (``UNKNOWN_TOOL``).

    >>> from hypothesis import find
    >>> find(agent_scripts({"add": st.just({"a": 1, "b": 2})}), lambda s: len(s) == 2)
    [AIMessage('', tool_calls=(ToolCall(name='add', args={'a': 1, 'b': 2}, id=None),)), AIMessage('fog')]
    """
    if not tool_args and not unknown_tools:
        raise ValueError("agent_scripts needs at least one tool (or unknown_tools=True)")
    chosen: st.SearchStrategy[str] = answers if answers is not None else sentences
    return _scripts(tool_args, chosen, max_steps, max_calls, unknown_tools, finish)
