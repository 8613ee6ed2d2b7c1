"""How the peer's tracers shape a run's inputs and outputs, per run type.

The projections take ``input``/``output`` from the effects as given (the runtime has
already applied ``describe_input``/``describe_output``); what differs between the run
log, the v1 events and listener ``Run`` values is the envelope around them, measured on
langchain-core 1.8.3:

=============  ====================  =======================  ===================
run type       log ``final_output``  v1 ``*_end`` output      listener ``outputs``
=============  ====================  =======================  ===================
chain, parser  X if dict else        X                        as the log
               ``{"output": X}``
prompt         X                     X                        ``{"output": X}``
tool           ``{"output": X}``     X                        ``{"output": X}``
retriever      ``{"documents": X}``  ``{"documents": X}``     ``{"documents": X}``
llm            LLMResult             LLMResult                LLMResult
chat_model     LLMResult             LLMResult                LLMResult
=============  ====================  =======================  ===================

LLMResult is ``{"generations": [[{"text", "generation_info": None, "type", ("message")}]],
"llm_output": None, "run": None, "type": "LLMResult"}`` with generation type
``Generation`` for llms, ``ChatGenerationChunk`` for a streamed chat model (its chunks
added up) and ``ChatGeneration`` otherwise (a whole ``AIMessage``, also from a model that
streamed while invoked). An llm output that already is such a dict (it has
``"generations"``) is kept, with ``run``/``type`` added. A failed run's log output is
``{}`` (llm: ``{"generations": []...}``, chat model: ``{"generations": [[]]...}``), its
v1 end output ``None`` (retriever ``{}``, models as in the log).

>>> log_final_output("chain", "hi", streamed=False)
{'output': 'hi'}
>>> log_final_output("chain", {"k": 1}, streamed=False)
{'k': 1}
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Final, cast

from effects.projections.jsonable import is_secret, redacted_form, to_jsonable
from effects.projections.replayed import Replayed
from effects.effect_values import NOTHING

MODEL_TYPES: Final = frozenset({"llm", "chat_model"})


def log_type(run_type: str) -> str:
    """The type a run has in the run log: chat models are ``llm`` there.

    >>> log_type("chat_model"), log_type("parser")
    ('llm', 'parser')
    """
    return "llm" if run_type == "chat_model" else run_type


def as_dict(value: object) -> Mapping[str, object] | None:
    """``value`` as a dict when it is one (or was one, for a replayed value), else None.

    >>> as_dict({"a": 1}), as_dict([1])
    ({'a': 1}, None)
    """
    if isinstance(value, dict):
        return cast(dict[str, object], value)
    if isinstance(value, Replayed) and value.was_dict and isinstance(value.json, dict):
        return cast(dict[str, object], value.json)
    return None


def token_text(chunk: object) -> str:
    """The text a model chunk contributes: a str itself, its ``.text``, its str ``.content``.

    Anything else gives the text of its JSON form (never ``str()``, which could show a
    secret held inside).

    >>> class Piece:
    ...     content = "hi"
    >>> token_text("a"), token_text(Piece()), token_text(3), token_text({"k": None})
    ('a', 'hi', '3', '{"k": null}')
    """
    if isinstance(chunk, str):
        return chunk
    if isinstance(chunk, Replayed):
        return chunk.text
    if is_secret(chunk):
        return token_text(redacted_form(chunk))
    for attribute in ("text", "content"):
        try:
            text = getattr(chunk, attribute, None)
        except Exception:  # a property that raises is no text
            continue
        if isinstance(text, str):
            return text
    encoded = to_jsonable(chunk)
    return encoded if isinstance(encoded, str) else json.dumps(encoded, ensure_ascii=False)


def add_chunk(total: object, chunk: object) -> tuple[object, bool]:
    """Add ``chunk`` to the running ``total``: the new total, and whether ``+`` was used.

    A ``None`` total (nothing yet) is replaced by the chunk; so is a total the chunk
    cannot be added to (``TypeError``), as the peer does.

    >>> add_chunk("a", "b")
    ('ab', True)
    >>> add_chunk("a", 1), add_chunk(None, "x")
    ((1, False), ('x', False))
    """
    if total is None:
        return chunk, False
    try:
        return total + chunk, True  # type: ignore[operator]
    except TypeError:
        return chunk, False


def llm_result(run_type: str, output: object, *, streamed: bool) -> dict[str, object]:
    """The LLMResult dict the peer's tracer records for a model run.

    >>> llm_result("llm", "ab", streamed=True)["generations"]
    [[{'text': 'ab', 'generation_info': None, 'type': 'Generation'}]]
    """
    if run_type == "chat_model":
        # A model invoked while watched streams its chunks but returns a whole message.
        kind = "ChatGenerationChunk" if streamed and not _whole_message(output) else "ChatGeneration"
        generation: dict[str, object] = {
            "text": token_text(output),
            "generation_info": None,
            "type": kind,
            "message": output,
        }
        return _llm_envelope([[generation]])
    given = as_dict(output)
    if given is not None and "generations" in given:
        return {**given, "run": given.get("run"), "type": given.get("type", "LLMResult")}
    text_only: dict[str, object] = {
        "text": token_text(output),
        "generation_info": None,
        "type": "Generation",
    }
    return _llm_envelope([[text_only]])


def _whole_message(output: object) -> bool:
    if isinstance(output, Replayed):
        return isinstance(output.json, dict) and output.json.get("type") == "AIMessage"
    return getattr(output, "type", None) == "ai"


def _llm_envelope(generations: list[list[dict[str, object]]]) -> dict[str, object]:
    return {"generations": generations, "llm_output": None, "run": None, "type": "LLMResult"}


def traced_outputs(run_type: str, output: object, *, streamed: bool) -> Mapping[str, object]:
    """A finished run's outputs as the peer's tracer records them (listener ``Run.outputs``).

    >>> traced_outputs("tool", {"y": 1}, streamed=False)
    {'output': {'y': 1}}
    >>> traced_outputs("retriever", [], streamed=False)
    {'documents': []}
    """
    if run_type in MODEL_TYPES:
        return llm_result(run_type, output, streamed=streamed)
    if run_type == "retriever":
        return {"documents": output}
    if run_type == "tool":
        return {"output": output}
    given = as_dict(output)
    return given if given is not None else {"output": output}


def log_final_output(run_type: str, output: object, *, streamed: bool) -> object:
    """A finished sub-run's ``final_output`` in the run log (prompts are not wrapped).

    >>> log_final_output("prompt", "text", streamed=False)
    'text'
    """
    if run_type == "prompt":
        return output
    return traced_outputs(run_type, output, streamed=streamed)


def log_failed_output(run_type: str) -> dict[str, object]:
    """A failed sub-run's ``final_output`` in the run log.

    >>> log_failed_output("chain"), log_failed_output("llm")["generations"]
    ({}, [])
    """
    if run_type == "llm":
        return _llm_envelope([])
    if run_type == "chat_model":
        return _llm_envelope([[]])
    return {}


def v1_end_output(run_type: str, output: object, *, streamed: bool) -> object:
    """The ``output`` of a v1 ``on_*_end`` event for a sub-run.

    >>> v1_end_output("tool", 2, streamed=False), v1_end_output("retriever", [], streamed=False)
    (2, {'documents': []})
    """
    if run_type in MODEL_TYPES:
        return llm_result(run_type, output, streamed=streamed)
    if run_type == "retriever":
        return {"documents": output}
    return output


def v1_failed_output(run_type: str) -> object:
    """The ``output`` of the v1 ``on_*_end`` event the peer sends for a failed sub-run.

    >>> v1_failed_output("chain") is None, v1_failed_output("retriever")
    (True, {})
    """
    if run_type in MODEL_TYPES:
        return log_failed_output(run_type)
    if run_type == "retriever":
        return {}
    return None


def traced_inputs(input: object) -> Mapping[str, object]:
    """A run's inputs as the peer's tracer records them (listener ``Run.inputs``).

    A dict is kept, anything else is wrapped as ``{"input": x}``; an input not known
    yet (a run started in streaming mode) is the peer's placeholder ``{"input": ""}``.

    >>> traced_inputs("q"), traced_inputs({"query": "q"}), traced_inputs(NOTHING)
    ({'input': 'q'}, {'query': 'q'}, {'input': ''})
    """
    if input is NOTHING:
        return {"input": ""}
    given = as_dict(input)
    return given if given is not None else {"input": input}
