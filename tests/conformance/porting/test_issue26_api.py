"""API a LangChain user types (issue 26): prompts, parsers."""

from __future__ import annotations

import pydantic
import pytest

from combinators.messages import HumanMessage, SystemMessage
from combinators.output_parsers import JsonOutputParser
from combinators.prompts import ChatMessagePromptTemplate, ChatPromptTemplate, SystemMessagePromptTemplate


def test_a_message_template_plus_text_is_a_chat_prompt() -> None:
    prompt = SystemMessagePromptTemplate.from_template("You are a nice assistant.") + "{question}"
    assert isinstance(prompt, ChatPromptTemplate)
    assert prompt.format_messages(question="Hi?") == [SystemMessage("You are a nice assistant."), HumanMessage("Hi?")]
    both = SystemMessagePromptTemplate.from_template("{a}") + SystemMessagePromptTemplate.from_template("{b}")
    assert both.input_variables == ("a", "b")


def test_a_chat_message_template_from_a_file_takes_its_role(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "prompt.txt"
    path.write_text("Question: {question}\nAnswer:")
    built = ChatMessagePromptTemplate.from_template_file(path, role="human")
    assert built == ChatMessagePromptTemplate("Question: {question}\nAnswer:", role="human")


def test_a_dict_message_with_content_that_is_no_template_says_invalid_template() -> None:
    with pytest.raises(ValueError, match="Invalid template: False"):
        ChatPromptTemplate.from_messages([{"role": "system", "content": False}])


def test_json_output_parser_takes_a_pydantic_object_for_its_instructions() -> None:
    class Sample(pydantic.BaseModel):
        title: str = pydantic.Field(description="科学文章的标题")

    parser = JsonOutputParser(pydantic_object=Sample)
    assert "科学文章的标题" in parser.get_format_instructions()
    assert parser.invoke('{"title": "x"}') == {"title": "x"}  # plain JSON, as the peer's
    with pytest.raises(TypeError, match="pydantic model class"):
        JsonOutputParser(pydantic_object=dict)
