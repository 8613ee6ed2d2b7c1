"""Small models for the tracing tests: typed replies with ids, usage and finish reasons."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import attrs

from combinators.language_models import BaseChatModel
from combinators.messages import AIMessage, AIMessageChunk, Message
from combinators.secrets import Secret


def _usage(input_tokens: int, output_tokens: int) -> dict[str, Any]:
    return {
        "input_tokens": input_tokens,
        "output_tokens": output_tokens,
        "total_tokens": input_tokens + output_tokens,
        "input_token_details": {"cache_read": 2},
    }


@attrs.frozen
class ChatAcme(BaseChatModel):
    """Replies with the last message upper-cased, as the 'acme' provider would."""

    model: str = "acme-large"
    temperature: float = 0.25
    max_tokens: int = 64
    api_key: Secret = Secret("sk-acme-0123456789abcdef")

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        return AIMessage(
            messages[-1].text.upper(),
            id="resp-42",
            response_metadata={"model_name": "acme-large-2026", "finish_reason": "stop"},
            usage_metadata=_usage(7, 3),
        )

    def _stream(
        self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any
    ) -> Iterator[AIMessageChunk]:
        words = messages[-1].text.upper().split()
        for word in words:
            yield AIMessageChunk(word + " ", id="resp-43")
        yield AIMessageChunk(
            "",
            id="resp-43",
            response_metadata={"model_name": "acme-large-2026", "finish_reason": "length"},
            usage_metadata=_usage(7, len(words)),
            chunk_position="last",
        )


@attrs.frozen
class ChatLocked(BaseChatModel):
    """A model whose server refuses its key, and says the key in the error."""

    api_key: Secret = Secret("sk-live-0123456789abcdef")

    def _generate(self, messages: list[Message], stop: list[str] | None = None, **kwargs: Any) -> AIMessage:
        raise PermissionError(f"401: key {self.api_key.get_secret_value()} is not valid")
