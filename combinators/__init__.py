"""Typed functional combinators for LLM pipelines: the Runnable/LCEL protocol as values.

>>> from combinators import RunnableLambda, RunnableParallel, RunnablePassthrough
>>> def words(text: str) -> list[str]:
...     return text.split()
>>> chain = RunnableParallel(words=RunnableLambda(words), raw=RunnablePassthrough()) | (lambda d: len(d["words"]))
>>> chain.invoke("a b c")
3

This is the users' root: the runnables, their config, the errors to catch and the types
a program annotates with (``StreamEvent`` and ``RunLogPatch`` for watching, ``ConfigLike``,
``ToolInput``, ``AnyRunnable``, ``JsonValue``); the run log's and JSON's load on first use.
Domain components have roots named as LangChain's (``combinators.prompts``,
``combinators.language_models``, ...); an author's ``Scope`` and ``Step`` are in ``effects``.
"""

from effects.deprecation import MOVED_TO_COMBINATORS as _MOVED_TO_COMBINATORS
from effects.deprecation import Moved as _Moved
from effects.deprecation import moved_exports as _moved_exports
from effects.deprecation import moved_modules as _moved_modules
from effects.lazy import lazy_exports as _lazy_exports
import typing as _typing

if _typing.TYPE_CHECKING:
    # This root's names, declared for the checkers; at run time each loads on first use
    # (``_LAZY``), so that ``from combinators import RunnableLambda`` loads only what that
    # node needs (a structure test names the rooms it leaves out).
    from combinators.addable import AddableDict as AddableDict
    from combinators.addable import aadd as aadd
    from combinators.addable import add as add
    from combinators.config_helpers import ensure_config as ensure_config
    from combinators.config_helpers import get_config_list as get_config_list
    from combinators.config_helpers import patch_config as patch_config
    from combinators.config_helpers import run_in_executor as run_in_executor
    from combinators.nodes.assign import RunnableAssign as RunnableAssign
    from combinators.nodes.reader import RunnableBind as RunnableBind
    from combinators.nodes.reader import RunnablePure as RunnablePure
    from combinators.nodes.reader import pure as pure
    from combinators.nodes.binding import RunnableBinding as RunnableBinding
    from combinators.nodes.branch import RunnableBranch as RunnableBranch
    from combinators.nodes.lambda_ import chain as chain
    from combinators._support.coerce import coerce_to_runnable as coerce_to_runnable
    from combinators.nodes.each import RunnableEach as RunnableEach
    from combinators.nodes.fallbacks import RunnableWithFallbacks as RunnableWithFallbacks
    from combinators.nodes.generator import RunnableGenerator as RunnableGenerator
    from combinators.nodes.lambda_ import RunnableLambda as RunnableLambda
    from combinators.nodes.parallel import RunnableParallel as RunnableParallel
    from combinators.nodes.parallel_tuple import RunnableParallelTuple as RunnableParallelTuple
    from combinators.nodes.parallel_tuple import parallel as parallel
    from combinators.nodes.passthrough import RunnablePassthrough as RunnablePassthrough
    from combinators.nodes.pick import RunnablePick as RunnablePick
    from combinators.nodes.retry import RunnableRetry as RunnableRetry
    from combinators.nodes.configurable import ConfigurableError as ConfigurableError
    from combinators.nodes.configurable import ConfigurableField as ConfigurableField
    from combinators.nodes.configurable import ConfigurableFieldSpec as ConfigurableFieldSpec
    from combinators.nodes.configurable_alternatives import (
        RunnableConfigurableAlternatives as RunnableConfigurableAlternatives,
    )
    from combinators.nodes.configurable_fields import RunnableConfigurableFields as RunnableConfigurableFields
    from combinators.nodes.router import RouterInput as RouterInput
    from combinators.nodes.router import RouterRunnable as RouterRunnable
    from combinators.retry_policy import ExponentialWait as ExponentialWait
    from combinators.retry_policy import FixedWait as FixedWait
    from combinators.retry_policy import NoWait as NoWait
    from combinators.retry_policy import RetryPolicy as RetryPolicy
    from combinators.service_errors import ServiceAuthError as ServiceAuthError
    from combinators.service_errors import ServiceBadRequest as ServiceBadRequest
    from combinators.service_errors import ServiceConflict as ServiceConflict
    from combinators.service_errors import ServiceConnectionError as ServiceConnectionError
    from combinators.service_errors import ServiceError as ServiceError
    from combinators.service_errors import ServiceNotFound as ServiceNotFound
    from combinators.service_errors import ServicePayloadTooLarge as ServicePayloadTooLarge
    from combinators.service_errors import ServiceRateLimited as ServiceRateLimited
    from combinators.service_errors import ServiceResponseError as ServiceResponseError
    from combinators.service_errors import ServiceTimeout as ServiceTimeout
    from combinators.service_errors import ServiceUnavailable as ServiceUnavailable
    from combinators.service_errors import ServiceUnprocessable as ServiceUnprocessable
    from combinators.service_errors import TransientServiceError as TransientServiceError
    from combinators.runnable.composing import AnyRunnable as AnyRunnable
    from combinators.runnable.composing import Runnable as Runnable
    from combinators.nodes.sequence import RunnableSequence as RunnableSequence
    from combinators.nodes.tool import RunnableTool as RunnableTool
    from combinators.nodes.tool import ToolCallLike as ToolCallLike
    from combinators.nodes.tool import ToolInput as ToolInput
    from combinators.nodes.tool import ToolArgumentsError as ToolArgumentsError
    from effects.config import ConfigLike as ConfigLike
    from effects.config import RunConfig as RunConfig
    from effects.config import RunConfigDict as RunConfigDict
    from effects.event_types import CustomStreamEvent as CustomStreamEvent
    from effects.event_types import RunEndEvent as RunEndEvent
    from effects.event_types import RunErrorEvent as RunErrorEvent
    from effects.event_types import RunStartEvent as RunStartEvent
    from effects.event_types import RunStreamEvent as RunStreamEvent
    from effects.event_types import StandardStreamEvent as StandardStreamEvent
    from effects.event_types import StreamEvent as StreamEvent
    from effects.effect_values import RunType as RunType
    from effects.errors import CombinatorsError as CombinatorsError
    from effects.errors import EmptyStreamError as EmptyStreamError
    from effects.errors import InputError as InputError
    from effects.errors import InputValueError as InputValueError
    from effects.errors import StepTimeout as StepTimeout
    from effects.deprecation import CombinatorsDeprecationWarning as CombinatorsDeprecationWarning
    from effects.authoring import adispatch_custom_event as adispatch_custom_event
    from effects.authoring import dispatch_custom_event as dispatch_custom_event
    from effects.projections.jsonable import JsonValue as JsonValue
    from effects.patch_ops import AddOp as AddOp
    from effects.patch_ops import CheckOp as CheckOp
    from effects.patch_ops import CopyOp as CopyOp
    from effects.patch_ops import MoveOp as MoveOp
    from effects.patch_ops import PatchOp as PatchOp
    from effects.patch_ops import RemoveOp as RemoveOp
    from effects.patch_ops import ReplaceOp as ReplaceOp
    from effects.projections.run_log import RunLog as RunLog
    from effects.projections.run_log import RunLogPatch as RunLogPatch

    # Deprecated here (their home is ``effects``, the authors' root); declared so that an
    # old import is a warning at run time, not a type error.
    from effects import Scope as Scope
    from effects import Step as Step

_LAZY: dict[str, str] = {
    **dict.fromkeys(("AddableDict", "aadd", "add"), "combinators.addable"),
    **dict.fromkeys(
        ("ensure_config", "get_config_list", "patch_config", "run_in_executor"), "combinators.config_helpers"
    ),
    "RunnableAssign": "combinators.nodes.assign",
    **dict.fromkeys(("RunnableBind", "RunnablePure", "pure"), "combinators.nodes.reader"),
    "RunnableBinding": "combinators.nodes.binding",
    "RunnableBranch": "combinators.nodes.branch",
    "chain": "combinators.nodes.lambda_",
    "coerce_to_runnable": "combinators._support.coerce",
    "RunnableEach": "combinators.nodes.each",
    "RunnableWithFallbacks": "combinators.nodes.fallbacks",
    "RunnableGenerator": "combinators.nodes.generator",
    "RunnableLambda": "combinators.nodes.lambda_",
    "RunnableParallel": "combinators.nodes.parallel",
    **dict.fromkeys(("RunnableParallelTuple", "parallel"), "combinators.nodes.parallel_tuple"),
    "RunnablePassthrough": "combinators.nodes.passthrough",
    "RunnablePick": "combinators.nodes.pick",
    "RunnableRetry": "combinators.nodes.retry",
    **dict.fromkeys(
        ("ConfigurableError", "ConfigurableField", "ConfigurableFieldSpec"), "combinators.nodes.configurable"
    ),
    "RunnableConfigurableAlternatives": "combinators.nodes.configurable_alternatives",
    "RunnableConfigurableFields": "combinators.nodes.configurable_fields",
    **dict.fromkeys(("RouterInput", "RouterRunnable"), "combinators.nodes.router"),
    **dict.fromkeys(("ExponentialWait", "FixedWait", "NoWait", "RetryPolicy"), "combinators.retry_policy"),
    **dict.fromkeys(("AnyRunnable", "Runnable"), "combinators.runnable.composing"),
    "RunnableSequence": "combinators.nodes.sequence",
    **dict.fromkeys(("RunnableTool", "ToolCallLike", "ToolInput", "ToolArgumentsError"), "combinators.nodes.tool"),
    # the names written in ``effects`` whose home is this root (effects' root still answers for
    # them, with a warning): listed once, for both roots
    **_MOVED_TO_COMBINATORS,
    "CombinatorsDeprecationWarning": "effects.deprecation",
    # the one service-error family, listed here only (a test holds it to the classes the
    # module defines; `import combinators` imports nothing of it)
    **dict.fromkeys(
        (
            "ServiceAuthError",
            "ServiceBadRequest",
            "ServiceConflict",
            "ServiceConnectionError",
            "ServiceError",
            "ServiceNotFound",
            "ServicePayloadTooLarge",
            "ServiceRateLimited",
            "ServiceResponseError",
            "ServiceTimeout",
            "ServiceUnavailable",
            "ServiceUnprocessable",
            "TransientServiceError",
        ),
        "combinators.service_errors",
    ),
}
"""Where each exported name lives, loaded on first use (a structure test checks it agrees
with the declarations above); ``__all__`` is composed from it."""

_MOVED: dict[str, _Moved] = dict.fromkeys(("Scope", "Step"), _Moved("effects"))
"""Names this root exported before each public name got one home (see CONTRIBUTING)."""

# Old module paths, kept importable (with a dated warning) by one finder, no file each.
_moved_modules({"combinators.chain_decorator": _Moved("combinators", source="combinators.nodes.lambda_")})

if not _typing.TYPE_CHECKING:
    # Hidden from the checkers, so that a misspelled import from this root is an error.
    __getattr__ = _moved_exports(__name__, _MOVED, _lazy_exports(__name__, _LAZY))

# Every name of this root, composed from ``_LAZY`` (the one table of where each lives), not
# copied; the checkers read the ``X as X`` declarations above, and a structure test holds
# the declarations and ``_LAZY`` together.
__all__ = list(_LAZY)  # pyright: ignore[reportUnsupportedDunderAll]
