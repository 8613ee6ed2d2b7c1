"""The constructor keywords every LangChain component takes: ``name=``, ``tags=``,
``metadata=``, ``verbose=`` and ``callbacks=``, shared by the library's components (prompts,
models, parsers, retrievers, tools) as two small attrs bases.

``tags``, ``metadata`` and ``callbacks`` have the effect ``with_config(tags=...,
metadata=..., callbacks=...)`` has on the component's own run; ``name`` is its run name
(``with_config(run_name=...)``); ``verbose`` is accepted and has no effect (the library
prints nothing; watch a run with ``astream_events`` or a handler instead).

>>> from combinators import RunnableLambda
>>> from combinators.prompts import PromptTemplate
>>> prompt = PromptTemplate.from_template("Hi {who}", name="greet", tags=["t"], metadata={"k": 1})
>>> prompt.name, prompt.tags, dict(prompt.metadata)
('greet', ('t',), {'k': 1})
>>> events = [e for e in prompt.stream_events({"who": "Ann"}) if e["event"] == "on_prompt_start"]
>>> events[0]["name"], events[0]["tags"], events[0]["metadata"]
('greet', ['t'], {'k': 1})

Unset, they cost nothing: the component's ``step_binding`` (read on every step) is
``None`` and its run is what it was; set, it is a ``StepBinding`` of a copy without them,
as ``with_config`` makes (tags and metadata) and handlers watching that copy's runs. ``callbacks`` is not part of the
component's value: equality, hashing and ``dumps`` leave the handlers out (a loaded
component has none), as LangChain's ``dumps`` does.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any, Final, SupportsIndex, TypedDict

import attrs

from effects.config import RunConfig
from effects.guards import is_dict, is_list_or_tuple
from effects.hooks import callbacks_observer_factory
from effects.step import ObserverFactory, StepBinding

__all__ = ["NOT_SERIALIZED", "NamedRunFields", "RunFields", "RunFieldsKwargs", "SKIPPED_WHEN_UNSET", "set_run_fields"]

NOT_SERIALIZED: Final = "combinators.not_serialized"
"""Field metadata: ``dumps`` never writes this field (callback handlers are not data)."""
SKIPPED_WHEN_UNSET: Final = "combinators.skipped_when_default"
"""Field metadata: ``dumps`` writes this field only when set (its default is empty), so
data written before the field existed and data of components that leave it unset agree."""


def _tags(value: Sequence[str] | None) -> tuple[str, ...]:
    return tuple(value) if value else ()


def _metadata(value: Mapping[str, object] | None) -> Mapping[str, object]:
    # A copy (the caller's dict stays theirs); a plain dict, because components pickle.
    return dict(value) if value else {}


class RunFieldsKwargs(TypedDict, total=False):
    """The keywords a hand-written component constructor passes on to its fields.

    >>> sorted(RunFieldsKwargs.__annotations__)
    ['callbacks', 'metadata', 'name', 'tags', 'verbose']
    """

    name: str | None
    tags: Sequence[str] | None
    metadata: Mapping[str, object] | None
    verbose: bool
    callbacks: Any


def _bind(instance: RunFields, attribute: object, value: object) -> None:
    # A validator, because attrs runs validators after every field is set (in generated and
    # hand-written constructors alike) and before any ``__attrs_post_init__`` a subclass
    # writes: the one place to derive the binding without asking subclasses to call super.
    del attribute, value
    if instance.step_binding is not None:
        return  # the other field's validator made it (two fields validate: see RunFields)
    binding = instance.run_fields_binding()
    if binding is not None:
        object.__setattr__(instance, "step_binding", binding)


@attrs.define(frozen=True, slots=False)
class RunFields:
    """``tags``, ``metadata``, ``verbose`` and ``callbacks`` as keyword-only fields (a base of
    components; a tool's ``name`` is its own field, see ``NamedRunFields`` for the others).

    >>> from combinators.tools import BaseTool
    >>> class Echo(BaseTool):
    ...     def _run(self, text: str) -> str:
    ...         return text
    >>> Echo(tags=["a"]) == Echo(tags=["a"]), Echo(tags=["a"]) == Echo(), Echo().step_binding is None
    (True, False, True)
    """

    # Two fields carry the validator that makes the binding, so a subclass that declares
    # ``callbacks`` itself (as LangChain users do on their models) still gets it.
    tags: tuple[str, ...] = attrs.field(
        default=(), converter=_tags, kw_only=True, repr=False, validator=_bind, metadata={SKIPPED_WHEN_UNSET: True}
    )
    """Tags of this component's runs (as ``with_config(tags=...)``)."""
    metadata: Mapping[str, object] = attrs.field(
        factory=dict[str, object],
        converter=_metadata,
        kw_only=True,
        repr=False,
        hash=False,
        metadata={SKIPPED_WHEN_UNSET: True},
    )
    """Metadata of this component's runs (as ``with_config(metadata=...)``)."""
    verbose: bool = attrs.field(default=False, kw_only=True, repr=False, metadata={SKIPPED_WHEN_UNSET: True})
    """Accepted as LangChain's components take it; it has no effect (nothing is printed)."""
    callbacks: Any = attrs.field(
        default=None, kw_only=True, repr=False, eq=False, hash=False, validator=_bind, metadata={NOT_SERIALIZED: True}
    )
    """LangChain callback handlers told about this component's runs (extra ``langchain``),
    as ``with_config(callbacks=...)``; not part of the value (equality, hash, ``dumps``)."""

    step_binding: StepBinding[Any, Any] | None = attrs.field(
        default=None, init=False, repr=False, eq=False, hash=False, metadata={NOT_SERIALIZED: True}
    )
    """What the fields add to this component's runs (None when unset: a plain attribute
    read on every step, no property frame); a field, so pickled copies keep it."""

    def __reduce_ex__(self, protocol: SupportsIndex) -> str | tuple[Any, ...]:
        """Pickled (or copied), the component leaves its handlers behind: they never
        travel. The binding's observer factory pickles as a stand-in, and the caller
        replays the runs it marks into the handlers (``effects.executors.kept_by_the_caller``).

        >>> import pickle
        >>> from langchain_core.callbacks import StdOutCallbackHandler
        >>> from combinators.output_parsers import StrOutputParser
        >>> shipped = pickle.loads(pickle.dumps(StrOutputParser(callbacks=[StdOutCallbackHandler()])))
        >>> shipped.callbacks is None, shipped.step_binding is not None
        (True, True)
        """
        reduced = super().__reduce_ex__(protocol)
        if self.callbacks is None or isinstance(reduced, str) or len(reduced) < 3:
            return reduced
        return (*reduced[:2], _without_callbacks(reduced[2]), *reduced[3:])

    def run_fields_binding(self) -> StepBinding[Any, Any] | None:
        """How the fields adjust this component's runs: a copy without them, run with their
        config and watched by the handlers' projection; None when they are all unset.

        >>> from combinators.output_parsers import StrOutputParser
        >>> StrOutputParser().run_fields_binding() is None
        True
        >>> StrOutputParser(tags=["x"]).run_fields_binding().config.tags
        ('x',)
        """
        if not (self.tags or self.metadata or self.callbacks):
            return None
        observers: tuple[ObserverFactory, ...] = ()
        if self.callbacks:
            factory = callbacks_observer_factory(self.callbacks, f"{type(self).__name__}(callbacks=...)")
            observers = () if factory is None else (factory,)
        bound: Any = copy.copy(self)  # a runnable (these fields are bases of runnables only)
        # The copy runs plainly: it must not find this binding again (nor handlers to bind).
        object.__setattr__(bound, "step_binding", None)
        object.__setattr__(bound, "callbacks", None)
        config = RunConfig(tags=self.tags, metadata=self.metadata)
        return StepBinding(bound, config=config, observers=observers)


def _without_callbacks(state: object) -> object:
    # A pickled state: a dict of fields, or (dict, slots) as Python's default makes it.
    if is_dict(state) and "callbacks" in state:
        return {**state, "callbacks": None}
    if is_list_or_tuple(state) and isinstance(state, tuple):
        return tuple(_without_callbacks(part) for part in state)
    return state


def set_run_fields(instance: RunFields, **run_fields: object) -> None:
    """Give a component built by a hand-written ``__init__`` its ``run_fields`` (the last
    step of that ``__init__``, once the component is whole: the binding copies it).

    >>> from combinators.output_parsers import StrOutputParser
    >>> parser = StrOutputParser()
    >>> set_run_fields(parser, tags=["x"])
    >>> parser.tags, parser.step_binding.config.tags
    (('x',), ('x',))
    """
    if not run_fields:
        return
    for field in attrs.fields(type(instance)):
        if field.alias in run_fields:
            value = run_fields.pop(field.alias)
            converter: Any = field.converter
            object.__setattr__(instance, field.name, value if converter is None else converter(value))
    object.__setattr__(instance, "step_binding", None)
    if run_fields:
        raise TypeError(f"{type(instance).__name__}() got unexpected keyword arguments: {', '.join(run_fields)}")
    _bind(instance, None, None)


@attrs.define(frozen=True, slots=False)
class NamedRunFields(RunFields):
    """``RunFields`` and ``name=``: the run name of the component (its class name unless
    given), as LangChain's ``name`` field and ``with_config(run_name=...)``.

    >>> from combinators.output_parsers import StrOutputParser
    >>> StrOutputParser().name, StrOutputParser(name="out").name
    ('StrOutputParser', 'out')
    """

    run_name: str | None = attrs.field(
        default=None, kw_only=True, alias="name", repr=False, metadata={SKIPPED_WHEN_UNSET: True}
    )
    """The name given to the constructor (``name=``), None when not given."""

    @property
    def name(self) -> str:
        """The run name in events and logs: the given ``name``, else the class name (a
        property already, as a runnable's ``name`` is: no binding needed for it)."""
        return self.run_name or type(self).__name__
