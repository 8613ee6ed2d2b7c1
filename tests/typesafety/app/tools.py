"""Tools, and a step that answers a model's tool calls."""

from combinators import Runnable, RunnableLambda
from combinators.messages import AIMessage, ToolMessage
from combinators.tools import tool


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers.

    Args:
        a: The first factor.
        b: The second factor.
    """
    return a * b


@tool
async def lookup(word: str) -> str:
    """Look a word up."""
    return word[::-1]


def answer_calls(message: AIMessage) -> list[ToolMessage]:
    replies: list[ToolMessage] = []
    for call in message.tool_calls:
        reply = multiply.invoke(call)
        if isinstance(reply, ToolMessage):
            replies.append(reply)
    return replies


tool_step: Runnable[AIMessage, list[ToolMessage]] = RunnableLambda(answer_calls)


def product(a: int, b: int) -> int:
    return multiply.call(a, b=b)


async def reversed_word(word: str) -> str:
    return await lookup.acall(word)
