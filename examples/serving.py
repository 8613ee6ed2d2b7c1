"""Serving a chain whose clients may tune one setting, and nothing else.

The quickstart's retrieval chain, served with ``client_configurable={"sentences"}``: a
client may choose how many sentences the answer has, every other ``configurable`` id it
sends is dropped, and ``/config_schema`` shows only that one id. With a real model the
same line protects its endpoint and key::

    model = ChatOpenAI(base_url=INTERNAL_URL).configurable_fields(
        temperature=ConfigurableField(id="temperature"),
        base_url=ConfigurableField(id="base_url"),      # for the server's own code only
    )
    app = serve({"/chat": chain}, client_configurable={"temperature"})
    # client_configurable={"base_url"} would raise: ChatOpenAI declares it sensitive

Run it with ``python examples/serving.py`` (it asks its own app in-process and prints
what a client sees); serve it with ``python -m combinators.integrations.serving
examples.serving:chain --client-configurable sentences``.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from combinators import ConfigurableField, Runnable
from combinators.language_models import ExtractiveChatModel
from examples.rag import DEFAULT_QUESTION, build_chain


def chain() -> Runnable[str, str]:
    """The retrieval chain, its answer length configurable by id ``sentences``."""
    model = ExtractiveChatModel(max_sentences=2).configurable_fields(
        max_sentences=ConfigurableField(id="sentences", description="How many sentences the answer has")
    )
    return build_chain(model)


def app() -> Any:
    """The app: clients may set ``sentences`` and nothing else."""
    from combinators.integrations.serving import serve

    return serve({"/chain": chain()}, client_configurable={"sentences"})


def main() -> None:
    from starlette.testclient import TestClient

    with TestClient(app()) as client:
        schema = client.get("/chain/config_schema").json()
        print("a client may set:", sorted(schema["properties"]["configurable"]["properties"]))
        for configurable in ({}, {"sentences": 1}, {"sentences": 1, "base_url": "http://127.0.0.1:9/steal"}):
            body = {"input": DEFAULT_QUESTION, "config": {"configurable": configurable}}
            answer = client.post("/chain/invoke", json=body).json()["output"]
            print(f"{json.dumps(configurable)} -> {answer}")


if __name__ == "__main__":
    main()
