"""MkDocs hook: pictures drawn from the code when the site is built, so they never go stale.

``pictures/quickstart-timeline.svg`` is the timeline of one run of the quickstart's chain
(``examples/rag.py``, offline), drawn by ``effects.projections.timeline`` from the run's
effects; ``pictures/quickstart-graph.svg`` is the same chain's graph, rendered by
Graphviz's ``dot`` (``Graph.draw_svg``: the build fails without it, as CI's must). The
guide on pictures shows both. The playground's screenshots are files in ``docs/pictures``
(taken by the Chromium tests, see docs/serving.md).
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from typing import Any

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
QUESTION = "Who keeps the light?"


def _quickstart_chain() -> Any:
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    spec = importlib.util.spec_from_file_location("quickstart_for_docs", ROOT / "examples" / "rag.py")
    assert spec is not None and spec.loader is not None
    rag = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rag)
    return rag.build_chain(rag.ExtractiveChatModel(max_sentences=2))


def quickstart_timeline() -> str:
    """The SVG timeline of the quickstart chain answering the README's question."""
    from effects.projections.timeline import timeline_svg

    return timeline_svg(_quickstart_chain().stream_effects(QUESTION), title=f"Q: {QUESTION}")


def quickstart_graph() -> str:
    """The quickstart chain's graph as SVG, from Graphviz's ``dot``."""
    svg: str = _quickstart_chain().get_graph().draw_svg()
    return svg


def on_files(files: Files, config: MkDocsConfig) -> Files:
    files.append(File.generated(config, "pictures/quickstart-timeline.svg", content=quickstart_timeline()))
    files.append(File.generated(config, "pictures/quickstart-graph.svg", content=quickstart_graph()))
    return files
