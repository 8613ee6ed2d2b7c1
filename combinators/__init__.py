"""Typed functional combinators for LLM pipelines: the Runnable/LCEL protocol as values.

>>> from combinators import RunnableLambda, RunnableParallel, RunnablePassthrough
>>> def words(text: str) -> list[str]:
...     return text.split()
>>> chain = RunnableParallel(words=RunnableLambda(words), raw=RunnablePassthrough()) | (lambda d: len(d["words"]))
>>> chain.invoke("a b c")
3
"""

from combinators.addable import AddableDict as AddableDict
from combinators.assign import RunnableAssign as RunnableAssign
from combinators.bind import RunnableBind as RunnableBind
from combinators.bind import RunnablePure as RunnablePure
from combinators.bind import pure as pure
from combinators.binding import RunnableBinding as RunnableBinding
from combinators.branch import RunnableBranch as RunnableBranch
from combinators.chain_decorator import chain as chain
from combinators.coerce import coerce_to_runnable as coerce_to_runnable
from combinators.each import RunnableEach as RunnableEach
from combinators.fallbacks import RunnableWithFallbacks as RunnableWithFallbacks
from combinators.generator import RunnableGenerator as RunnableGenerator
from combinators.lambda_ import RunnableLambda as RunnableLambda
from combinators.parallel import RunnableParallel as RunnableParallel
from combinators.parallel_tuple import RunnableParallelTuple as RunnableParallelTuple
from combinators.parallel_tuple import parallel as parallel
from combinators.passthrough import RunnablePassthrough as RunnablePassthrough
from combinators.pick import RunnablePick as RunnablePick
from combinators.retry import RunnableRetry as RunnableRetry
from combinators.retry_policy import ExponentialWait as ExponentialWait
from combinators.retry_policy import FixedWait as FixedWait
from combinators.retry_policy import NoWait as NoWait
from combinators.retry_policy import RetryPolicy as RetryPolicy
from combinators.runnable import Runnable as Runnable
from combinators.sequence import RunnableSequence as RunnableSequence
from combinators.tool import RunnableTool as RunnableTool
from combinators.tool import ToolArgumentsError as ToolArgumentsError
from effects.config import RunConfig as RunConfig
from effects.errors import CombinatorsError as CombinatorsError
from effects.errors import EmptyStreamError as EmptyStreamError
from effects.errors import InputError as InputError
from effects.errors import InputValueError as InputValueError
from effects.errors import StepTimeout as StepTimeout
from effects.custom_events import adispatch_custom_event as adispatch_custom_event
from effects.custom_events import dispatch_custom_event as dispatch_custom_event

__all__ = [
    "AddableDict",
    "CombinatorsError",
    "EmptyStreamError",
    "ExponentialWait",
    "FixedWait",
    "InputError",
    "InputValueError",
    "NoWait",
    "RetryPolicy",
    "RunConfig",
    "Runnable",
    "RunnableAssign",
    "RunnableBind",
    "RunnableBinding",
    "RunnableBranch",
    "RunnableEach",
    "RunnableGenerator",
    "RunnableLambda",
    "RunnableParallel",
    "RunnableParallelTuple",
    "RunnablePassthrough",
    "RunnablePick",
    "RunnablePure",
    "RunnableRetry",
    "RunnableSequence",
    "RunnableTool",
    "RunnableWithFallbacks",
    "StepTimeout",
    "ToolArgumentsError",
    "adispatch_custom_event",
    "chain",
    "coerce_to_runnable",
    "dispatch_custom_event",
    "parallel",
    "pure",
]
