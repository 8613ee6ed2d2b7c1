"""A chat loop with memory over the quickstart's retrieval chain, offline.

    python examples/chat.py [--db FILE] [--session NAME]

Type a question per line; the answer streams from the local extractive model, and
each turn (your question, the answer) is stored in a SQLite file under the session's
name, so a second run with the same ``--db`` and ``--session`` remembers the
conversation. ``/history`` prints what the session remembers, ``/sessions`` the
sessions in the file, ``/quit`` (or the end of the input) ends.

A follow-up question that refers to an earlier turn ("When do they leave?", "and after
that?") is first rewritten with the history into one that stands alone, and that one is
what the retriever searches and the model answers, as LangChain's history-aware retriever
does (there a model rewrites it; here, offline, the words of the earlier questions it
refers to are added to it, and for "she"/"he" the names the last answer mentioned). The chain is the quickstart's, with the history placed
between the system message and the question::

    RunnablePassthrough.assign(standalone=standalone_question)
    | RunnablePassthrough.assign(context=standalone | retriever | format_documents_as_string)
    | prompt (system, MessagesPlaceholder("history"), human) | model | StrOutputParser()

wrapped in ``RunnableWithMessageHistory(chain, SQLiteHistoryStore(db),
input_messages_key="question", history_messages_key="history")``.
"""

from __future__ import annotations

import argparse
import re
import sys
from collections.abc import Mapping, Sequence
import tempfile
from pathlib import Path
from typing import Any, TextIO

from combinators import Runnable, RunnablePassthrough, RunnablePick
from combinators.documents import format_documents_as_string, load_text_documents
from combinators.language_models import ExtractiveChatModel
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate, MessagesPlaceholder
from combinators.retrievers import ENGLISH_STOPWORDS, Bm25Index
from combinators.chat_history import RunnableWithMessageHistory, SQLiteHistoryStore
from combinators.messages import AIMessage, HumanMessage

CORPUS = Path(__file__).parent / "corpus"

# Words that point back at an earlier turn, and openings that continue one.
_POINTERS = frozenset(
    [
        "it",
        "its",
        "they",
        "them",
        "their",
        "he",
        "him",
        "his",
        "she",
        "her",
        "there",
        "that",
        "this",
        "those",
        "these",
        "then",
    ]
)
# The pronouns that stand for a person the last answer named (the earlier questions alone
# rarely name them: "Who keeps the light?" then "When did she take over?").
_PERSONAL = frozenset(["he", "him", "his", "she", "her", "hers"])
# A name: a capitalised word that does not open a sentence (the answer's own words).
_NAME = re.compile(r"(?<![.!?]\s)(?<!^)\b[A-Z][a-z]+(?:\s+[A-Z][a-z]+)*")
_CONTINUES = re.compile(r"^\s*(?:and|but|also|so|then|what about|how about|after that)\b", re.IGNORECASE)
_WORD = re.compile(r"[a-z0-9']+")


def _content_words(text: str) -> list[str]:
    return [w for w in _WORD.findall(text.lower()) if w not in ENGLISH_STOPWORDS and w not in _POINTERS]


def _last_answer(history: Sequence[object]) -> str:
    return next((m.text for m in reversed(history) if isinstance(m, AIMessage)), "")


def _names_in(answer: str) -> list[str]:
    """The names an answer mentions, in order, as search words.

    >>> _names_in("The keeper of Skerry Point is Ida Marr. She took over in 2009.")
    ['skerry', 'point', 'ida', 'marr']
    """
    return [w.lower() for name in _NAME.findall(answer) for w in name.split()]


def refers_back(question: str) -> bool:
    """Whether a question leans on an earlier turn: a pronoun, a continuing opening, or
    at most one word of its own.

    >>> refers_back("When do they leave?"), refers_back("and after that?"), refers_back("When is the museum open?")
    (True, True, False)
    """
    words = _WORD.findall(question.lower())
    return bool(_CONTINUES.match(question)) or any(w in _POINTERS for w in words) or len(_content_words(question)) <= 1


def standalone_question(inputs: Mapping[str, object]) -> str:
    """The question, made to stand alone with the history: when it refers back, the words
    of the earlier questions it leans on (back to the last one that stood alone) are added.
    A pronoun that stands for a person ("she", "him"), in a question with at most one word
    of its own, also brings the names the last answer mentioned, as a model reading the
    answer would resolve it (with more words of its own, the names would drown them).

    >>> history = [HumanMessage("When do puffins nest?"), AIMessage("In early April.")]
    >>> standalone_question({"question": "When do they leave?", "history": history})
    'When do they leave? (puffins nest)'
    >>> standalone_question({"question": "When is the museum open?", "history": history})
    'When is the museum open?'
    >>> keeper = [HumanMessage("Who keeps the light?"), AIMessage("The keeper is Ida Marr, since 2009.")]
    >>> standalone_question({"question": "When did she take over?", "history": keeper})
    'When did she take over? (keeps light ida marr)'
    """
    question = str(inputs["question"])
    history = inputs.get("history")
    if not isinstance(history, Sequence) or not refers_back(question):
        return question
    earlier = [m.text for m in history if isinstance(m, HumanMessage)]
    leaned_on: list[str] = []
    for text in reversed(earlier):
        leaned_on = _content_words(text) + leaned_on
        if not refers_back(text):
            break
    own = set(_content_words(question))
    if len(own) <= 1 and _PERSONAL.intersection(_WORD.findall(question.lower())):
        leaned_on += _names_in(_last_answer(history))
    added = list(dict.fromkeys(w for w in leaned_on if w not in own))
    return f"{question} ({' '.join(added)})" if added else question


def build_chat(store: SQLiteHistoryStore) -> Runnable[Any, str]:
    """The quickstart's chain with a history, remembered per session in ``store``."""
    retriever = Bm25Index.from_documents(load_text_documents(CORPUS), stopwords=ENGLISH_STOPWORDS).as_retriever(k=3)
    prompt = ChatPromptTemplate.from_messages(
        [
            ("system", "Answer the question from the context only."),
            MessagesPlaceholder("history"),
            ("human", "Context:\n{context}\n\nQuestion: {standalone}"),
        ]
    )
    chain = (
        RunnablePassthrough.assign(standalone=standalone_question)
        | RunnablePassthrough.assign(context=RunnablePick("standalone") | retriever | format_documents_as_string)
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
