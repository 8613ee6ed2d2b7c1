"""Extra `langchain`: langchain-core installs beside the library, and its runnables run inside a chain."""

from langchain_core.runnables import RunnableLambda as LangChainLambda

from combinators import RunnableLambda


def exclaim(text: str) -> str:
    return text + "!"


theirs = LangChainLambda(exclaim)


def through_langchain(text: str) -> str:
    # A named function of one parameter: a RunnableLambda passes its config to a function
    # that takes one, and langchain-core's invoke(input, config) would get ours.
    return theirs.invoke(text)


chain = RunnableLambda(str.upper) | RunnableLambda(through_langchain)
assert chain.invoke("hi") == "HI!"
print("langchain: a langchain-core runnable inside a chain")
