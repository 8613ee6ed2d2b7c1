"""A secret that flows through a live run never shows in any channel: events (v1, v2,
SSE bytes), the run log, recordings, listeners' runs, reprs and serialized forms."""

from __future__ import annotations

import asyncio
import json
import secrets as random_tokens
from typing import Any

from combinators import RunnableLambda
from combinators.load import dumps
from combinators.secrets import Secret
from effects.projections.recording import record


def test_a_canary_secret_never_leaks_from_a_live_run() -> None:
    canary = "sk-" + random_tokens.token_hex(16)
    key = Secret(canary)

    def with_key(question: str) -> dict[str, Any]:
        return {"question": question, "api_key": key}

    def answer(payload: dict[str, Any]) -> dict[str, Any]:
        assert payload["api_key"].get_secret_value() == canary  # the step can use it
        return {"answer": payload["question"].upper(), "key": payload["api_key"]}

    seen_runs: list[str] = []
    chain = (RunnableLambda(with_key) | RunnableLambda(answer)).with_listeners(
        on_end=lambda run: seen_runs.append(repr(run))
    )

    async def channels() -> list[str]:
        out: list[str] = []
        out += [repr(e) async for e in chain.astream_events("hi")]
        out += [repr(e) async for e in chain.astream_events("hi", version="v1")]
        out += [b.decode() async for b in chain.astream_events("hi", encoding="text/event-stream")]
        out += [repr(p) async for p in chain.astream_log("hi")]
        out += [json.dumps(log.state, default=str) async for log in chain.astream_log("hi", diff=False)]
        out += list(record([e async for e in chain.astream_effects("hi")]))
        return out

    texts = asyncio.run(channels())
    texts += seen_runs
    texts += [repr(chain.invoke("hi")), str(chain.invoke("hi")), dumps(chain.invoke("hi")["key"])]
    assert len(texts) > 20
    leaks = [t for t in texts if canary in t]
    assert leaks == []
    assert chain.invoke("hi")["key"].get_secret_value() == canary  # the value itself is intact
