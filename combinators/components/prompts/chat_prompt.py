"""``ChatPromptTemplate``: message parts filled in order with the input's values, a
runnable of run type ``prompt`` giving a ``ChatPromptValue``.

>>> chat = ChatPromptTemplate.from_messages([
...     ("system", "You are {persona}."),
...     ("placeholder", "{history}"),
...     ("human", "{question}"),
... ])
>>> chat.input_variables, chat.optional_variables
(('persona', 'question'), ('history',))
>>> print(chat.invoke({"persona": "a poet", "question": "Why?"}).to_string())
System: You are a poet.
Human: Why?

Values are frozen, so ``append`` and ``extend`` return a new prompt (the peer's change
the prompt in place): write ``prompt = prompt.append(...)``. An optional placeholder's
default ``[]`` is not listed among ``partial_variables`` (the peer lists it).
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict, Unpack, cast, final, overload

import attrs

from combinators.components.run_fields import NamedRunFields, RunFieldsKwargs, set_run_fields
from combinators import Runnable
from combinators.authoring import init_fields
from combinators.components.messages.coercion import get_buffer_string
from combinators.components.messages.message_classes import MESSAGE_TYPES, BaseMessage, Message
from combinators.components.prompts.formats import ListTuple
from combinators.components.prompts.chat_parts import (
    BaseMessagePromptTemplate,
    HumanMessagePromptTemplate,
    MessagesPlaceholder,
)
from combinators.components.prompts.content import content_key
from combinators.components.prompts.formats import (
    PartialValue,
    TemplateFormat,
    missing_variables_error,
    resolve_partials,
    to_partials,
)
from combinators.components.prompts.inputs import PromptInput, check_declared, prompt_values, variables_schema
from combinators.components.prompts.message_likes import ChatPromptPart, MessageLike, to_part
from combinators.components.prompts.traced import chat_prompt_params
from combinators.components.prompts.inputs import Variables, with_variables
from combinators.components.prompts.prompt_values import ChatPromptValue
from effects.authoring import Scope

if TYPE_CHECKING:
    from combinators.authoring import InputDraw


def _part_key(part: ChatPromptPart) -> object:
    # Messages hold mappings (unhashable): hash them by kind and content, which equal
    # messages share, so the hash stays consistent with equality.
    return (type(part).__name__, content_key(part.content)) if isinstance(part, BaseMessage) else part


def _one_message_like(value: tuple[object, ...]) -> bool:
    # A (role, template) pair is one message; any other tuple is a sequence of them.
    first = value[0] if value else None
    return len(value) == 2 and (isinstance(first, str) or (isinstance(first, type) and first in MESSAGE_TYPES))


class TemplateOptions(TypedDict, total=False):
    """How a template's text is read, for the constructors that pass it on to one that
    declares the defaults (``f-string``, no partial variables).

    >>> sorted(TemplateOptions.__annotations__)
    ['partial_variables', 'template_format']
    """

    template_format: TemplateFormat
    partial_variables: Mapping[str, PartialValue] | None


@final
@attrs.frozen(init=False, repr=False, hash=False)
class ChatPromptTemplate(NamedRunFields, Runnable[PromptInput, ChatPromptValue]):
    """A chat prompt: its parts filled in order with the input's values.

    ``input_variables`` (sorted) are every template variable and required placeholder,
    less the partial ones; a missing one raises the peer's ``KeyError``. Declared
    ``input_variables`` (the peer's keyword) are checked against them only with
    ``validate_template=True``, as in the peer (a ``ValueError`` names the difference;
    jinja2 only warns). ``messages`` and the variables compare equal to the peer's lists.

    >>> ChatPromptTemplate.from_template("{q}").input_variables == ["q"]
    True

    >>> ChatPromptTemplate([HumanMessagePromptTemplate("{q}")]).invoke("hi").to_messages()
    [HumanMessage('hi')]
    >>> ChatPromptTemplate(messages=[("human", "{a}")], input_variables=["a", "b"], validate_template=True)
    Traceback (most recent call last):
    ...
    ValueError: Got mismatched input_variables. Expected: {'a'}. Got: ['a', 'b']. ChatPromptTemplate declares input_variables ['a', 'b'], but its template reads ['a']: extra {'b'}
    """

    run_type = "prompt"

    messages: tuple[ChatPromptPart, ...]
    partial_variables: Mapping[str, PartialValue] = attrs.field(factory=dict[str, PartialValue])

    def __init__(
        self,
        messages: Sequence[MessageLike] = (),
        *,
        template_format: TemplateFormat = "f-string",
        partial_variables: Mapping[str, PartialValue] | None = None,
        input_variables: Sequence[str] | None = None,
        validate_template: bool = False,
        **run_fields: Unpack[RunFieldsKwargs],
    ) -> None:
        parts = ListTuple(to_part(m, template_format) for m in messages)
        init_fields(self, parts, to_partials(partial_variables))
        if validate_template:
            check_declared(self.name, input_variables, self.input_variables, self.optional_variables, template_format)
        set_run_fields(self, **run_fields)

    @classmethod
    def from_messages(
        cls, messages: Sequence[MessageLike], template_format: TemplateFormat = "f-string"
    ) -> ChatPromptTemplate:
        """A chat prompt from message-likes (see ``message_likes.to_part``).

        >>> ChatPromptTemplate.from_messages([("ai", "{{n}} apples")], "mustache").format(n=2)
        'AI: 2 apples'
        """
        return cls(messages, template_format=template_format)

    @classmethod
    def from_template(cls, template: str, **options: Unpack[TemplateOptions]) -> ChatPromptTemplate:
        """A chat prompt of one human message template (``template_format`` and
        ``partial_variables`` as ``HumanMessagePromptTemplate.from_template`` takes them).

        >>> ChatPromptTemplate.from_template("Hi {name}").input_variables
        ('name',)
        >>> ChatPromptTemplate.from_template("{{a}}", template_format="mustache").format(a=1)
        'Human: 1'
        """
        return cls((HumanMessagePromptTemplate.from_template(template, **options),))

    def describe_params(self, kwargs: Mapping[str, object]) -> Mapping[str, object]:
        """Traces show the parts' templates and the variables (``prompts.traced``).

        >>> [m["template"] for m in ChatPromptTemplate.from_template("Hi {x}").describe_params({})["messages"]]
        ['Hi {x}']
        """
        return self._traced

    @functools.cached_property
    def _traced(self) -> Mapping[str, object]:
        return chat_prompt_params(self)

    @property
    def input_variables(self) -> tuple[str, ...]:
        """The variables a caller supplies, sorted.

        >>> ChatPromptTemplate.from_messages([("system", "{b}"), ("placeholder", "{h}"), ("human", "{a}")]).input_variables
        ('a', 'b')
        """
        return self._input_variables

    @functools.cached_property
    def _input_variables(self) -> tuple[str, ...]:
        # Read at every format: worked out once per prompt (a value: it never changes).
        names: set[str] = set()
        for part in self.messages:
            if not isinstance(part, BaseMessage):
                names.update(part.input_variables)
        return ListTuple(sorted(names - self.partial_variables.keys()))

    @property
    def optional_variables(self) -> tuple[str, ...]:
        """The variables of optional placeholders, sorted.

        >>> ChatPromptTemplate.from_messages([("placeholder", "{h}"), ("human", "{a}")]).optional_variables
        ('h',)
        """
        names = {n for p in self.messages if isinstance(p, MessagesPlaceholder) for n in p.optional_variables}
        return ListTuple(sorted(names))

    def with_variables(self, variables: type[Variables]) -> Runnable[Variables, ChatPromptValue]:
        """This prompt taking ``variables``, a ``TypedDict`` of its variables (see
        ``PromptTemplate.with_variables``).

        >>> from typing import TypedDict
        >>> class Question(TypedDict):
        ...     question: str
        >>> chat = ChatPromptTemplate.from_template("{question}").with_variables(Question)
        >>> chat.invoke({"question": "why?"}).to_messages()
        [HumanMessage('why?')]
        """
        return with_variables(self, variables)

    def input_draw(self) -> InputDraw:
        """A dict of a text for each of its variables (``combinators.testing.inputs_for`` asks)."""
        from combinators.authoring import DrawVariables  # loaded when asked

        return DrawVariables(tuple(self.input_variables))

    def input_schema(self) -> dict[str, Any]:
        """An object of the prompt's variables (text, or message lists for placeholders),
        titled ``PromptInput`` as the peer's.

        >>> ChatPromptTemplate.from_messages([("placeholder", "{h}"), ("human", "{q}")]).input_schema()["required"]
        ['q']
        """
        lists = [p.variable_name for p in self.messages if isinstance(p, MessagesPlaceholder)]
        return variables_schema("PromptInput", self.input_variables, self.optional_variables, lists)

    def partial(self, **values: PartialValue) -> ChatPromptTemplate:
        """The same prompt with some variables filled (values, or callables called per format).

        >>> ChatPromptTemplate.from_template("{a}{b}").partial(b="!").format(a="x")
        'Human: x!'
        """
        return attrs.evolve(self, partial_variables={**self.partial_variables, **values})

    # ------------------------------------------------------------------ building on

    def __add__(self, other: object) -> ChatPromptTemplate:
        """This prompt, then ``other``: a chat prompt, a part, a message, a str (a human
        template) or a list of message-likes.

        >>> (ChatPromptTemplate.from_messages([("system", "{a}")]) + "hi {b}").input_variables
        ('a', 'b')
        """
        if isinstance(other, ChatPromptTemplate):
            twice = self.partial_variables.keys() & other.partial_variables.keys()
            if twice:
                raise ValueError(f"Cannot have same variable partialed twice: {sorted(twice)}")
            partials = {**self.partial_variables, **other.partial_variables}
            return ChatPromptTemplate((*self.messages, *other.messages), partial_variables=partials)
        if isinstance(other, (BaseMessagePromptTemplate, MessagesPlaceholder, BaseMessage, str)) or (
            isinstance(other, tuple) and _one_message_like(cast("tuple[object, ...]", other))
        ):
            return self.append(cast(MessageLike, other))  # a message-like: to_part checks it
        if isinstance(other, (list, tuple)):
            return self.extend(cast("Sequence[MessageLike]", other))
        return NotImplemented

    def append(self, message: MessageLike) -> ChatPromptTemplate:
        """A new prompt with ``message`` at the end (this one is a value: it does not change).

        >>> ChatPromptTemplate.from_messages([("system", "s")]).append(("human", "{q}")).input_variables
        ('q',)
        """
        return self.extend([message])

    def extend(self, messages: Sequence[MessageLike]) -> ChatPromptTemplate:
        """A new prompt with ``messages`` at the end.

        >>> len(ChatPromptTemplate([]).extend([("human", "a"), ("ai", "b")]))
        2
        """
        added = tuple(to_part(m) for m in messages)
        return ChatPromptTemplate(self.messages + added, partial_variables=self.partial_variables)

    @overload
    def __getitem__(self, index: int) -> ChatPromptPart: ...

    @overload
    def __getitem__(self, index: slice) -> ChatPromptTemplate: ...

    def __getitem__(self, index: int | slice) -> ChatPromptPart | ChatPromptTemplate:
        """A part, or a prompt of the parts in a slice.

        >>> prompt = ChatPromptTemplate.from_messages([("system", "s"), ("human", "{q}")])
        >>> prompt[1], prompt[:1].input_variables
        (HumanMessagePromptTemplate('{q}'), ())
        """
        if isinstance(index, slice):
            return ChatPromptTemplate(self.messages[index], partial_variables=self.partial_variables)
        return self.messages[index]

    def __len__(self) -> int:
        return len(self.messages)

    def __bool__(self) -> bool:
        return True  # a runnable is always "something", even with no parts

    # ------------------------------------------------------------------ formatting

    def _render(self, values: Mapping[str, object]) -> list[Message]:
        expected = self.input_variables
        if any(name not in values for name in expected):
            raise missing_variables_error(self.name, expected, list(values))
        resolved = resolve_partials(self.partial_variables, values) if self.partial_variables else values
        rendered: list[Message] = []
        for part in self.messages:
            if isinstance(part, BaseMessage):
                rendered.append(part)
            elif isinstance(part, BaseMessagePromptTemplate):
                rendered.extend(part.fill(resolved))  # checked above, with every part's variables
            else:
                rendered.extend(part.render(resolved))
        return rendered

    def format_messages(self, **values: object) -> list[Message]:
        """The messages these values make.

        >>> ChatPromptTemplate.from_messages([("system", "s"), ("human", "{q}")]).format_messages(q="x")
        [SystemMessage('s'), HumanMessage('x')]
        """
        return self._render(values)

    async def aformat_messages(self, **values: object) -> list[Message]:
        """Async ``format_messages`` (formatting never waits; for ported code).

        >>> import asyncio
        >>> asyncio.run(ChatPromptTemplate.from_template("{q}").aformat_messages(q="x"))
        [HumanMessage('x')]
        """
        return self._render(values)

    def format_prompt(self, **values: object) -> ChatPromptValue:
        """The prompt value these values make.

        >>> ChatPromptTemplate.from_template("{q}").format_prompt(q="x")
        ChatPromptValue(messages=(HumanMessage('x'),))
        """
        return ChatPromptValue(self._render(values))

    async def aformat_prompt(self, **values: object) -> ChatPromptValue:
        """Async ``format_prompt``.

        >>> import asyncio
        >>> asyncio.run(ChatPromptTemplate.from_template("{q}").aformat_prompt(q="y")).to_string()
        'Human: y'
        """
        return self.format_prompt(**values)

    def format(self, **values: object) -> str:
        """The messages these values make, as ``Speaker: text`` lines.

        >>> ChatPromptTemplate.from_messages([("system", "s"), ("human", "{q}")]).format(q="x")
        'System: s\\nHuman: x'
        """
        return get_buffer_string(self._render(values))

    async def aformat(self, **values: object) -> str:
        """Async ``format``.

        >>> import asyncio
        >>> asyncio.run(ChatPromptTemplate.from_template("{q}").aformat(q="z"))
        'Human: z'
        """
        return self.format(**values)

    def step_invoke(self, input: PromptInput, scope: Scope, kwargs: Mapping[str, object]) -> ChatPromptValue:
        return ChatPromptValue(self._render(prompt_values(self.name, input, self.input_variables)))

    def __hash__(self) -> int:
        return hash((tuple(_part_key(p) for p in self.messages), tuple(self.partial_variables)))

    def __repr__(self) -> str:
        shown = repr(list(self.messages))
        if self.partial_variables:
            shown += f", partial_variables={dict(self.partial_variables)!r}"
        return f"ChatPromptTemplate({shown})"
