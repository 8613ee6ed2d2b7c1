"""Extra `langchain`: langchain-core installs beside the library, and its runnables run inside a chain."""

from langchain_core.runnables import RunnableLambda as LangChainLambda

from combinators import RunnableLambda

theirs = LangChainLambda(lambda text: text + "!")
chain = RunnableLambda(str.upper) | RunnableLambda(theirs.invoke)
assert chain.invoke("hi") == "HI!"
print("langchain: a langchain-core runnable inside a chain")
