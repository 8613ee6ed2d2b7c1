"""Serving, a remote chain, a cluster and LangChain objects, typed as a user writes them."""

from collections.abc import Mapping, Sequence

from distributed import Client
from langchain_core.language_models.fake_chat_models import FakeListChatModel
from langchain_core.runnables import RunnableLambda as TheirLambda
from starlette.applications import Starlette

from combinators import Runnable, RunnableLambda
from combinators.integrations.dask import DaskExecutor
from combinators.integrations.langchain import from_langchain
from combinators.integrations.serving import RemoteRunnable, from_wire, serve, to_wire
from combinators.messages import AIMessage
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate
from effects import RunConfig


def greeting(name: str, config: RunConfig) -> str:
    # The known keys are typed as LangChain's RunnableConfig types them: no cast.
    user = config["configurable"].get("user_id", "anonymous")
    tags = list(config["tags"])
    return f"hello {name} from {user} ({len(tags)} tags)"


greet: Runnable[str, str] = RunnableLambda(greeting)


def served() -> Starlette:
    """Only the ids named here may be set by a client."""
    return serve({"/greet": greet}, client_configurable={"user_id"})


def remote_greeting(url: str, names: Sequence[str]) -> list[str]:
    with RemoteRunnable[str, str](url, timeout=5.0) as remote:
        return remote.batch(names)


def on_cluster(client: Client, names: Sequence[str]) -> list[str]:
    return greet.batch(names, executor=DaskExecutor(client))


# bind(**kwargs) binds call keyword arguments; bind(f) is the reader: f reads the input.
def shout(text: str) -> str:
    return text.upper()


def with_reader(text: str) -> Runnable[str, str]:
    return RunnableLambda(shout) if text else greet


bound_reader: Runnable[str, str] = greet.bind(with_reader)


# LangChain objects inside a chain of ours: a chat model keeps its types.
their_model = from_langchain(FakeListChatModel(responses=["a reply"]))
chain: Runnable[Mapping[str, object], str] = (
    ChatPromptTemplate.from_messages([("human", "{question}")]) | their_model | StrOutputParser()
)


def their_reply(question: str) -> str:
    reply = their_model.invoke(question)  # an AIMessage (or a chunk: the model may stream)
    return reply.text


counted: Runnable[str, int] = from_langchain(TheirLambda(len), str, int)


def reply_of(body: object) -> str:
    """A reply read off LangServe's wire form: an object until narrowed."""
    value = from_wire(body)
    return value.text if isinstance(value, AIMessage) else str(value)


wire_reply = to_wire(AIMessage("hi"))  # JSON data: {"type": "ai", "content": "hi", ...}
