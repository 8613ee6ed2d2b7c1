"""A remote runnable is typed like a local one: it pipes, and a wrong pipe is an error.

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from typing import reveal_type

from combinators import RunnableLambda
from combinators.integrations.serving import RemoteRunnable


def parse(text: str) -> int:
    return int(text)


def half(n: int) -> float:
    return n / 2


parse_r = RunnableLambda(parse)  # Runnable[str, int]


def subscripted_remote_is_typed() -> None:
    remote = RemoteRunnable[int, str]("http://127.0.0.1:8000/chat")
    reveal_type(remote)  # R: RemoteRunnable[int, str]
    reveal_type(parse_r | remote)  # R: Runnable[str, str]
    reveal_type(remote.invoke(1))  # R: str


def annotated_remote_is_typed() -> None:
    remote: RemoteRunnable[int, int] = RemoteRunnable("http://127.0.0.1:8000/chat")
    reveal_type(parse_r | remote | half)  # R: Runnable[str, float]


def wrong_pipe_into_a_remote() -> None:
    remote = RemoteRunnable[bytes, str]("http://127.0.0.1:8000/chat")
    parse_r | remote  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnusedExpression
