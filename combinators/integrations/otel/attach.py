"""Making a run's span the current span while it works (``OtelConfig.attach_context``).

Spans that other instrumentations start inside a run (an HTTP client's) then nest under
it. Runs do not always end in the order they started, nor in the context they started
in (a streamed step ends after the steps it feeds have started; a branch ends in its
own task), so the end of a run never resets a token: where its span (or a span of ours
that already ended) is still current, the span of its nearest open ancestor becomes
current again, or, past the root, the context from before the root.

>>> from opentelemetry import trace
>>> from opentelemetry.trace import NonRecordingSpan, SpanContext
>>> root, child = (Attached(NonRecordingSpan(SpanContext(1, i, False))) for i in (1, 2))
>>> ended: set[object] = set()
>>> root.attach(None); child.attach(root)
>>> trace.get_current_span() is child.span
True
>>> child.restore(ended); trace.get_current_span() is root.span
True
>>> root.restore(ended); trace.get_current_span()
NonRecordingSpan(SpanContext(trace_id=0x00000000000000000000000000000000, span_id=0x0000000000000000, trace_flags=0x00, trace_state=[], is_remote=False))
"""

from __future__ import annotations

from typing import final

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.context import Context
from opentelemetry.trace import Span


@final
class Attached:
    """A span made current, and what to make current when its run ends."""

    __slots__ = ("span", "context", "ambient", "parent")

    def __init__(self, span: Span) -> None:
        self.span = span
        self.context: Context | None = None
        self.ambient: Context | None = None
        self.parent: Attached | None = None

    def attach(self, parent: Attached | None) -> None:
        """Make this span current (in the context the run starts in)."""
        before = otel_context.get_current()
        self.context = trace.set_span_in_context(self.span, before)
        self.ambient = before if parent is None else parent.ambient
        self.parent = parent
        otel_context.attach(self.context)

    def restore(self, ended: set[object]) -> None:
        """The run ended: hand the current span back (see the module docstring)."""
        ended.add(self.span)
        shown = trace.get_current_span()
        if shown is not self.span and shown not in ended:
            return  # another open span (or one of the application's) is current here
        ancestor = self.parent
        while ancestor is not None and ancestor.span in ended:
            ancestor = ancestor.parent
        back = self.ambient if ancestor is None else ancestor.context
        if back is not None:
            otel_context.attach(back)
