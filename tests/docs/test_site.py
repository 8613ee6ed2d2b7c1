"""The docs site: built with ``mkdocs build --strict`` (broken links and references fail it),
working offline (no script, stylesheet or font from another host), and with an API reference
that covers every public name of every package root."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "docs" / "hooks"))
from reference import package_roots  # noqa: E402 - the hook that generates the reference

EXTERNAL = re.compile(r"""<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=["']?(?:https?:)?//""", re.I)
CSS_EXTERNAL = re.compile(r"""(?:@import|url\()\s*["']?(?:https?:)?//""", re.I)


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("site")
    done = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300, check=False,
        env={"PATH": "/usr/bin:/bin", "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr[-3000:]
    return out


def test_the_site_has_the_guides_and_the_reference(site: Path) -> None:
    for page in ("index", "tour", "concepts", "streaming", "typing", "testing", "agents", "serving", "tracing"):
        assert (site / f"{page}.html").exists(), page
    for page in ("scale-out", "migration", "resilience", "performance", "reference/index"):
        assert (site / f"{page}.html").exists(), page


def test_the_pictures_are_drawn_from_a_run(site: Path) -> None:
    svg = (site / "pictures" / "quickstart-timeline.svg").read_text(encoding="utf-8")
    assert svg.startswith("<svg") and "ExtractiveChatModel" in svg and "Who keeps the light?" in svg
    assert 'src="pictures/quickstart-timeline.svg"' in (site / "pictures.html").read_text(encoding="utf-8")


def test_no_page_loads_anything_from_another_host(site: Path) -> None:
    pages = list(site.glob("**/*.html"))
    assert len(pages) > 20
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert EXTERNAL.search(text) is None, f"{page.relative_to(site)}: {EXTERNAL.search(text)}"
    for sheet in site.glob("**/*.css"):
        text = sheet.read_text(encoding="utf-8")
        assert CSS_EXTERNAL.search(text) is None, f"{sheet.relative_to(site)} loads from another host"


def test_the_reference_covers_every_public_name_of_every_root(site: Path) -> None:
    roots = package_roots()
    assert {
        "combinators",
        "combinators.prompts",
        "combinators.language_models",
        "effects",
        "combinators.testing",
    } <= set(roots)
    missing: list[str] = []
    for root, names in roots.items():
        text = (site / "reference" / f"{root}.html").read_text(encoding="utf-8")
        missing += [f"{root}.{name}" for name in names if f'id="{root}.{name}"' not in text]
    assert missing == []
