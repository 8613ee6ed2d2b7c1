"""``RunnableConfigurableFields``: a runnable whose fields a call may replace by id.

The node is not a run of its own: the runtime runs the runnable rebuilt with the
call's values (``config["configurable"]``), so events show that runnable's run. A
rebuilt value is constructed again from its fields, so fields derived from others
(a fake model's cursor over its ``responses``) follow the new values.

>>> from combinators import ConfigurableField, pure
>>> answer = pure("yes").configurable_fields(value=ConfigurableField(id="answer"))
>>> answer
pure('yes').configurable_fields(value=ConfigurableField(id='answer', name=None, description=None, annotation=None, is_shared=False, client_settable=False))
>>> answer.invoke("?"), answer.invoke("?", {"configurable": {"answer": "no"}})
('yes', 'no')
"""

from __future__ import annotations

import typing
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast, final

import attrs

from combinators.nodes.binding import StandIn
from combinators.nodes.configurable import ConfigurableError, ConfigurableField, ConfigurableFieldSpec, sensitivity
from combinators.runnable.composing import Runnable
from effects.config import RunConfig
from effects.step import StepBinding
from effects.authoring import attrs_built
from effects.guards import is_a

if TYPE_CHECKING:
    from combinators.graph import Fragment, GraphBuilder, RunPlace

In = TypeVar("In", contravariant=True)
Out = TypeVar("Out", covariant=True)
A = TypeVar("A")
B = TypeVar("B")


def _init_fields(cls: type) -> dict[str, attrs.Attribute[object]]:
    return {f.name: f for f in attrs.fields(cls) if f.init}


CONFIGURABLE_AS = "configurable_as"
"""An attrs field's metadata key: the type a configured value may have when the class's
constructor converts more than the field holds (``GenericFakeChatModel.messages`` holds a
``Script`` and is configured with an iterator of messages, as the peer's)."""


def _field_types(cls: type) -> dict[str, object]:
    try:
        hints = typing.get_type_hints(cls)
    except Exception:  # annotations that do not resolve: the values go unchecked
        return {}
    declared = {f.name: f.metadata[CONFIGURABLE_AS] for f in attrs.fields(cls) if CONFIGURABLE_AS in f.metadata}
    return {**hints, **declared}


def _derived(field: attrs.Attribute[object]) -> bool:
    # Only an attrs.Factory has takes_self; True means the default is computed from the others.
    return bool(getattr(field.default, "takes_self", False))


def rebuilt(value: A, changes: Mapping[str, object]) -> A:
    """``value`` constructed again with ``changes``; fields derived from others are recomputed.

    >>> import attrs
    >>> @attrs.frozen
    ... class Cursor:
    ...     items: tuple[str, ...]
    ...     first: str = attrs.field(default=attrs.Factory(lambda self: self.items[0], takes_self=True))
    >>> rebuilt(Cursor(("a", "b")), {"items": ("z",)}).first
    'z'
    """
    cls = cast("type[attrs.AttrsInstance]", type(value))
    kwargs = {
        f.alias: changes[f.name] if f.name in changes else getattr(value, f.name)
        for f in attrs.fields(cls)
        if f.init and (f.name in changes or not _derived(f))
    }
    if "__attrs_init__" in vars(cls):  # a hand-written __init__: fill the fields as attrs does
        return cast(A, attrs_built(cls, **kwargs))
    return cast(A, cls(**kwargs))


@final
@attrs.frozen(repr=False)
class RunnableConfigurableFields(StandIn[In, Out]):
    """``bound`` with some fields chosen per call by configurable id."""

    bound: Runnable[In, Out]
    fields: tuple[tuple[str, ConfigurableField], ...]
    declared: tuple[ConfigurableFieldSpec, ...] = ()
    step_binding: StepBinding[In, Out] | None = attrs.field(init=False, eq=False, repr=False)

    @staticmethod
    def of(bound: Runnable[A, B], fields: Mapping[str, ConfigurableField]) -> Runnable[A, B]:
        """Declare ``fields`` of ``bound`` configurable (a wrong field name is an error here)."""
        if isinstance(bound, RunnableConfigurableFields):
            inner: RunnableConfigurableFields[A, B] = bound
            merged = RunnableConfigurableFields.of(inner.bound, {**dict(inner.fields), **fields})
            return RunnableConfigurableFields.declaring(merged, inner.declared) if inner.declared else merged
        if not attrs.has(type(bound)):
            raise TypeError(
                f"configurable_fields needs an attrs runnable; {bound.name} is a"
                f" {type(bound).__name__}, whose fields are not known"
            )
        known = _init_fields(type(bound))
        for name, spec in fields.items():
            if name not in known:
                raise ConfigurableError(
                    f"{bound.name} has no field {name!r} to make configurable; its fields are: "
                    + ", ".join(repr(f) for f in known)
                )
            if not is_a(spec, ConfigurableField):
                raise TypeError(f"configurable_fields({name}=...) takes a ConfigurableField, got {type(spec).__name__}")
        return RunnableConfigurableFields(bound, tuple(fields.items()))

    @staticmethod
    def declaring(bound: Runnable[A, B], specs: tuple[ConfigurableFieldSpec, ...]) -> Runnable[A, B]:
        """``bound``, declaring configurable ids that its own functions read."""
        if isinstance(bound, RunnableConfigurableFields):
            inner: RunnableConfigurableFields[A, B] = bound
            return attrs.evolve(inner, declared=(*inner.declared, *specs))
        return RunnableConfigurableFields(bound, (), specs)

    def __attrs_post_init__(self) -> None:
        object.__setattr__(self, "step_binding", StepBinding(self.bound, choose=self.configured))

    def stands_for(self) -> Runnable[In, Out]:
        """The bound runnable (configuring its fields keeps its types and schemas).

        >>> from combinators import ConfigurableField
        >>> from combinators.prompts import PromptTemplate
        >>> prompt = PromptTemplate("{topic}").configurable_fields(template=ConfigurableField(id="t"))
        >>> prompt.input_schema()["required"], prompt.output_schema() == PromptTemplate("{topic}").output_schema()
        (['topic'], True)
        """
        return self.bound

    def __repr__(self) -> str:
        text = self.bound.receiver_repr()
        if self.fields:
            text += f".configurable_fields({', '.join(f'{n}={s!r}' for n, s in self.fields)})"
        if self.declared:
            text += f".with_config_specs({', '.join(map(repr, self.declared))})"
        return text

    def own_config_specs(self) -> tuple[ConfigurableFieldSpec, ...]:
        """One spec per configurable field: its id, type, and the bound value as default."""
        cls = type(self.bound)
        types = _field_types(cls)
        fields = _init_fields(cls)
        return (
            tuple(
                ConfigurableFieldSpec(
                    id=spec.id,
                    annotation=spec.annotation if spec.annotation is not None else types.get(name, Any),
                    name=spec.name,
                    description=spec.description,
                    default=getattr(self.bound, name),
                    is_shared=spec.is_shared,
                    sensitive=sensitivity(fields[name], types.get(name, Any), getattr(self.bound, name)),
                    client_settable=spec.client_settable,
                )
                for name, spec in self.fields
            )
            + self.declared
        )

    def configured(self, config: RunConfig) -> Runnable[In, Out]:
        """The runnable this call runs: ``bound`` rebuilt with the values ``config`` chooses."""
        from combinators._support.config_specs import check_value

        chosen = config.configurable
        specs = {s.id: s for s in self.own_config_specs()}
        changes: dict[str, object] = {}
        for name, spec in self.fields:
            if spec.id in chosen:
                check_value(self.name, specs[spec.id], chosen[spec.id])
                changes[name] = chosen[spec.id]
        return rebuilt(self.bound, changes) if changes else self.bound

    def graph_fragment(self, graph: GraphBuilder, place: RunPlace) -> Fragment:
        return graph.at(self.bound, place)
