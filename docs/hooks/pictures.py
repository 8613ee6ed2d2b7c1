"""MkDocs hook: pictures drawn from the code when the site is built, so they never go stale.

``pictures/quickstart-timeline.svg`` is the timeline of one run of the quickstart's chain
(``examples/rag.py``, offline), drawn by ``effects.projections.timeline`` from the run's
effects; the guide on pictures shows it.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

from mkdocs.config.defaults import MkDocsConfig
from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parents[2]
QUESTION = "Who keeps the light?"


def quickstart_timeline() -> str:
    """The SVG timeline of the quickstart chain answering the README's question."""
    if str(ROOT) not in sys.path:
        sys.path.insert(0, str(ROOT))
    from effects.projections.timeline import timeline_svg

    spec = importlib.util.spec_from_file_location("quickstart_for_docs", ROOT / "examples" / "rag.py")
    assert spec is not None and spec.loader is not None
    rag = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(rag)
    chain = rag.build_chain(rag.ExtractiveChatModel(max_sentences=2))
    return timeline_svg(chain.stream_effects(QUESTION), title=f"Q: {QUESTION}")


def on_files(files: Files, config: MkDocsConfig) -> Files:
    files.append(File.generated(config, "pictures/quickstart-timeline.svg", content=quickstart_timeline()))
    return files
