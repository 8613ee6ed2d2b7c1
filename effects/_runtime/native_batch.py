"""Batches of a step that batches by itself: one call for every item (a LangChain object's
own ``batch``/``abatch``, which may send one request for all its prompts).

A step opts in with the optional hooks ``step_batch(inputs, scopes, kwargs)`` and
``step_abatch(...)``, which return one output or exception per input, in order. Each item
is still a run of its own (its start before the call, its end or failure after it), and
its scope is the one the step is handed for it (its config, its observers). The call
counts as one leaf step: it holds one ``max_concurrency`` permit, and the step passes the
limit on to what it calls.

>>> import attrs
>>> from combinators import Runnable
>>> @attrs.frozen
... class Doubles(Runnable[int, int]):
...     def step_invoke(self, input, scope, kwargs):
...         return 2 * input
...     def step_batch(self, inputs, scopes, kwargs):
...         return [("batched", 2 * i) for i in inputs]
>>> Doubles().batch([1, 2])
[('batched', 2), ('batched', 4)]
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Generic, TypeVar, final

import attrs

from effects._runtime import building
from effects.clock import current_clock
from effects.step import Step

if TYPE_CHECKING:
    from effects._runtime.scope import RunScope
    from effects.scope import Scope

In = TypeVar("In")
Out = TypeVar("Out")

BatchHook = Callable[[Sequence[In], Sequence["Scope"], Mapping[str, object]], list["Out | Exception"]]
AsyncBatchHook = Callable[[Sequence[In], Sequence["Scope"], Mapping[str, object]], Awaitable[list["Out | Exception"]]]


def _bound(node: Step[In, Out]) -> Step[In, Out] | None:
    # The step inside its bindings (with_config, with_listeners...); None when one of them
    # chooses it from the call's config (a configurable step: each item may differ).
    binding = node.step_binding
    while binding is not None:
        if binding.choose is not None:
            return None
        node = binding.bound
        binding = node.step_binding
    return node


def batch_hook(node: Step[In, Out]) -> BatchHook[In, Out] | None:
    """The own ``step_batch`` of the step (inside its bindings), if it has one."""
    bound = node if node.step_binding is None else _bound(node)
    if bound is None:
        return None
    hook: BatchHook[In, Out] | None = getattr(bound, "step_batch", None)  # the hook Runnable declares
    return hook


def abatch_hook(node: Step[In, Out]) -> AsyncBatchHook[In, Out] | None:
    """The own ``step_abatch`` of the step (inside its bindings), if it has one."""
    bound = node if node.step_binding is None else _bound(node)
    if bound is None:
        return None
    hook: AsyncBatchHook[In, Out] | None = getattr(bound, "step_abatch", None)
    return hook


@final
@attrs.frozen
class NativeBatch(Generic[In, Out]):
    """A batch given to the step's own hook in one call, each item still a run of its own:
    ``inputs``, each one's entry scope, the call's ``kwargs``, and whether errors are
    returned (else the first is raised).

    >>> from combinators import RunnableLambda
    >>> from effects._runtime.scope import PLAIN_SCOPE
    >>> NativeBatch(RunnableLambda(abs), [-1, -2], [PLAIN_SCOPE] * 2, {}, False).run(
    ...     lambda inputs, scopes, kwargs: [-i for i in inputs])
    [1, 2]
    """

    node: Step[In, Out]
    inputs: Sequence[In]
    scopes: Sequence[RunScope]
    kwargs: Mapping[str, object]
    return_exceptions: bool

    def run(self, hook: BatchHook[In, Out]) -> list[Out | Exception]:
        """The items' runs around one call of the step's ``step_batch``."""
        if not self.inputs:
            return []
        node, children, kwargs, shown = self._started()
        for child in children:
            if child.run is not None:
                child.refuse_async_listeners()
        first = children[0]
        try:
            first.check_deadline()
            if first.limiters:
                with first.permits():
                    outcomes = hook(self.inputs, children, kwargs)
            else:
                outcomes = hook(self.inputs, children, kwargs)
        except BaseException as error:
            self._finish(node, children, shown, error)
            raise
        self._finish(node, children, shown, outcomes)
        return self._checked(outcomes)

    async def arun(self, hook: AsyncBatchHook[In, Out]) -> list[Out | Exception]:
        """Async ``run``: the call is cut short at the first item's deadline (cancelled)."""
        from effects._runtime.limiter import aholding

        if not self.inputs:
            return []
        node, children, kwargs, shown = self._started()
        await _listened(children)
        first = children[0]
        try:
            first.check_deadline()
            if first.limiters:
                async with aholding(first.limiters):
                    outcomes = await first.bounded(hook(self.inputs, children, kwargs), node)
            else:
                outcomes = await first.bounded(hook(self.inputs, children, kwargs), node)
        except BaseException as error:
            self._finish(node, children, shown, error)
            await _listened(children)
            raise
        self._finish(node, children, shown, outcomes)
        await _listened(children)
        return self._checked(outcomes)

    def _started(self) -> tuple[Step[In, Out], list[RunScope], Mapping[str, object], list[object]]:
        # Each item's run, its bindings unwrapped (the same for every item: none chooses),
        # started; what each start showed as its input.
        descended = [scope._descend(self.node, None, self.kwargs) for scope in self.scopes]  # pyright: ignore[reportPrivateUsage]
        node, kwargs = descended[0][0], descended[0][2]
        children = [child for _, child, _ in descended]
        shown: list[object] = []
        for child, input in zip(children, self.inputs, strict=True):
            shown.append(child._start(node, input) if child.run is not None else None)  # pyright: ignore[reportPrivateUsage]
        return node, children, kwargs, shown

    def _finish(
        self,
        node: Step[In, Out],
        children: list[RunScope],
        shown: list[object],
        outcomes: Sequence[Out | Exception] | BaseException,
    ) -> None:
        now = current_clock().now
        for i, child in enumerate(children):
            if child.run is None:
                continue
            outcome = outcomes if isinstance(outcomes, BaseException) else outcomes[i]
            if isinstance(outcome, BaseException):
                child.emit_effect(child.failure(node, self.inputs[i], shown[i], outcome))
            else:
                child.emit_effect(building.ended(child.run, shown[i], node.describe_output(outcome), now()))

    def _checked(self, outcomes: list[Out | Exception]) -> list[Out | Exception]:
        # One outcome per input; the first error raised unless errors are returned.
        count = len(self.inputs)
        if len(outcomes) != count:
            raise RuntimeError(f"a step's own batch gave {len(outcomes)} results for {count} inputs")
        if not self.return_exceptions:
            for outcome in outcomes:
                if isinstance(outcome, Exception):
                    raise outcome
        return outcomes


async def _listened(children: list[RunScope]) -> None:
    for child in children:
        if child.listening:
            await child.await_listeners()


__all__ = ["NativeBatch", "abatch_hook", "batch_hook"]
