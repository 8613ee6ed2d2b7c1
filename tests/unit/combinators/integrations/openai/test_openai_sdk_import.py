"""The provider SDK loads when a model is built, so the first call's run time is the model's own."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[5]


@pytest.mark.parametrize("model", ["ChatOpenAI(model='m', base_url='http://127.0.0.1:9/v1')", "OpenAIEmbeddings()"])
def test_building_a_model_loads_the_sdk_before_any_run(model: str) -> None:
    code = (
        "import sys\n"
        "from combinators.integrations.openai import ChatOpenAI, OpenAIEmbeddings\n"
        "assert 'openai' not in sys.modules, 'imported before a model was built'\n"
        f"{model}\n"
        "print('openai' in sys.modules)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert done.stdout.strip() == "True"


def test_without_the_sdk_importing_the_integration_names_the_extra() -> None:
    # Issue 30's rule for every integration: its import path without the extra is an
    # ImportError naming the exact pip install line (not a failure at the first call).
    code = (
        "import sys; sys.modules['openai'] = None\n"
        "try:\n    from combinators.integrations.openai import ChatOpenAI\nexcept ImportError as error:\n    print(error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=True,
        env={"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT)},
    )  # fmt: skip
    assert "pip install 'lcel-combinators[openai]'" in done.stdout
