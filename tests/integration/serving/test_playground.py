"""The playground page in a real headless browser (Debian's chromium, driven by Playwright)."""

from __future__ import annotations

import os
import shutil
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any, TypedDict

import pytest
from starlette.requests import Request

from combinators import Runnable, RunnableLambda
from combinators.language_models import GenericFakeChatModel, ModelRateLimitError, Script
from combinators.output_parsers import StrOutputParser
from combinators.prompts import ChatPromptTemplate
from combinators.integrations.serving import serve
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


def by_cookie(request: Request) -> str | None:
    return "alice" if request.cookies.get("session") == "alice" else None


@pytest.fixture(scope="module")
def server() -> Iterator[LiveServer]:
    app = serve({"/ask": asking_chain(), "/broken": RunnableLambda(breaks)}, auth=by_cookie)
    with live(app) as running:
        yield running


@pytest.fixture
def browser(tmp_path: Path, server: LiveServer) -> Iterator[Any]:
    if not shutil.which(CHROMIUM):
        if os.environ.get("CI") == "true":
            pytest.fail(f"{CHROMIUM} is missing (.ci/run installs Debian's chromium)")
        pytest.skip(f"{CHROMIUM} is missing")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            str(tmp_path / "profile"),  # a fresh user-data-dir per test
            executable_path=CHROMIUM,
            args=FLAGS,
            headless=True,
            viewport={"width": 1280, "height": 720},
        )
        try:
            yield context
        finally:
            context.close()


def _signed_in(browser: Any, server: LiveServer) -> None:
    browser.add_cookies([{"name": "session", "value": "alice", "url": server.url}])


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
    shot = tmp_path / "playground.png"
    page.screenshot(path=str(shot), full_page=True)
    assert shot.stat().st_size > 10_000
    keep = os.environ.get("COMBINATORS_SCREENSHOTS")
    if keep:
        shutil.copy(shot, Path(keep) / "playground.png")


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
    page.screenshot(path=str(tmp_path / "playground-error.png"), full_page=True)
    keep = os.environ.get("COMBINATORS_SCREENSHOTS")
    if keep:
        shutil.copy(tmp_path / "playground-error.png", Path(keep) / "playground-error.png")


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
