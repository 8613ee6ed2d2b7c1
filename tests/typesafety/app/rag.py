"""The retrieval chain: the README's quickstart shape, and a typed prompt."""

from typing import Any, TypedDict

from combinators import Runnable, RunnableLambda, RunnableParallel, RunnablePassthrough
from combinators.language_models import FakeListChatModel
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate

from tests.typesafety.app.corpus import build_retriever, format_documents, sources_of


class Question(TypedDict):
    question: str
    context: str


class Answer(TypedDict):
    answer: str
    sources: list[str]


retriever = build_retriever()
prompt = ChatPromptTemplate.from_messages(
    [("system", "Answer from the context:\n{context}"), ("human", "{question}")]
)
model = FakeListChatModel(responses=["At dusk."])

rag_chain: Runnable[str, str] = (
    {"context": retriever | format_documents, "question": RunnablePassthrough()}
    | prompt
    | model
    | StrOutputParser()
)

# LangChain's bind(**kwargs): keyword arguments bound to every call of the model.
terse_chain: Runnable[str, str] = (
    {"context": retriever | format_documents, "question": RunnablePassthrough()}
    | prompt
    | model.bind(stop=["\n"])
    | StrOutputParser()
)

typed_prompt = prompt.with_variables(Question)


def ask(question: str) -> Question:
    return {"question": question, "context": format_documents(retriever.invoke(question))}


typed_chain = RunnableLambda(ask) | typed_prompt | model | StrOutputParser()


def answer_of(parts: dict[str, Any]) -> Answer:
    return {"answer": str(parts["answer"]), "sources": list(parts["sources"])}


def reply_text(parts: dict[str, Any]) -> str:
    return rag_chain.invoke(str(parts["question"]))


def sources(parts: dict[str, Any]) -> list[str]:
    return sources_of(retriever.invoke(str(parts["question"])))


with_sources: Runnable[dict[str, Any], Answer] = (
    RunnablePassthrough.assign(answer=reply_text, sources=sources).pick(["answer", "sources"], required=True)
    | answer_of
)

both = RunnableParallel(answer=rag_chain, documents=retriever)


def run(question: str) -> Answer:
    return with_sources.invoke({"question": question})
