"""Chain builders shared by the workloads: one function per chain, given a ``Lib``.

Each builder is called once per library, so both sides run literally the same chain.
The plain-Python floors for the same work live next to them.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, TypeVar

from bench.harness import Side, describe_error
from bench.libs import Lib

T = TypeVar("T")

# Pre-built chunks: the source yields existing strings, so neither the timings nor the
# traced memory include making them.
MAX_CHUNKS = 50_000
CHUNKS: tuple[str, ...] = tuple(f"tok{i} " for i in range(MAX_CHUNKS))


def per_lib(libs: Mapping[str, Lib | str], build: Callable[[Lib], T]) -> dict[str, Side[T]]:
    """build(lib) for each library; "n/a" (None) when the library is not loaded, an
    error text when building fails (e.g. a missing feature on our side)."""
    out: dict[str, Side[T]] = {}
    for name, lib in libs.items():
        if isinstance(lib, str):
            out[name] = None
            continue
        try:
            out[name] = build(lib)
        except Exception as exc:
            out[name] = describe_error(exc)
    return out


def on(built: Mapping[str, Side[Any]], make: Callable[[Any], T]) -> dict[str, Side[T]]:
    """make(chain) for each side that was built; errors and n/a pass through."""
    return {name: value if value is None or isinstance(value, str) else make(value) for name, value in built.items()}


def inc(x: int) -> int:
    return x + 1


async def ainc(x: int) -> int:
    return x + 1


def lam(lib: Lib, i: int = 0) -> Any:
    """The trivial step: ``x + 1`` with both a sync and a native async implementation."""
    return lib.RunnableLambda(inc, afunc=ainc, name=f"inc{i}")


def sequence(lib: Lib, n: int) -> Any:
    return lib.RunnableSequence(*[lam(lib, i) for i in range(n)])


def parallel(lib: Lib, n: int) -> Any:
    return lib.RunnableParallel({f"k{i}": lam(lib, i) for i in range(n)})


def nested10(x: int) -> int:
    """Floor for W2 sync: ten nested plain calls."""
    f = inc
    return f(f(f(f(f(f(f(f(f(f(x))))))))))


async def achain10(x: int) -> int:
    """Floor for W2 async: ten chained awaits."""
    for _ in range(10):
        x = await ainc(x)
    return x


@dataclass
class Counter:
    """How many chunks a source produced (to check early-close behaviour)."""

    produced: int = 0


def _source(chunks: tuple[str, ...], counter: Counter) -> Callable[[Iterator[object]], Iterator[str]]:
    def src(inputs: Iterator[object]) -> Iterator[str]:
        for _ in inputs:
            pass
        for c in chunks:
            counter.produced += 1
            yield c

    return src


def _asource(chunks: tuple[str, ...], counter: Counter) -> Callable[[AsyncIterator[object]], AsyncIterator[str]]:
    async def asrc(inputs: AsyncIterator[object]) -> AsyncIterator[str]:
        async for _ in inputs:
            pass
        for c in chunks:
            counter.produced += 1
            yield c

    return asrc


def passthrough(items: Iterator[str]) -> Iterator[str]:
    for c in items:
        yield c


async def apassthrough(items: AsyncIterator[str]) -> AsyncIterator[str]:
    async for c in items:
        yield c


def stream_chain(lib: Lib, n: int, counter: Counter | None = None) -> Any:
    """W6: a source of n string chunks through 3 streaming transforms."""
    counter = counter or Counter()
    chunks = CHUNKS[:n]
    return lib.RunnableSequence(
        lib.RunnableGenerator(_source(chunks, counter), _asource(chunks, counter)),
        lib.RunnableGenerator(passthrough, apassthrough),
        lib.RunnableGenerator(passthrough, apassthrough),
        lib.RunnableGenerator(passthrough, apassthrough),
    )


def stream_floor(n: int, counter: Counter | None = None) -> Callable[[], Iterator[str]]:
    """Floor for W6 sync: makes nested plain generators (chunks sliced once, up front,
    as a built chain holds them)."""
    src = _source(CHUNKS[:n], counter or Counter())
    return lambda: passthrough(passthrough(passthrough(src(iter([None])))))


async def _one_none() -> AsyncIterator[None]:
    yield None


def astream_floor(n: int, counter: Counter | None = None) -> Callable[[], AsyncIterator[str]]:
    """Floor for W6 async: makes nested async generators."""
    asrc = _asource(CHUNKS[:n], counter or Counter())
    return lambda: apassthrough(apassthrough(apassthrough(asrc(_one_none()))))


def consume(items: Iterator[object]) -> int:
    n = 0
    for _ in items:
        n += 1
    return n


async def aconsume(items: AsyncIterator[object]) -> int:
    n = 0
    async for _ in items:
        n += 1
    return n
