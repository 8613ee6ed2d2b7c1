"""The playground page in a real headless browser (Debian's chromium, driven by Playwright):
the form and the run tree, the chat view, the agent view, documents, the value tree, the
configuration form, errors, Stop; ``/`` and ``/docs``."""

from __future__ import annotations

import base64
import json
import os
import random
import shutil
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any, TypedDict, cast

import pytest
from starlette.requests import Request

from combinators import ConfigurableField, Runnable, RunnableLambda
from combinators.agents import LoopPolicy, agent_loop
from combinators.documents import Document
from combinators.language_models import (
    FakeListChatModel,
    GenericFakeChatModel,
    ModelRateLimitError,
    Script,
    ScriptedChatModel,
)
from combinators.messages import AIMessage, BaseMessage, ToolCall
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate
from combinators.tools import tool
from combinators.integrations.serving import ErrorInfo, serve
from combinators.integrations.serving.config_hash import (
    compress_to_encoded_uri_component,
    decompress_from_encoded_uri_component,
)
from tests.integration.serving.test_config_hash import VECTORS
from tests.integration.serving.live import LiveServer, live

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
REPLY = "The lamp flashes twice every ten seconds"
SCREENS = Path(__file__).parent / "screens"
# Compares two PNGs (data URLs) in the page itself, so no image library is needed: how many
# pixels differ by more than a little (anti-aliasing may shift a channel by a few levels).
PIXEL_DIFF = """async ([a, b]) => {
  const load = (src) => new Promise((ok, bad) => {
    const image = new Image(); image.onload = () => ok(image); image.onerror = bad; image.src = src;
  });
  const [x, y] = await Promise.all([load(a), load(b)]);
  if (x.width !== y.width || x.height !== y.height) return {size: [x.width, x.height, y.width, y.height]};
  const pixels = (image) => {
    const canvas = document.createElement('canvas');
    canvas.width = image.width; canvas.height = image.height;
    const context = canvas.getContext('2d'); context.drawImage(image, 0, 0);
    return context.getImageData(0, 0, image.width, image.height).data;
  };
  const p = pixels(x), q = pixels(y);
  let differ = 0;
  for (let i = 0; i < p.length; i += 4) {
    if (Math.abs(p[i] - q[i]) + Math.abs(p[i + 1] - q[i + 1]) + Math.abs(p[i + 2] - q[i + 2]) > 24) differ++;
  }
  return {differ, total: p.length / 4};
}"""


class Ask(TypedDict):
    question: str
    k: int


def ask(q: Ask) -> dict[str, Any]:
    return {"question": f"{q['question']} (top {q['k']})"}


async def breaks(q: Ask) -> AsyncIterator[str]:
    yield "partial "
    raise ModelRateLimitError("slow down", status=429)


def asking_chain() -> Runnable[Ask, str]:
    prompt = ChatPromptTemplate.from_messages([("system", "Answer briefly."), ("human", "{question}")])
    model = GenericFakeChatModel(Script([REPLY], cycle=True), token_delay=0.08)
    return RunnableLambda(ask) | prompt | model | StrOutputParser()


@tool
def multiply(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


def agent() -> Runnable[Any, Any]:
    asks = AIMessage("", tool_calls=[ToolCall("multiply", {"a": 6, "b": 7}, id="call-1")])
    model = ScriptedChatModel([asks, "6 times 7 is 42."] * 4, token_delay=0.02)
    return agent_loop(model, [multiply], policy=LoopPolicy(max_iterations=5))


def chat_model() -> Runnable[Any, Any]:
    return GenericFakeChatModel(
        Script(["Hello! The lamp is lit at dusk.", "It flashes twice."], cycle=True), token_delay=0.05
    )


def slow_model() -> Runnable[Any, Any]:
    return GenericFakeChatModel(Script(["one two three four five six seven eight"], cycle=True), token_delay=0.5)


def search(question: str) -> list[Document]:
    return [
        Document("The keeper lights the lamp at dusk.", metadata={"source": "keeper.md", "page": 1}),
        Document("The harbour master keeps the tide tables.", metadata={"source": "harbour.md", "page": 3}),
    ]


def summary(question: str) -> dict[str, Any]:
    return {"question": question, "words": question.split(), "counts": {"words": len(question.split())}}


def refuse(value: dict[str, Any]) -> str:
    raise ValueError(f"cannot answer {value['question']!r}")


def configured() -> Runnable[str, str]:
    model = FakeListChatModel(["the usual reply"]).configurable_fields(
        responses=ConfigurableField(id="replies", name="Replies", description="what the fake says")
    )
    choice = model.configurable_alternatives(
        ConfigurableField(id="llm", name="Model", description="which model answers"),
        default_key="fake",
        other=FakeListChatModel(["the other model's reply"]),
    )
    return RunnableLambda(str.strip) | choice | StrOutputParser()


def value_errors(error: BaseException) -> ErrorInfo | None:
    if isinstance(error, ValueError):
        return ErrorInfo(400, "ValueError", "this question cannot be answered here")
    return None


class Turn(TypedDict):
    history: list[BaseMessage]
    question: str


def _said(message: object) -> str:
    # A message object once the server reads LangServe's message dicts back (issue 28), the
    # dict itself before that.
    if isinstance(message, dict):
        fields: dict[str, object] = cast("dict[str, object]", message)
        return str(fields["content"])
    return str(getattr(message, "text", message))


def with_history(turn: Turn) -> str:
    said = [_said(m) for m in turn["history"]]
    return f"{len(said)} before ({' / '.join(said)}); now: {turn['question']}"


def by_cookie(request: Request) -> str | None:
    return "alice" if request.cookies.get("session") == "alice" else None


ROUTES: dict[str, Runnable[Any, Any]] = {
    "/ask": asking_chain(),
    "/broken": RunnableLambda(breaks),
    "/chat": chat_model(),
    "/slow": slow_model(),
    "/agent": agent(),
    "/search": RunnableLambda(search),
    "/summary": RunnableLambda(summary),
    "/refuse": RunnableLambda(ask) | RunnableLambda(refuse),
    "/configured": configured(),
    "/turns": RunnableLambda(with_history),
}


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    app = serve(ROUTES, auth=by_cookie, error_map=value_errors, client_configurable={"/configured": {"llm"}})
    with live(app) as running:
        yield running


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """One Chromium for the module (launching it is most of a test's time); each test gets
    a fresh context: its own cookies, storage and cache."""
    if not shutil.which(CHROMIUM):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing (.ci/run installs Debian's chromium)")
        pytest.skip(f"{CHROMIUM} is missing")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS, headless=True)
        try:
            yield launched
        finally:
            launched.close()


@pytest.fixture
def browser(chromium: Any, server: LiveServer) -> Iterator[Any]:
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    try:
        yield context
    finally:
        context.close()


def _signed_in(browser: Any, server: LiveServer) -> None:
    browser.add_cookies([{"name": "session", "value": "alice", "url": server.url}])


def _open(browser: Any, server: LiveServer, path: str) -> Any:
    _signed_in(browser, server)
    page = browser.new_page()
    page.goto(f"{server.url}{path}/playground/")
    page.wait_for_selector("body[data-state=idle]")
    return page


def _texts(page: Any, selector: str) -> list[str]:
    texts: list[str] = page.eval_on_selector_all(selector, "els => els.map(e => e.textContent)")
    return texts


def _bodies_to(sent: list[Any]) -> Callable[[Any], None]:
    """A request listener keeping the JSON bodies the page posts to ``stream_events``."""

    def listen(request: Any) -> None:
        if str(request.url).endswith("/stream_events"):
            sent.append(request.post_data_json)

    return listen


def _urls_to(urls: list[str]) -> Callable[[Any], None]:
    def listen(request: Any) -> None:
        urls.append(str(request.url))

    return listen


def _matches_golden(page: Any, name: str) -> None:
    """The page looks as ``screens/<name>`` does (run times hidden: they vary), but for at
    most 0.2% of its pixels; ``COMBINATORS_UPDATE_GOLDEN=1`` rewrites the golden image.
    Measured stable here (0 pixels differ over repeated runs); a font or Chromium change
    fails it: look at the new picture, then rewrite it."""
    page.add_style_tag(content=".run .time { visibility: hidden; }")
    png: bytes = page.screenshot(full_page=True, animations="disabled", caret="hide")
    golden = SCREENS / name
    if os.environ.get("COMBINATORS_UPDATE_GOLDEN") == "1":
        golden.write_bytes(png)
    assert golden.exists(), f"{golden} is missing: run with COMBINATORS_UPDATE_GOLDEN=1 and look at it"
    urls = ["data:image/png;base64," + base64.b64encode(shot).decode() for shot in (golden.read_bytes(), png)]
    compared: dict[str, Any] = page.evaluate(PIXEL_DIFF, urls)
    assert "size" not in compared, f"the page's size changed: {compared}"
    assert compared["differ"] <= compared["total"] // 500, compared


def _screenshot(page: Any, tmp_path: Path, name: str) -> Path:
    """A full-page PNG; kept in ``$COMBINATORS_SCREENSHOTS`` when set (how docs/ gets them)."""
    shot = tmp_path / name
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    keep = os.environ.get("COMBINATORS_SCREENSHOTS")
    if keep:
        shutil.copy(shot, Path(keep) / name)
    return shot


def test_a_run_streams_into_the_page_with_its_run_tree(browser: Any, server: LiveServer, tmp_path: Path) -> None:
    _signed_in(browser, server)
    page = browser.new_page()
    page.goto(f"{server.url}/ask/playground/")
    page.wait_for_selector("body[data-state=idle]")
    page.fill("textarea[name=question]", "What does the lamp do?")
    page.fill("input[name=k]", "2")
    page.evaluate(
        """() => {
            window.outputs = [];
            new MutationObserver(() => {
                if (document.body.dataset.state === 'running') {
                    window.outputs.push(document.getElementById('output').textContent);
                }
            }).observe(document.getElementById('output'), {childList: true, characterData: true, subtree: true});
        }"""
    )
    page.click("#run")
    page.wait_for_function("document.getElementById('status').textContent === 'done'", timeout=20000)
    outputs: list[str] = page.evaluate("window.outputs")
    growing = [text for text in dict.fromkeys(outputs) if text]
    assert len(growing) >= 2, outputs
    assert all(REPLY.startswith(text) for text in growing)  # each update a longer prefix
    assert page.text_content("#output") == REPLY
    names = page.eval_on_selector_all("#tree .run > .line .name", "els => els.map(e => e.textContent)")
    assert names == ["/ask", "ask", "ChatPromptTemplate", "GenericFakeChatModel", "StrOutputParser"]
    types = page.eval_on_selector_all("#tree .run > .line .type", "els => els.map(e => e.textContent)")
    assert types == ["chain", "chain", "prompt", "chat_model", "parser"]
    times = page.eval_on_selector_all("#tree .run > .line .time", "els => els.map(e => e.textContent)")
    assert all(t.endswith((" ms", " s")) for t in times), times
    nested = page.eval_on_selector_all("#tree > .run > ul > .run", "els => els.length")
    assert nested == 4  # the steps hang under the root
    assert page.is_hidden("#error")
    _screenshot(page, tmp_path, "playground.png")


def test_a_failing_chain_shows_its_error_with_its_type(browser: Any, server: LiveServer, tmp_path: Path) -> None:
    _signed_in(browser, server)
    page = browser.new_page()
    page.goto(f"{server.url}/broken/playground/")
    page.wait_for_selector("body[data-state=idle]")
    page.fill("textarea[name=question]", "anything")
    page.fill("input[name=k]", "1")
    page.click("#run")
    page.wait_for_selector("#error:not([hidden])", timeout=20000)
    assert page.text_content("#error-type") == "ModelRateLimitError"
    assert page.text_content("#error-status") == "(429)"
    assert page.text_content("#error-message") == "the model server rate-limited the request (429)"
    assert page.text_content("#status") == "failed"
    assert page.text_content("#output") == "partial "
    assert page.eval_on_selector_all("#tree .run.failed", "els => els.length") == 1
    _screenshot(page, tmp_path, "playground-error.png")


def test_the_playground_needs_the_same_credentials(browser: Any, server: LiveServer) -> None:
    page = browser.new_page()
    response = page.goto(f"{server.url}/ask/playground/")
    assert response is not None and response.status == 401
    bad_input = browser.new_page()
    _signed_in(browser, server)
    bad_input.goto(f"{server.url}/ask/playground/")
    bad_input.wait_for_selector("body[data-state=idle]")
    bad_input.fill("textarea[name=question]", "q")  # k left empty: the server answers 422
    bad_input.click("#run")
    bad_input.wait_for_selector("#error:not([hidden])", timeout=20000)
    assert bad_input.text_content("#error-type") == "RequestValidationError"
    assert "'k' is a required property" in (bad_input.text_content("#error-message") or "")


def test_a_chat_model_gets_a_chat_with_its_history_and_a_streamed_reply(
    browser: Any, server: LiveServer, tmp_path: Path
) -> None:
    page = _open(browser, server, "/chat")
    assert page.get_attribute("body", "data-mode") == "chat"
    assert page.is_visible("#chat-panel") and page.is_hidden("#input-panel")
    sent: list[Any] = []
    page.on("request", _bodies_to(sent))
    page.evaluate(
        """() => {
            window.replies = [];
            new MutationObserver(() => {
                const last = document.querySelector('#transcript .bubble.ai:last-child .says');
                if (last) window.replies.push(last.textContent);
            }).observe(document.getElementById('transcript'), {childList: true, characterData: true, subtree: true});
        }"""
    )
    page.fill("#chat-input", "When is the lamp lit?")
    page.press("#chat-input", "Enter")
    page.wait_for_function("document.getElementById('chat-status').textContent === 'done'", timeout=20000)
    growing = [text for text in dict.fromkeys(page.evaluate("window.replies")) if text]
    assert len(growing) >= 3 and all("Hello! The lamp is lit at dusk.".startswith(t) for t in growing), growing
    page.fill("#chat-input", "And how does it flash?")
    page.click("#send")
    page.wait_for_function(
        "document.querySelectorAll('#transcript .bubble').length === 4 && "
        "document.getElementById('chat-status').textContent === 'done'",
        timeout=20000,
    )
    assert _texts(page, "#transcript .bubble .who") == ["human", "assistant", "human", "assistant"]
    assert _texts(page, "#transcript .bubble .says") == [
        "When is the lamp lit?",
        "Hello! The lamp is lit at dusk.",
        "And how does it flash?",
        "It flashes twice.",
    ]
    # Each turn sends the whole history, in LangServe's message form.
    assert [len(body["input"]) for body in sent] == [1, 3]
    assert sent[1]["input"][1] == {"type": "ai", "content": "Hello! The lamp is lit at dusk."}
    assert [m["type"] for m in sent[1]["input"]] == ["human", "ai", "human"]
    assert _texts(page, "#tree > .run > .line .name") == ["/chat"]
    assert page.is_hidden("#error")
    _screenshot(page, tmp_path, "playground-chat.png")


def test_a_chain_taking_a_history_and_a_question_is_a_chat_too(browser: Any, server: LiveServer) -> None:
    page = _open(browser, server, "/turns")
    assert page.get_attribute("body", "data-mode") == "chat"
    sent: list[Any] = []
    page.on("request", _bodies_to(sent))
    for question in ("first?", "second?"):
        page.fill("#chat-input", question)
        page.press("#chat-input", "Enter")
        page.wait_for_function("document.getElementById('send').disabled === false", timeout=20000)
    assert _texts(page, "#transcript .bubble .says") == [
        "first?",
        "0 before (); now: first?",
        "second?",
        "2 before (first? / 0 before (); now: first?); now: second?",
    ]
    assert sent[1] == {
        "input": {
            "history": [{"type": "human", "content": "first?"}, {"type": "ai", "content": "0 before (); now: first?"}],
            "question": "second?",
        }
    }
    page.click("#mode-switch")  # the form is one click away
    assert page.get_attribute("body", "data-mode") == "form"
    assert page.is_visible("textarea[name=question]")


def test_an_agent_shows_its_answer_on_top_of_its_steps(browser: Any, server: LiveServer, tmp_path: Path) -> None:
    page = _open(browser, server, "/agent")
    assert page.get_attribute("body", "data-mode") == "form"
    page.fill("#fields textarea", "What is 6 times 7?")  # text: the agent takes a string
    page.click("#run")
    page.wait_for_function("document.getElementById('status').textContent === 'done'", timeout=20000)
    assert page.text_content("#output .answer .text") == "6 times 7 is 42."
    order = page.evaluate("() => [...document.querySelectorAll('#output > *')].map(e => e.className)")
    assert order[:2] == ["answer", "steps"]  # the answer first, then how it was reached
    assert _texts(page, "#output .step .tool") == ["multiply"]
    assert _texts(page, "#output .step dt") == ["arguments", "result"]
    assert _texts(page, "#output .step dd") == ['{"a":6,"b":7}', "42"]
    assert _texts(page, "#output .step .state") == ["done"]
    assert "__combinators__" not in (page.text_content("#output") or "")
    assert "repr" not in (page.text_content("#output") or "")
    assert page.eval_on_selector_all("#tree .run.running", "els => els.length") == 0
    assert "multiply" in _texts(page, "#tree .run > .line .name")
    _screenshot(page, tmp_path, "playground-agent.png")
    _matches_golden(page, "playground-agent.png")


def test_documents_show_as_a_list_with_their_metadata(browser: Any, server: LiveServer, tmp_path: Path) -> None:
    page = _open(browser, server, "/search")
    page.fill("#fields textarea", "who lights the lamp?")
    page.click("#run")
    page.wait_for_function("document.getElementById('status').textContent === 'done'", timeout=20000)
    assert _texts(page, "#output .document .content") == [
        "The keeper lights the lamp at dusk.",
        "The harbour master keeps the tide tables.",
    ]
    assert _texts(page, "#output .document:first-child .metadata span") == ["source keeper.md", "page 1"]
    _screenshot(page, tmp_path, "playground-documents.png")


def test_other_structured_output_is_a_collapsible_tree(browser: Any, server: LiveServer) -> None:
    page = _open(browser, server, "/summary")
    page.fill("#fields textarea", "two words")
    page.click("#run")
    page.wait_for_function("document.getElementById('status').textContent === 'done'", timeout=20000)
    assert _texts(page, "#output .value-tree > details > summary") == ["{3}"]
    assert _texts(page, "#output .value-tree .key") == ["question: ", "words: ", "0: ", "1: ", "counts: ", "words: "]
    assert _texts(page, "#output .value-tree .string") == ['"two words"', '"two"', '"words"']
    assert _texts(page, "#output .value-tree .number") == ["2"]
    words = page.locator("#output .value-tree details details").first
    assert words.get_attribute("open") is not None
    page.click("#output .value-tree details details > summary")  # folds
    assert words.get_attribute("open") is None


def test_a_mapped_error_shows_the_type_and_message_the_server_allows(
    browser: Any, server: LiveServer, tmp_path: Path
) -> None:
    page = _open(browser, server, "/refuse")
    page.fill("textarea[name=question]", "the secret plan")
    page.fill("input[name=k]", "1")
    page.click("#run")
    page.wait_for_selector("#error:not([hidden])", timeout=20000)
    assert page.text_content("#error-type") == "ValueError"
    assert page.text_content("#error-status") == "(400)"
    assert page.text_content("#error-message") == "this question cannot be answered here"
    assert "secret plan" not in (page.text_content("#error") or "")  # the exception's own text stays on the server
    assert page.text_content("#status") == "failed"
    failed = _texts(page, "#tree .run.failed > .line .time")
    assert len(failed) == 2 and all(t.endswith(" · ValueError") for t in failed), failed
    _screenshot(page, tmp_path, "playground-mapped-error.png")


def test_the_configuration_form_offers_only_what_the_server_lets_clients_set(
    browser: Any, server: LiveServer, tmp_path: Path
) -> None:
    page = _open(browser, server, "/configured")
    assert page.is_visible("#config-panel")
    assert _texts(page, "#config-fields .field > span") == ["Modelwhich model answers"]
    assert page.locator("#config-fields [name=replies]").count() == 0  # not client-settable
    options = _texts(page, "#config-fields select[name=llm] option")
    assert options == ["(server default)", "fake", "other"]
    sent: list[Any] = []
    page.on("request", _bodies_to(sent))
    page.fill("#fields [data-kind]", "  hello ")
    page.click("#run")
    page.wait_for_function("document.getElementById('status').textContent === 'done'", timeout=20000)
    assert page.text_content("#output") == "the usual reply"
    page.select_option("select[name=llm]", label="other")
    page.click("#run")
    page.wait_for_function(
        "document.getElementById('output').textContent === \"the other model's reply\"", timeout=20000
    )
    assert "config" not in sent[0]
    assert sent[1]["config"] == {"configurable": {"llm": "other"}}
    _screenshot(page, tmp_path, "playground-config.png")


def test_the_configuration_panel_is_hidden_when_nothing_may_be_set(browser: Any, server: LiveServer) -> None:
    page = _open(browser, server, "/ask")
    assert page.is_hidden("#config-panel")


def test_stop_ends_the_run_and_nothing_stays_running(browser: Any, server: LiveServer) -> None:
    page = _open(browser, server, "/slow")
    page.fill("#chat-input", "count")
    page.press("#chat-input", "Enter")
    page.wait_for_function(
        "(document.querySelector('#transcript .bubble.ai .says') || {}).textContent?.length > 0", timeout=20000
    )
    page.click("#chat-stop")
    page.wait_for_function("document.getElementById('chat-status').textContent === 'stopped'", timeout=5000)
    assert page.eval_on_selector_all("#tree .run.running", "els => els.length") == 0
    assert _texts(page, "#tree .run.stopped > .line .time") == ["stopped"]
    reply = page.text_content("#transcript .bubble.ai .says") or ""
    assert reply and "one two three four five six seven eight".startswith(reply)
    assert page.get_attribute("#transcript .bubble.ai", "class") == "bubble ai stopped"
    assert page.is_enabled("#send") and page.is_disabled("#chat-stop")


def test_the_page_reads_langserve_values_and_the_envelope_of_users_classes(browser: Any, server: LiveServer) -> None:
    page = _open(browser, server, "/ask")
    envelope: dict[str, Any] = {
        "__combinators__": 1,
        "type": "constructor",
        "id": "combinators.components.AIMessageChunk",
        "kwargs": {"content": "hi", "additional_kwargs": {}},
    }
    assert page.evaluate("v => revive(v)", envelope) == {
        "type": "AIMessageChunk",
        "content": "hi",
        "additional_kwargs": {},
    }
    assert page.evaluate("v => chunkText(revive(v))", envelope) == "hi"
    langserve: dict[str, Any] = {
        "type": "AIMessageChunk",
        "content": "hi",
        "additional_kwargs": {},
        "tool_call_chunks": [],
    }
    assert page.evaluate("v => chunkText(revive(v))", langserve) == "hi"
    document = {"type": "Document", "page_content": "text", "metadata": {"source": "a"}}
    assert page.evaluate("v => isDocument(revive(v))", document) is True
    # No repr records are sent any more (an object with no JSON form is an error): none is read.
    record = {"type": "repr", "repr": "<Success: 42>"}
    assert page.evaluate("v => revive(v)", record) == record
    assert page.evaluate("v => compact(v)", {"ok": False, "error": "boom"}) == "error: boom"
    assert page.evaluate("v => compact(v)", {"ok": True, "value": {"type": "tool", "content": "42"}}) == "42"


def test_root_redirects_or_lists_and_docs_work_offline(browser: Any, server: LiveServer, tmp_path: Path) -> None:
    import httpx

    with httpx.Client(base_url=server.url) as client:
        for path in ("/", "/docs", "/ask/docs", "/ask/openapi.json", "/ask/playground"):
            assert client.get(path).status_code == 401, path
        client.cookies.set("session", "alice")
        index = client.get("/")
        assert index.status_code == 200 and index.headers["content-type"].startswith("text/html")
        for path in ROUTES:
            assert f'href="{path}/playground/"' in index.text
        docs = client.get("/docs")
        assert docs.status_code == 200 and "<script>" in docs.text
        assert "http://" not in docs.text and "https://" not in docs.text  # no CDN: it works offline
        own = client.get("/ask/openapi.json").json()
        assert sorted(own["paths"])[:2] == ["/ask/batch", "/ask/c/{config_hash}/batch"]
        assert all(p.startswith("/ask/") for p in own["paths"])
    _signed_in(browser, server)
    page = browser.new_page()
    requests: list[str] = []
    page.on("request", _urls_to(requests))
    page.goto(f"{server.url}/docs")
    page.wait_for_selector(".operation")
    assert all(url.startswith(server.url) for url in requests), requests
    assert "/ask/invoke" in _texts(page, "#paths .operation > summary .path")
    assert "Schemas" in (page.text_content("#schemas-heading") or "")
    page.click("[id='post-/ask/invoke'] > summary")
    assert "AskInput" in (page.text_content("[id='post-/ask/invoke'] pre") or "")
    hashed = "[id='post-/ask/c/{config_hash}/invoke']"
    page.click(f"{hashed} > summary")  # LangServe's share-link routes are listed, their parameter described
    assert _texts(page, f"{hashed} table.parameters td")[:2] == ["config_hash", "path, required"]
    assert "compressToEncodedURIComponent" in (page.text_content(f"{hashed} table.parameters") or "")
    _screenshot(page, tmp_path, "docs-page.png")
    via_playground = _open(browser, server, "/ask")
    via_playground.click("#docs-link")
    via_playground.wait_for_selector(".operation")
    assert via_playground.url == f"{server.url}/ask/docs"
    shown = _texts(via_playground, "#paths .operation > summary .path")
    assert all(p.startswith("/ask/") for p in shown), shown


def test_one_served_chain_redirects_root_to_its_playground() -> None:
    import httpx

    with live(serve({"/only": asking_chain()})) as running, httpx.Client(base_url=running.url) as client:
        answer = client.get("/")
        assert answer.status_code == 307 and answer.headers["location"] == "/only/playground/"
        assert client.get("/only/playground", follow_redirects=True).text.startswith("<!doctype html>")
    with (
        live(serve({"/only": asking_chain()}, playground=False)) as running,
        httpx.Client(base_url=running.url) as client,
    ):
        assert client.get("/").headers["location"] == "/docs"


def test_stop_in_the_form_view_settles_the_tree_too(browser: Any, server: LiveServer, tmp_path: Path) -> None:
    page = _open(browser, server, "/slow")
    page.click("#mode-switch")  # a chat model in the form view: its input as text
    page.fill("#fields textarea", "count")
    page.click("#run")
    page.wait_for_function("document.getElementById('output').textContent.length > 0", timeout=20000)
    page.click("#stop")
    page.wait_for_function("document.getElementById('status').textContent === 'stopped'", timeout=5000)
    assert page.eval_on_selector_all("#tree .run.running", "els => els.length") == 0
    assert _texts(page, "#tree .run.stopped > .line .time") == ["stopped"]
    assert "one two three four five six seven eight".startswith(page.text_content("#output") or "-")
    assert page.is_enabled("#run") and page.is_disabled("#stop") and page.is_hidden("#error")


def test_the_index_lists_every_path_with_its_links(browser: Any, server: LiveServer, tmp_path: Path) -> None:
    _signed_in(browser, server)
    page = browser.new_page()
    page.goto(f"{server.url}/")
    assert _texts(page, "main.index li code") == list(ROUTES)
    assert _texts(page, "main.index li:first-child a") == ["playground", "input schema", "output schema"]
    _screenshot(page, tmp_path, "index.png")
    page.click("a[href='/chat/playground/']")
    page.wait_for_selector("body[data-state=idle]")
    assert page.url == f"{server.url}/chat/playground/"


def test_which_input_schemas_get_the_chat_view(browser: Any, server: LiveServer) -> None:
    page = _open(browser, server, "/ask")
    message = {"type": "object", "properties": {"content": {"type": "string"}}, "required": ["content"]}
    prompt_with_history = {  # as a prompt with a history placeholder and {question} publishes it
        "type": "object",
        "properties": {"history": {"type": "array", "items": {"type": "object"}}, "question": {"type": "string"}},
        "required": ["history", "question"],
    }
    cases: list[tuple[dict[str, Any], Any]] = [
        (
            {"anyOf": [{"type": "string"}, {"type": "array", "items": {"anyOf": [message, {"type": "string"}]}}]},
            {"history": None, "question": None},
        ),
        (prompt_with_history, {"history": "history", "question": "question"}),
        (
            {"type": "object", "properties": {"messages": {"type": "array"}}, "required": ["messages"]},
            {"history": "messages", "question": None},
        ),
        ({"type": "object", "properties": {"question": {"type": "string"}, "k": {"type": "integer"}}}, None),
        (
            {
                "type": "object",
                "properties": {"history": {"type": "array"}, "k": {"type": "integer"}},
                "required": ["history", "k"],
            },
            None,
        ),
        (  # agent_loop's union: the form and the agent view, not a chat
            {
                "anyOf": [
                    {"type": "string"},
                    {"type": "array"},
                    {"type": "object", "properties": {"messages": {"type": "array"}}},
                ]
            },
            None,
        ),
    ]
    for schema, shape in cases:
        assert page.evaluate("s => chatShape(s)", schema) == shape, schema


def test_the_index_without_playgrounds_is_styled_by_the_shipped_stylesheet(chromium: Any, tmp_path: Path) -> None:
    import httpx

    app = serve({"/ask": asking_chain(), "/summary": RunnableLambda(summary)}, auth=by_cookie, playground=False)
    with live(app) as running:
        with httpx.Client(base_url=running.url) as client:
            assert client.get("/playground.css").status_code == 401  # behind the same auth
            assert client.get("/ask/playground/playground.css").status_code == 404  # no playground
            client.cookies.set("session", "alice")
            css = client.get("/playground.css")
            assert css.status_code == 200 and css.headers["content-type"] == "text/css; charset=utf-8"
            assert "main.index" in css.text and "http://" not in css.text and "https://" not in css.text
        context = chromium.new_context(viewport={"width": 1280, "height": 720})
        try:
            context.add_cookies([{"name": "session", "value": "alice", "url": running.url}])
            page = context.new_page()
            requests: list[str] = []
            page.on("request", _urls_to(requests))
            page.goto(f"{running.url}/")
            assert _texts(page, "main.index li code") == ["/ask", "/summary"]
            assert _texts(page, "main.index li:first-child a") == ["input schema", "output schema"]
            styled = page.evaluate(
                """() => {
                    const style = (selector) => getComputedStyle(document.querySelector(selector));
                    return [style('main.index').maxWidth, style('main.index li').borderBottomStyle,
                            style('main.index code').fontWeight, style('body').fontFamily.length > 0];
                }"""
            )
            assert styled == ["760px", "solid", "600", True]
            assert requests == [f"{running.url}/", f"{running.url}/playground.css"]  # nothing from elsewhere
            _screenshot(page, tmp_path, "index-no-playground.png")
        finally:
            context.close()


def _texts_to_encode() -> list[str]:
    pieces = ["a", "b", "ab", " ", "é", "✓", "🙂", '{"configurable": {"llm": "other"}}', "\u00ff", "\u0100"]
    chosen = random.Random(28)
    return [*VECTORS.values(), "", *("".join(chosen.choices(pieces, k=chosen.randrange(1, 300))) for _ in range(40))]


def test_share_makes_a_config_hash_link_of_the_settings_clients_may_set(
    browser: Any, server: LiveServer, tmp_path: Path
) -> None:
    page = _open(browser, server, "/configured")
    texts = _texts_to_encode()
    encoded: list[str] = page.evaluate("texts => texts.map(lzEncode)", texts)
    assert encoded == [compress_to_encoded_uri_component(t) for t in texts]  # the page's encoder is lz-string's
    assert encoded[: len(VECTORS)] == list(VECTORS)  # LangServe's own hashes
    assert page.evaluate("hashes => hashes.map(lzDecode)", encoded) == texts  # and its decoder reads them
    assert page.evaluate("bad => bad.map(lzDecode)", ["%%", "N4Igxg9gdgZg", "zzzz$$$$"]) == [None, None, None]
    page.click("#share")
    assert page.input_value("#share-link") == f"{server.url}/configured/playground/"  # nothing chosen
    page.select_option("select[name=llm]", label="other")
    page.click("#share")
    link = page.input_value("#share-link")
    prefix, suffix = f"{server.url}/configured/c/", "/playground/"
    assert link.startswith(prefix) and link.endswith(suffix), link
    config_hash = link[len(prefix) : -len(suffix)]
    assert json.loads(decompress_from_encoded_uri_component(config_hash)) == {"configurable": {"llm": "other"}}
    assert page.is_visible("#share-link")
    _screenshot(page, tmp_path, "playground-share.png")

    shared = browser.new_page()
    sent: list[Any] = []
    shared.on("request", _bodies_to(sent))
    shared.goto(link)
    shared.wait_for_selector("body[data-state=idle]")
    # the link's settings fill the form
    assert shared.eval_on_selector("select[name=llm]", "s => s.selectedOptions[0].textContent") == "other"
    shared.fill("#fields [data-kind]", "  hello ")
    shared.click("#run")
    shared.wait_for_function(
        "document.getElementById('output').textContent === \"the other model's reply\"", timeout=20000
    )
    assert sent[0]["config"] == {"configurable": {"llm": "other"}}  # the same as the path's
    _screenshot(shared, tmp_path, "playground-shared.png")
    shared.select_option("select[name=llm]", label="(server default)")
    shared.click("#run")
    shared.wait_for_function("document.getElementById('status').textContent === 'done'", timeout=20000)
    assert "config" not in sent[1]  # nothing in the body: the server ran it with the link's config
    assert shared.text_content("#output") == "the other model's reply"
    shared.select_option("select[name=llm]", label="fake")
    shared.click("#share")  # from a shared page: a link of the route, not nested under the old hash
    again = shared.input_value("#share-link")
    assert again.startswith(prefix) and again.count("/c/") == 1
    assert json.loads(decompress_from_encoded_uri_component(again[len(prefix) : -len(suffix)])) == {
        "configurable": {"llm": "fake"}
    }
