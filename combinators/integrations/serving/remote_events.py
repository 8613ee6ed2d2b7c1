"""A server's v2 events, read back into the effect values its runs would have emitted.

``RemoteRunnable`` adopts these effects under its own run (``Scope.adopt``): run ids are
kept and parents re-pointed, so every local projection shows the server's runs in place.
The server's root is the run whose events have no parent ids. Times are this side's
clock when each event arrived (events carry none).

>>> from uuid import UUID
>>> events = ServerEvents("http://127.0.0.1:8000/chat")
>>> root = str(UUID(int=1))
>>> start = events.effect({"event": "on_chain_start", "run_id": root, "name": "/chat",
...                        "tags": [], "metadata": {}, "parent_ids": [], "data": {"input": "hi"}})
>>> type(start).__name__, start.run.name, start.input
('RunStarted', '/chat', 'hi')
>>> events.effect({"event": "on_chain_end", "run_id": root, "name": "/chat", "tags": [],
...                "metadata": {}, "parent_ids": [], "data": {"output": "HI"}}).input
'hi'
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final, final
from uuid import UUID

from combinators.integrations.serving.errors import ErrorInfo
from combinators.integrations.serving.remote_errors import RemoteRunnableError, remote_error
from combinators.integrations.serving.wire import DEFAULT_WIRE_TYPES, WireTypes, from_wire
from effects import NOTHING, CustomEmitted, Effect, RunEnded, RunFailed, RunInfo, RunStarted, RunStreamed, current_clock
from effects.authoring import is_dict, is_list, is_str_mapping

_EVENT: Final = re.compile(r"^on_([a-z_]+?)_(start|stream|end|error)$")


@final
class ServerEvents:
    """Turns one stream of a server's v2 events (wire form) into effects, one by one."""

    __slots__ = ("url", "types", "_runs", "_inputs", "root_id", "root_output")

    def __init__(self, url: str, types: WireTypes = DEFAULT_WIRE_TYPES) -> None:
        self.url = url
        self.types = types
        self._runs: dict[str, RunInfo] = {}
        self._inputs: dict[str, object] = {}
        self.root_id: str | None = None
        """The server root's run id, once its start has been read."""
        self.root_output: object = NOTHING
        """The server root's output, once its end has been read."""

    def effect(self, event: object) -> Effect | None:
        """The effect of one event (``None`` for an event that is not a run's)."""
        if not is_dict(event):
            return None
        fields = event
        kind = fields.get("event")
        data_raw = fields.get("data")
        data: Mapping[object, object] = data_raw if is_dict(data_raw) else {}
        now = current_clock().now()
        if kind == "on_custom_event":
            run = self._run(fields, "chain")
            name = fields.get("name")
            return CustomEmitted(
                run, name if isinstance(name, str) else "", from_wire(fields.get("data"), self.types), now
            )
        match = _EVENT.match(kind) if isinstance(kind, str) else None
        if match is None:
            return None
        run_type, phase = match.groups()
        run = self._run(fields, run_type)
        key = str(run.run_id)
        if phase == "start":
            if not run.parent_ids:
                self.root_id = key
            shown = from_wire(data["input"], self.types) if "input" in data else NOTHING
            self._inputs[key] = shown
            return RunStarted(run, shown, now)
        if phase == "stream":
            return RunStreamed(run, from_wire(data.get("chunk"), self.types), now)
        shown = from_wire(data["input"], self.types) if "input" in data else self._inputs.get(key, NOTHING)
        self._inputs.pop(key, None)
        self._runs.pop(key, None)
        if phase == "end":
            output = from_wire(data.get("output"), self.types)
            if key == self.root_id:
                self.root_output = output
            return RunEnded(run, shown, output, now)
        return RunFailed(run, shown, self.error(data.get("error")), now)

    def error(self, shown: object) -> RemoteRunnableError:
        """The typed exception for an error as the server showed it.

        >>> ServerEvents("u").error({"status_code": 429, "type": "R", "message": "m"}).status_code
        429
        """
        return remote_error(ErrorInfo.from_json(shown), self.url)

    def _run(self, fields: Mapping[object, object], run_type: str) -> RunInfo:
        key = str(fields.get("run_id"))
        known = self._runs.get(key)
        if known is not None:
            return known
        parents = fields.get("parent_ids")
        tags = fields.get("tags")
        metadata = fields.get("metadata")
        name = fields.get("name")
        run = RunInfo(
            UUID(key),
            tuple(UUID(str(p)) for p in parents) if is_list(parents) else (),
            name if isinstance(name, str) else "",
            run_type,
            tuple(str(t) for t in tags) if is_list(tags) else (),
            metadata if is_dict(metadata) and is_str_mapping(metadata) else {},
        )
        self._runs[key] = run
        return run
