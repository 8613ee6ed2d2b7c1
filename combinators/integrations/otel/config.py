"""``OtelConfig``: what the tracing projection records, and how.

Content (prompts, messages, documents, tool arguments and results, inputs and outputs)
is not recorded unless ``capture`` says so: ``"span"`` puts it in span attributes,
``"event"`` in span events, ``"span_and_event"`` in both. Left unset, ``capture`` follows
``OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT`` (``NO_CONTENT``, ``SPAN_ONLY``,
``EVENT_ONLY``, ``SPAN_AND_EVENT``; ``true`` means span only), read when the config is
built, and is ``"none"`` without it. Whatever is recorded goes through ``redactor``
and is cut to ``max_content_chars``.

>>> OtelConfig(capture="span")
OtelConfig(capture='span')
>>> OtelConfig(metadata_keys=["user_id"]).metadata_keys
('user_id',)
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Final, Literal, final

import attrs

from combinators.authoring import changed_fields
from combinators.integrations.otel.redact import Redactor
from combinators.integrations.otel.semconv import CAPTURE_ENV
from effects.authoring import is_a

CaptureMode = Literal["none", "span", "event", "span_and_event"]
"""Where content goes: nowhere (the default), span attributes, span events, or both."""

_FROM_ENV: Final[dict[str, CaptureMode]] = {
    "NO_CONTENT": "none",
    "SPAN_ONLY": "span",
    "EVENT_ONLY": "event",
    "SPAN_AND_EVENT": "span_and_event",
    "TRUE": "span",
    "FALSE": "none",
}
_MODES: Final = ("none", "span", "event", "span_and_event")


def capture_from_env() -> CaptureMode:
    """The capture mode the environment asks for (``"none"`` when unset or unknown).

    >>> import os
    >>> os.environ.pop("OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT", None) and None
    >>> capture_from_env()
    'none'
    """
    return _FROM_ENV.get(os.environ.get(CAPTURE_ENV, "").strip().upper(), "none")


def _capture(value: CaptureMode | None) -> CaptureMode:
    if value is None:
        return capture_from_env()
    if value not in _MODES:
        raise ValueError(f"OtelConfig capture must be one of {', '.join(_MODES)}; got {value!r}")
    return value


def _positive(_instance: object, attribute: attrs.Attribute[int], value: int) -> None:
    if isinstance(value, bool) or not is_a(value, int) or value < 16:  # untyped callers
        raise ValueError(f"OtelConfig {attribute.name} must be an int >= 16, got {value!r}")


def _names(value: Sequence[str]) -> tuple[str, ...]:
    if isinstance(value, str):
        raise TypeError("OtelConfig metadata_keys must be a list of keys, not one str")
    return tuple(value)


@final
@attrs.frozen(repr=False)
class OtelConfig:
    """Options of the tracing projection (see the module docstring).

    - ``max_content_chars``: the most characters of one recorded content value.
    - ``stream_events``: an ``lcel.chunk`` event per streamed chunk (its index only;
      at most 128 per span, the SDK's default limit).
    - ``attach_context``: make each run's span the current span while the run works,
      so spans that other instrumentations start inside it (an HTTP client's) nest
      under it (a streamed run's span is current between its chunks too, in the
      consumer's code). Off by default: our spans never leak into the caller's context.
    - ``metadata_keys``: the metadata keys exported as ``lcel.metadata.<key>`` (str,
      int, float and bool values only, redacted); none by default.

    >>> OtelConfig(max_content_chars=8)
    Traceback (most recent call last):
    ...
    ValueError: OtelConfig max_content_chars must be an int >= 16, got 8
    """

    capture: CaptureMode = attrs.field(default=None, converter=_capture)
    max_content_chars: int = attrs.field(default=4096, validator=_positive)
    redactor: Redactor = attrs.field(factory=Redactor)
    stream_events: bool = False
    attach_context: bool = False
    metadata_keys: tuple[str, ...] = attrs.field(default=(), converter=_names)

    @property
    def on_spans(self) -> bool:
        """Whether content goes to span attributes."""
        return self.capture in ("span", "span_and_event")

    @property
    def on_events(self) -> bool:
        """Whether content goes to span events."""
        return self.capture in ("event", "span_and_event")

    @property
    def captures(self) -> bool:
        """Whether any content is recorded."""
        return self.capture != "none"

    def __repr__(self) -> str:
        # The call that builds it; capture's default is "none" once the env is read.
        shown = [] if self.capture == "none" else [f"capture={self.capture!r}"]
        return f"OtelConfig({', '.join(shown + changed_fields(self, skip=('capture',)))})"
