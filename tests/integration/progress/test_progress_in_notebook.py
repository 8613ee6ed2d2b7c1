"""The progress bar in a real Jupyter kernel: drawn as an ipywidgets bar, not text on stderr.

The notebook runs on an ipykernel started from this interpreter (a kernelspec written to a
temporary folder), so a fresh CI venv needs nothing registered; nbclient records the
widgets' final state the way a saved notebook holds it.
"""

from __future__ import annotations

import html
import json
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import nbformat
import pytest
from jupyter_client.kernelspec import KernelSpecManager
from jupyter_client.manager import KernelManager
from nbclient import NotebookClient
from nbformat.v4 import new_code_cell, new_notebook

ROOT = Path(__file__).resolve().parents[3]
KERNEL = "combinators-test-venv"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
WIDGET_STATE = "application/vnd.jupyter.widget-state+json"
N = 8

CELLS = [
    "import sys\nprint(sys.executable)",
    "from combinators import RunnableLambda\n\n"
    "def halve(x):\n    if x == 3:\n        raise ValueError('three')\n    return x / 2\n\n"
    "def words(text):\n    yield from text.split()",
    f"RunnableLambda(halve).batch(list(range({N})), progress=True, return_exceptions=True)",
    "list(RunnableLambda(words).stream('a b c d e', {'progress': True}))",
]


@pytest.fixture(scope="module")
def executed(tmp_path_factory: pytest.TempPathFactory) -> nbformat.NotebookNode:
    """The notebook above, run top to bottom on a kernel of ``sys.executable``."""
    kernels = tmp_path_factory.mktemp("kernels")
    (kernels / KERNEL).mkdir()
    spec = {
        "argv": [sys.executable, "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "combinators test venv",
        "language": "python",
    }
    (kernels / KERNEL / "kernel.json").write_text(json.dumps(spec))
    # Only our folder is searched: a user's or system "python3" spec could name another Python.
    manager = KernelManager(
        kernel_name=KERNEL,
        kernel_spec_manager=KernelSpecManager(kernel_dirs=[str(kernels)]),
        transport="ipc",  # unix sockets in a temporary folder: no TCP port at all
        ip=str(kernels / "ipc"),
    )
    notebook = new_notebook(cells=[new_code_cell(source) for source in CELLS])
    client = NotebookClient(
        notebook,
        km=manager,
        timeout=180,  # per cell; a loaded 2-core box is slow to import the library
        startup_timeout=180,
        store_widget_state=True,
        resources={"metadata": {"path": str(ROOT)}},
    )
    try:
        client.execute(cleanup_kc=True)
    finally:
        if manager.has_kernel:
            manager.shutdown_kernel(now=True)
    return notebook


def widget_parts(notebook: nbformat.NotebookNode, cell: int) -> list[dict[str, Any]]:
    """The models (left label, bar, right label) of the one widget a cell displayed."""
    outputs = notebook.cells[cell].outputs
    views = [output.data[WIDGET_VIEW] for output in outputs if WIDGET_VIEW in output.get("data", {})]
    assert len(views) == 1, outputs
    models = notebook.metadata.widgets[WIDGET_STATE]["state"]
    box = models[views[0]["model_id"]]
    assert box["model_name"] == "HBoxModel"
    return [models[child.removeprefix("IPY_MODEL_")] for child in box["state"]["children"]]


def style_of(notebook: nbformat.NotebookNode, bar: dict[str, Any]) -> dict[str, Any]:
    """The state of a progress bar's style model."""
    models = notebook.metadata.widgets[WIDGET_STATE]["state"]
    style: dict[str, Any] = models[bar["state"]["style"].removeprefix("IPY_MODEL_")]["state"]
    return style


def shown(label: dict[str, Any]) -> str:
    """A label's text as read on screen (tqdm writes HTML with figure spaces)."""
    assert label["model_name"] == "HTMLModel"
    return html.unescape(str(label["state"]["value"])).replace("\u2007", " ")


def result(notebook: nbformat.NotebookNode, cell: int) -> str:
    (value,) = [output for output in notebook.cells[cell].outputs if output.output_type == "execute_result"]
    return str(value.data["text/plain"])


def streams(notebook: nbformat.NotebookNode, cell: int) -> Iterator[tuple[str, str]]:
    for output in notebook.cells[cell].outputs:
        if output.output_type == "stream":
            yield output.name, output.text


def test_the_kernel_runs_this_interpreter(executed: nbformat.NotebookNode) -> None:
    assert list(streams(executed, 0)) == [("stdout", sys.executable + "\n")]


def test_a_batch_draws_a_widget_with_items_done_and_failed(executed: nbformat.NotebookNode) -> None:
    assert list(streams(executed, 2)) == []  # no text bar on stderr
    left, bar, right = widget_parts(executed, 2)
    assert bar["model_name"] in {"FloatProgressModel", "IntProgressModel"}
    assert bar["state"]["value"] == bar["state"]["max"] == N
    assert shown(left) == "halve: 100%"
    assert shown(right).startswith(f" {N}/{N} [")
    assert "item/s" in shown(right) and shown(right).endswith(", failed=1]")
    assert style_of(executed, bar)["bar_color"] == "red"  # not the finished bar's green
    expected = [x / 2 for x in range(N)]
    assert result(executed, 2) == repr(expected[:3] + [ValueError("three")] + expected[4:])


def test_a_stream_draws_a_widget_counting_its_chunks(executed: nbformat.NotebookNode) -> None:
    assert list(streams(executed, 3)) == []
    left, bar, right = widget_parts(executed, 3)
    # No total: tqdm draws a full bar and counts in the label.
    assert bar["state"]["value"] == bar["state"]["max"] == 1
    assert shown(left) == "words: "
    assert shown(right).startswith(" 5/? [") and "chunk/s" in shown(right)
    assert "failed" not in shown(right)
    assert style_of(executed, bar)["bar_color"] is None
    assert result(executed, 3) == repr(["a", "b", "c", "d", "e"])
