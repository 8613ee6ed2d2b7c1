"""LangChain's own unit tests (langchain-core's sdist) run against this library through a renaming shim."""
