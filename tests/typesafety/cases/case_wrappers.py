"""Every wrapper keeps ``[In, Out]``: config, kwargs, types, listeners, retry, fallbacks, timeout.

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from typing import Any, reveal_type

from combinators import ExponentialWait, RetryPolicy, RunConfig, RunnableLambda, pure


def parse(text: str) -> int:
    return int(text)


def parse_loosely(text: object) -> bool:
    return bool(text)


def half(n: int) -> float:
    return n / 2


def decode(data: bytes) -> str:
    return data.decode()


def on_end(run: Any) -> None:
    print(run)


def retry_value_errors(error: BaseException) -> bool:
    return isinstance(error, ValueError)


parse_r = RunnableLambda(parse)  # Runnable[str, int]
half_r = RunnableLambda(half)  # Runnable[int, float]
decode_r = RunnableLambda(decode)  # Runnable[bytes, str]


def with_config_keeps_the_types() -> None:
    reveal_type(parse_r.with_config(tags=["parse"], run_name="parse"))  # R: RunnableBinding[str, int]


def with_config_of_a_run_config() -> None:
    reveal_type(parse_r.with_config(RunConfig(max_concurrency=2)))  # R: RunnableBinding[str, int]


def with_kwargs_keeps_the_types() -> None:
    reveal_type(parse_r.with_kwargs(base=10))  # R: RunnableBinding[str, int]


def with_types_keeps_the_types() -> None:
    reveal_type(parse_r.with_types(input_type=str, output_type=int))  # R: Runnable[str, int]


def with_listeners_keeps_the_types() -> None:
    reveal_type(parse_r.with_listeners(on_start=on_end, on_end=on_end, on_error=on_end))  # R: Runnable[str, int]


def with_retry_of_a_policy() -> None:
    reveal_type(parse_r.with_retry(RetryPolicy(max_attempts=5, wait=ExponentialWait())))  # R: Runnable[str, int]


def with_retry_langchain_arguments() -> None:
    reveal_type(parse_r.with_retry(retry_if_exception_type=(ValueError,), stop_after_attempt=2))  # R: Runnable[str, int]


def with_retry_predicate() -> None:
    reveal_type(parse_r.with_retry(retry_if_exception_type=retry_value_errors))  # R: Runnable[str, int]


def with_fallbacks_keeps_the_types() -> None:
    reveal_type(parse_r.with_fallbacks([pure(0)]))  # R: Runnable[str, int]


def with_fallbacks_may_take_more_and_give_less() -> None:
    # A fallback may accept a wider input and return a narrower output (bool is an int).
    reveal_type(parse_r.with_fallbacks([RunnableLambda(parse_loosely)]))  # R: Runnable[str, int]


def with_timeout_keeps_the_types() -> None:
    reveal_type(parse_r.with_timeout(2.5))  # R: Runnable[str, int]


def wrappers_stack() -> None:
    reveal_type(parse_r.with_retry().with_timeout(1.0).with_config(tags=["x"]) | half_r)  # R: Runnable[str, float]


def with_config_then_wrong_step() -> object:
    return parse_r.with_config(tags=["x"]) | decode_r  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def with_kwargs_then_wrong_step() -> object:
    return parse_r.with_kwargs(base=10) | decode_r  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def with_types_then_wrong_step() -> object:
    return parse_r.with_types(input_type=str) | decode_r  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def with_listeners_then_wrong_step() -> object:
    return parse_r.with_listeners(on_end=on_end) | decode_r  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def with_retry_then_wrong_step() -> object:
    return parse_r.with_retry() | decode_r  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def with_fallbacks_then_wrong_step() -> object:
    return parse_r.with_fallbacks([pure(0)]) | decode_r  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def with_timeout_then_wrong_step() -> object:
    return parse_r.with_timeout(1.0) | decode_r  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def wrapper_input_is_still_checked() -> object:
    return half_r | parse_r.with_retry()  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def with_fallbacks_of_another_output_type() -> object:
    return parse_r.with_fallbacks([half_r])  # type: ignore[list-item]  # E: list-item / reportArgumentType


def with_fallbacks_of_another_input_type() -> object:
    return parse_r.with_fallbacks([decode_r])  # type: ignore[list-item]  # E: list-item / reportArgumentType


def with_retry_attempts_must_be_an_int() -> object:
    return parse_r.with_retry(stop_after_attempt="3")  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def with_timeout_seconds_must_be_a_number() -> object:
    return parse_r.with_timeout("5")  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def with_tracing_keeps_the_types() -> None:
    reveal_type(parse_r.with_tracing(meter=None))  # R: Runnable[str, int]


def with_tracing_meter_must_be_a_meter() -> object:
    return parse_r.with_tracing(meter="m")  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def with_tracing_tracer_must_be_a_tracer() -> object:
    return parse_r.with_tracing("t")  # type: ignore[arg-type]  # E: arg-type / reportArgumentType
