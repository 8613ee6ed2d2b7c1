"""A chat loop with memory over the quickstart's retrieval chain, offline.

    python examples/chat.py [--db FILE] [--session NAME]

Type a question per line; the answer streams from the local extractive model, and
each turn (your question, the answer) is stored in a SQLite file under the session's
name, so a second run with the same ``--db`` and ``--session`` remembers the
conversation. ``/history`` prints what the session remembers, ``/sessions`` the
sessions in the file, ``/quit`` (or the end of the input) ends.

The chain is the quickstart's, with the history placed between the system message
and the question::

    RunnablePassthrough.assign(context=question | retriever | format_documents_as_string)
    | prompt (system, MessagesPlaceholder("history"), human) | model | StrOutputParser()

wrapped in ``RunnableWithMessageHistory(chain, SQLiteHistoryStore(db),
input_messages_key="question", history_messages_key="history")``.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path
from typing import Any, TextIO

from combinators import Runnable, RunnablePassthrough, RunnablePick
from combinators.components import (
    ENGLISH_STOPWORDS,
    Bm25Index,
    ChatPromptTemplate,
    ExtractiveChatModel,
    MessagesPlaceholder,
    StrOutputParser,
    format_documents_as_string,
    load_text_documents,
)
from combinators.components.memory import RunnableWithMessageHistory, SQLiteHistoryStore

CORPUS = Path(__file__).parent / "corpus"


def build_chat(store: SQLiteHistoryStore) -> Runnable[Any, str]:
    """The quickstart's chain with a history, remembered per session in ``store``."""
    retriever = Bm25Index.from_documents(load_text_documents(CORPUS), stopwords=ENGLISH_STOPWORDS).as_retriever(k=3)
    prompt = ChatPromptTemplate.from_messages(
        [
            ("system", "Answer the question from the context only."),
            MessagesPlaceholder("history"),
            ("human", "Context:\n{context}\n\nQuestion: {question}"),
        ]
    )
    chain = (
        RunnablePassthrough.assign(context=RunnablePick("question") | retriever | format_documents_as_string)
        | prompt
        | ExtractiveChatModel(max_sentences=2)
        | StrOutputParser()
    )
    return RunnableWithMessageHistory(chain, store, input_messages_key="question", history_messages_key="history")


def chat(lines: TextIO, store: SQLiteHistoryStore, session: str) -> None:
    """Answer each line of ``lines`` in ``session``, streaming, until ``/quit`` or the end."""
    bot = build_chat(store)
    config = {"configurable": {"session_id": session}}
    earlier = len(store(session).get_messages())
    print(f"session {session!r} in {store.path}: {earlier} earlier messages")
    for line in lines:
        question = line.strip()
        if not question:
            continue
        print(f"you> {question}")
        if question == "/quit":
            break
        if question == "/history":
            for message in store(session).get_messages():
                print(f"  {message.type}: {message.text}")
            continue
        if question == "/sessions":
            print("  " + ", ".join(store.sessions()))
            continue
        print("bot> ", end="", flush=True)
        for chunk in bot.stream({"question": question}, config):
            print(chunk, end="", flush=True)
        print()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--db", help="the SQLite file of the conversations (default: a new temporary file)")
    parser.add_argument("--session", default="default", help="the conversation's name")
    args = parser.parse_args(argv)
    db = args.db or str(Path(tempfile.mkdtemp()) / "chat.db")
    chat(sys.stdin, SQLiteHistoryStore(db), args.session)
    return 0


if __name__ == "__main__":
    sys.exit(main())
