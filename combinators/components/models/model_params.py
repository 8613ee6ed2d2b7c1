"""What a model says about a call, for traces: provider, model and request options.

A model's ``describe_params`` reads its own fields (``model`` or ``model_name``,
``temperature``, ``max_tokens``, ``top_p``, ``top_k``, ``seed``, ``stop``), then an
``extra_body`` mapping, then the call's keyword arguments, later ones winning. The
provider is the model's ``provider`` class attribute, else its class name without a
leading or trailing ``Chat`` or a trailing ``LLM``, lower-cased (``ChatOpenAI`` -> ``openai``,
``FakeListLLM`` -> ``fakelist``), as the peer names it.

>>> import attrs
>>> @attrs.frozen
... class ChatLocal:
...     model: str = "qwen2.5"
...     temperature: float = 0.2
>>> dict(model_params(ChatLocal(), {"stop": ["\\n"]}))
{'provider': 'local', 'model': 'qwen2.5', 'temperature': 0.2, 'stop': ('\\n',)}
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from effects.authoring import is_list_of, is_str_mapping

_OPTIONS: Final = ("temperature", "max_tokens", "top_p", "top_k", "seed", "stop")


def default_provider(model: object) -> str:
    """The provider a model names, or its class name without ``Chat`` or ``LLM``, lower-cased.

    >>> class ChatOpenAI: ...
    >>> class OllamaLLM: ...
    >>> default_provider(ChatOpenAI()), default_provider(OllamaLLM())
    ('openai', 'ollama')
    """
    named = getattr(type(model), "provider", None)
    if isinstance(named, str) and named:
        return named
    name = type(model).__name__
    if name.startswith("Chat") and len(name) > 4:
        name = name[4:]
    elif name.endswith("Chat") and len(name) > 4:
        name = name[:-4]
    elif name.endswith("LLM") and len(name) > 3:
        name = name[:-3]
    return name.lower()


def _option(value: object) -> object:
    if isinstance(value, list | tuple):
        return tuple(str(item) for item in value)  # pyright: ignore[reportUnknownVariableType, reportUnknownArgumentType]
    return value


def model_params(model: object, kwargs: Mapping[str, object]) -> Mapping[str, object]:
    """The params of one call of ``model`` with ``kwargs`` (see the module docstring)."""
    params: dict[str, object] = {"provider": default_provider(model)}
    name = getattr(model, "model", None) or getattr(model, "model_name", None)
    if isinstance(name, str):
        params["model"] = name
    for key in _OPTIONS:
        value = getattr(model, key, None)
        if value is not None:
            params[key] = _option(value)
    extra: object = getattr(model, "extra_body", None)
    sources: tuple[Mapping[str, object] | None, ...] = (
        extra if is_str_mapping(extra) else None,
        kwargs,
    )
    for source in sources:
        if source:  # later sources win (and keep the place of a key already there)
            for key in _OPTIONS:
                value = source.get(key)
                if value is not None:
                    params[key] = _option(value)
    return params


_LANGSMITH: Final = (
    ("provider", "ls_provider"),
    ("model", "ls_model_name"),
    ("temperature", "ls_temperature"),
    ("max_tokens", "ls_max_tokens"),
    ("stop", "ls_stop"),
)


def langsmith_metadata(params: Mapping[str, object], model_type: str) -> dict[str, object]:
    """The peer's ``ls_*`` run metadata of a model call, from its ``model_params``.

    >>> langsmith_metadata({"provider": "openai", "model": "gpt-4o", "stop": ("x",)}, "chat")
    {'ls_provider': 'openai', 'ls_model_name': 'gpt-4o', 'ls_stop': ['x'], 'ls_model_type': 'chat'}
    >>> langsmith_metadata({"stop": "<end>"}, "llm")["ls_stop"]
    '<end>'

    """
    found: dict[str, object] = {}
    for key, name in _LANGSMITH:
        value = params.get(key)
        if value is not None:
            # stop as the caller gave it: one str, or a list (the peer's shapes)
            found[name] = list(value) if is_list_of(value, str) and isinstance(value, tuple) else value
    found["ls_model_type"] = model_type
    return found
