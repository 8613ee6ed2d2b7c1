"""Batches of a runnable: ``batch``, ``abatch``, ``batch_results`` and their
as-completed forms, typed by overloads on ``return_exceptions``.

``RunnableBatching`` adds them to ``RunnableCore``; ``RunnableWatching`` builds on it.

>>> from combinators import RunnableLambda
>>> RunnableLambda(abs).batch([-1, -2])
[1, 2]
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator, Sequence
from typing import TYPE_CHECKING, Literal, TypeVar, overload

from combinators.runnable.calls import RunnableCore
from effects._runtime import batches
from effects.config import ConfigLike

if TYPE_CHECKING:
    # Only for annotations: `returns` loads on first use, which keeps `import combinators` cheap.
    from returns.result import Failure, Success

    from effects.executors import Executor

In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)
A = TypeVar("A")


class RunnableBatching(RunnableCore[In, Out]):
    """The batch calls of every runnable."""

    __slots__ = ()

    @overload
    def batch(
        self,
        inputs: list[In] | tuple[In, ...],
        config: ConfigLike | Sequence[ConfigLike] = None,
        *,
        return_exceptions: Literal[False] = False,
        progress: bool = False,
        executor: Executor | None = None,
        **kwargs: object,
    ) -> list[Out]: ...

    @overload
    def batch(
        self,
        inputs: list[In] | tuple[In, ...],
        config: ConfigLike | Sequence[ConfigLike] = None,
        *,
        return_exceptions: Literal[True],
        progress: bool = False,
        executor: Executor | None = None,
        **kwargs: object,
    ) -> list[Out | Exception]: ...

    @overload
    def batch(
        self,
        inputs: list[In] | tuple[In, ...],
        config: ConfigLike | Sequence[ConfigLike] = None,
        *,
        return_exceptions: bool,
        progress: bool = False,
        executor: Executor | None = None,
        **kwargs: object,
    ) -> list[Out | Exception]: ...

    def batch(
        self,
        inputs: list[In] | tuple[In, ...],
        config: ConfigLike | Sequence[ConfigLike] = None,
        *,
        return_exceptions: bool = False,
        progress: bool = False,
        executor: Executor | None = None,
        **kwargs: object,
    ) -> list[Out] | list[Out | Exception]:
        """Run on every input (shared thread pool, or ``executor``'s workers); one result
        per input, in order.

        ``progress=True`` (or the config flag ``progress``) shows a progress bar over the
        items (the optional extra ``progress``).

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(lambda x: 10 // x).batch([5, 0], return_exceptions=True)
        [2, ZeroDivisionError('integer division or modulo by zero')]
        """
        return batches.batch(self, list(inputs), config, kwargs, return_exceptions, progress, executor)

    @overload
    async def abatch(
        self,
        inputs: list[In] | tuple[In, ...],
        config: ConfigLike | Sequence[ConfigLike] = None,
        *,
        return_exceptions: Literal[False] = False,
        progress: bool = False,
        executor: Executor | None = None,
        **kwargs: object,
    ) -> list[Out]: ...

    @overload
    async def abatch(
        self,
        inputs: list[In] | tuple[In, ...],
        config: ConfigLike | Sequence[ConfigLike] = None,
        *,
        return_exceptions: Literal[True],
        progress: bool = False,
        executor: Executor | None = None,
        **kwargs: object,
    ) -> list[Out | Exception]: ...

    @overload
    async def abatch(
        self,
        inputs: list[In] | tuple[In, ...],
        config: ConfigLike | Sequence[ConfigLike] = None,
        *,
        return_exceptions: bool,
        progress: bool = False,
        executor: Executor | None = None,
        **kwargs: object,
    ) -> list[Out | Exception]: ...

    async def abatch(
        self,
        inputs: list[In] | tuple[In, ...],
        config: ConfigLike | Sequence[ConfigLike] = None,
        *,
        return_exceptions: bool = False,
        progress: bool = False,
        executor: Executor | None = None,
        **kwargs: object,
    ) -> list[Out] | list[Out | Exception]:
        """Run on every input concurrently (structured: a failure cancels the rest).

        >>> import asyncio
        >>> from combinators import RunnableLambda
        >>> asyncio.run(RunnableLambda(lambda x: -x).abatch([1, 2]))
        [-1, -2]
        """
        return await batches.abatch(self, list(inputs), config, kwargs, return_exceptions, progress, executor)

    def batch_results(
        self,
        inputs: list[In] | tuple[In, ...],
        config: ConfigLike | Sequence[ConfigLike] = None,
        *,
        executor: Executor | None = None,
        **kwargs: object,
    ) -> list[Success[Out] | Failure[Exception]]:
        """``batch`` with every outcome as a ``returns`` ``Result``: ``Success(output)`` or
        ``Failure(error)``, to ``match`` exhaustively (``case Success(v): ... case Failure(e): ...``).

        >>> from combinators import RunnableLambda
        >>> RunnableLambda(lambda x: 1 // x).batch_results([1, 0])
        [<Success: 1>, <Failure: integer division or modulo by zero>]
        """
        outcomes = batches.batch(self, list(inputs), config, kwargs, True, False, executor)
        return [_as_result(r) for r in outcomes]

    async def abatch_results(
        self,
        inputs: list[In] | tuple[In, ...],
        config: ConfigLike | Sequence[ConfigLike] = None,
        *,
        executor: Executor | None = None,
        **kwargs: object,
    ) -> list[Success[Out] | Failure[Exception]]:
        """Async ``batch_results``.

        >>> import asyncio
        >>> from combinators import RunnableLambda
        >>> asyncio.run(RunnableLambda(lambda x: x).abatch_results([7]))
        [<Success: 7>]
        """
        outcomes = await batches.abatch(self, list(inputs), config, kwargs, True, False, executor)
        return [_as_result(r) for r in outcomes]

    @overload
    def batch_as_completed(
        self,
        inputs: list[In] | tuple[In, ...],
        config: ConfigLike | Sequence[ConfigLike] = None,
        *,
        return_exceptions: Literal[False] = False,
        progress: bool = False,
        executor: Executor | None = None,
        **kwargs: object,
    ) -> Iterator[tuple[int, Out]]: ...

    @overload
    def batch_as_completed(
        self,
        inputs: list[In] | tuple[In, ...],
        config: ConfigLike | Sequence[ConfigLike] = None,
        *,
        return_exceptions: Literal[True],
        progress: bool = False,
        executor: Executor | None = None,
        **kwargs: object,
    ) -> Iterator[tuple[int, Out | Exception]]: ...

    @overload
    def batch_as_completed(
        self,
        inputs: list[In] | tuple[In, ...],
        config: ConfigLike | Sequence[ConfigLike] = None,
        *,
        return_exceptions: bool,
        progress: bool = False,
        executor: Executor | None = None,
        **kwargs: object,
    ) -> Iterator[tuple[int, Out | Exception]]: ...

    def batch_as_completed(
        self,
        inputs: list[In] | tuple[In, ...],
        config: ConfigLike | Sequence[ConfigLike] = None,
        *,
        return_exceptions: bool = False,
        progress: bool = False,
        executor: Executor | None = None,
        **kwargs: object,
    ) -> Iterator[tuple[int, Out]] | Iterator[tuple[int, Out | Exception]]:
        """Yield ``(index, output)`` as each input finishes.

        >>> from combinators import RunnableLambda
        >>> sorted(RunnableLambda(lambda x: x * x).batch_as_completed([1, 2, 3]))
        [(0, 1), (1, 4), (2, 9)]
        """
        return batches.batch_as_completed(self, list(inputs), config, kwargs, return_exceptions, progress, executor)

    @overload
    def abatch_as_completed(
        self,
        inputs: list[In] | tuple[In, ...],
        config: ConfigLike | Sequence[ConfigLike] = None,
        *,
        return_exceptions: Literal[False] = False,
        progress: bool = False,
        executor: Executor | None = None,
        **kwargs: object,
    ) -> AsyncIterator[tuple[int, Out]]: ...

    @overload
    def abatch_as_completed(
        self,
        inputs: list[In] | tuple[In, ...],
        config: ConfigLike | Sequence[ConfigLike] = None,
        *,
        return_exceptions: Literal[True],
        progress: bool = False,
        executor: Executor | None = None,
        **kwargs: object,
    ) -> AsyncIterator[tuple[int, Out | Exception]]: ...

    @overload
    def abatch_as_completed(
        self,
        inputs: list[In] | tuple[In, ...],
        config: ConfigLike | Sequence[ConfigLike] = None,
        *,
        return_exceptions: bool,
        progress: bool = False,
        executor: Executor | None = None,
        **kwargs: object,
    ) -> AsyncIterator[tuple[int, Out | Exception]]: ...

    def abatch_as_completed(
        self,
        inputs: list[In] | tuple[In, ...],
        config: ConfigLike | Sequence[ConfigLike] = None,
        *,
        return_exceptions: bool = False,
        progress: bool = False,
        executor: Executor | None = None,
        **kwargs: object,
    ) -> AsyncIterator[tuple[int, Out]] | AsyncIterator[tuple[int, Out | Exception]]:
        """Async ``batch_as_completed``; leaving the loop early cancels the rest.

        >>> import asyncio
        >>> from combinators import RunnableLambda
        >>> async def main():
        ...     return sorted([p async for p in RunnableLambda(str).abatch_as_completed([1, 2])])
        >>> asyncio.run(main())
        [(0, '1'), (1, '2')]
        """
        return batches.abatch_as_completed(self, list(inputs), config, kwargs, return_exceptions, progress, executor)


def _as_result(outcome: A | Exception) -> Success[A] | Failure[Exception]:
    from returns.result import Failure, Success

    if isinstance(outcome, Exception):
        return Failure(outcome)
    return Success(outcome)


__all__ = ["RunnableBatching"]
