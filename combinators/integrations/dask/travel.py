"""How item outcomes travel from a worker to the driver: pickled once, errors kept whole.

An error travels as itself when it pickles and unpickles as its own type; one whose
``__init__`` does not take its ``args`` back (keyword-only parameters) is rebuilt without
calling ``__init__``; one that cannot travel at all (it holds a lock, say) arrives as a
``RemoteError`` with its type name, message and traceback text. An output or an effect
payload that does not pickle is replaced (the output by a ``RemoteError``, a payload by
its ``repr``), so the rest of the chunk still arrives.

>>> import threading
>>> from returns.result import Failure
>>> from effects.executors import ItemOutcome
>>> class Locked(Exception):
...     def __init__(self):
...         super().__init__("held")
...         self.lock = threading.Lock()
>>> [outcome] = unpack(pack([ItemOutcome(0, Failure(Locked()), (), "w")]))
>>> type(outcome.result.failure()).__name__, str(outcome.result.failure()).endswith("Locked: held")
('RemoteError', True)
"""

from __future__ import annotations

import io
import pickle
import reprlib
import traceback
from collections.abc import Callable, Sequence
from typing import TypeAlias

import attrs
import cloudpickle
from returns.result import Failure, Success

from effects import Effect, RunEnded, RunFailed, RunStarted, RunStreamed
from effects.executors import ItemOutcome, RemoteError


def pack(outcomes: Sequence[ItemOutcome]) -> bytes:
    """The outcomes of one chunk as bytes (on the worker)."""
    try:
        return _dumps(list(outcomes))
    except Exception:  # something in an item does not pickle: send the rest anyway
        return _dumps([_sendable(outcome) for outcome in outcomes])


def unpack(blob: bytes) -> list[ItemOutcome]:
    """The outcomes of one chunk (on the driver)."""
    outcomes: list[ItemOutcome] = pickle.loads(blob)
    return outcomes


_Reduction: TypeAlias = "tuple[Callable[..., object], tuple[object, ...]]"
"""What ``reducer_override`` gives pickle: a callable and its arguments."""


class _Pickler(cloudpickle.Pickler):
    def reducer_override(self, obj: object) -> _Reduction:
        if isinstance(obj, BaseException) and (reduced := _error_reduction(obj)) is not None:
            return reduced
        # cloudpickle's own: a class or function by value, else NotImplemented (pickle's way).
        inherited: _Reduction = super().reducer_override(obj)
        return inherited


def _dumps(value: object) -> bytes:
    buffer = io.BytesIO()
    _Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
    return buffer.getvalue()


def _error_reduction(error: BaseException) -> _Reduction | None:
    kind = type(error)
    try:
        if type(pickle.loads(cloudpickle.dumps(error))) is kind:
            return None  # it travels as itself
    except Exception:
        pass
    state = dict(vars(error))
    try:
        _rebuilt(kind, error.args, state)  # it can be made without its __init__
        cloudpickle.dumps((kind, error.args, state))  # and its parts travel
        return (_rebuilt, (kind, error.args, state))
    except Exception:
        text = "".join(traceback.format_exception(error))
        return (RemoteError, (f"{kind.__module__}.{kind.__qualname__}", str(error), text))


def _rebuilt(kind: type[BaseException], args: tuple[object, ...], state: dict[str, object]) -> BaseException:
    """An error whose ``__init__`` cannot take its own ``args`` back, made without it."""
    error = kind.__new__(kind, *args)
    error.args = args
    error.__dict__.update(state)
    return error


def _sendable(outcome: ItemOutcome) -> ItemOutcome:
    result = outcome.result
    try:
        _dumps(result)
    except Exception as error:
        value = result.unwrap() if isinstance(result, Success) else result.failure()
        result = Failure(
            RemoteError(
                f"{type(value).__module__}.{type(value).__qualname__}",
                f"the output could not be sent back from the worker: {error}",
                "",
            )
        )
    effects = tuple(_sendable_effect(effect) for effect in outcome.effects)
    return attrs.evolve(outcome, result=result, effects=effects)


def _sendable_effect(effect: Effect) -> Effect:
    try:
        _dumps(effect)
        return effect
    except Exception:
        pass
    if isinstance(effect, RunStreamed):
        return attrs.evolve(effect, chunk=_shown(effect.chunk))
    if isinstance(effect, RunStarted | RunFailed):
        return attrs.evolve(effect, input=_shown(effect.input))
    if isinstance(effect, RunEnded):
        return attrs.evolve(effect, input=_shown(effect.input), output=_shown(effect.output))
    return attrs.evolve(effect, data=_shown(effect.data))


def _shown(value: object) -> object:
    try:
        _dumps(value)
        return value
    except Exception:
        return f"<not sent from the worker: {reprlib.repr(value)}>"
