"""Mistakes users make that the types catch (issue 14): each line is an expected error.

Type-test data (see ../README.md): checked by mypy and pyright, never imported.
"""

from typing import TypedDict

from combinators import RunnableLambda, RunnableParallel, parallel
from combinators.language_models import FakeListChatModel
from combinators.prompts import ChatPromptTemplate
from combinators.tools import tool


def parse(text: str) -> int:
    return int(text)


def digits(text: str) -> list[int]:
    return [int(c) for c in text]


def shout(text: str) -> str:
    return text.upper()


def double(n: int) -> int:
    return 2 * n


@tool
def multiply(a: int, b: int = 2) -> int:
    """Multiply two numbers."""
    return a * b


class Question(TypedDict):
    question: str
    context: str


parse_r = RunnableLambda(parse)
digits_r = RunnableLambda(digits)
shout_r = RunnableLambda(shout)
double_r = RunnableLambda(double)
model = FakeListChatModel(responses=["hi"])
prompt = ChatPromptTemplate.from_messages([("human", "{context} {question}")]).with_variables(Question)


def config_value_of_the_wrong_type() -> object:
    return parse_r.invoke("1", {"max_concurrency": "4"})  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def config_tags_as_one_string() -> object:
    return parse_r.invoke("1", {"tags": "fast"})  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def with_config_run_name_of_the_wrong_type() -> object:
    return parse_r.with_config(run_name=3)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def config_key_misspelled() -> object:
    return parse_r.invoke("1", {"max_concurency": 4})  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def tool_called_with_a_wrong_argument_type() -> object:
    return multiply.call(a="three")  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def tool_called_with_an_unknown_argument() -> object:
    return multiply.call(a=1, c=2)  # type: ignore[call-arg]  # E: call-arg / reportCallIssue, reportUnknownVariableType


def batch_of_one_string() -> object:
    return shout_r.batch("123")  # type: ignore[deprecated]  # E: deprecated / reportDeprecated


def include_types_as_one_string() -> object:
    return parse_r.stream_events("1", include_types="chat_model")  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def include_types_misspelled() -> object:
    return parse_r.stream_events("1", include_types=("chatmodel",))  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def a_non_model_input_into_a_model() -> object:
    return digits_r | model  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType


def prompt_variable_misspelled() -> object:
    return prompt.invoke({"questoin": "why?", "context": "c"})  # type: ignore[typeddict-item, typeddict-unknown-key]  # E: typeddict-item, typeddict-unknown-key / reportArgumentType


def prompt_variable_missing() -> object:
    return prompt.invoke({"question": "why?"})  # type: ignore[typeddict-item]  # E: typeddict-item / reportArgumentType


def parallel_branches_that_disagree() -> object:
    return RunnableParallel(n=parse_r, m=double_r).invoke("1")  # type: ignore[arg-type]  # E: arg-type / reportArgumentType


def tuple_parallel_index_out_of_range() -> object:
    return parallel(parse_r, shout_r).invoke("1")[2]  # type: ignore[misc]  # E: misc / reportGeneralTypeIssues


def pick_on_a_non_dict_output() -> object:
    return parse_r.pick("a", required=True)  # type: ignore[misc]  # E: misc / reportAttributeAccessIssue, reportUnknownMemberType, reportUnknownVariableType


def fallback_of_another_type() -> object:
    return parse_r.with_fallbacks([shout_r])  # type: ignore[list-item]  # E: list-item / reportArgumentType


def pipe_into_a_wrong_function() -> object:
    return parse_r.pipe(shout)  # type: ignore[arg-type]  # E: arg-type / reportArgumentType, reportCallIssue, reportUnknownVariableType


def model_output_into_a_str_step() -> object:
    return model | shout_r  # type: ignore[operator]  # E: operator / reportOperatorIssue, reportUnknownVariableType
