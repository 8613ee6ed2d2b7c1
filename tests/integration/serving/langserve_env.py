"""LangServe's own python for the compatibility tests (built by ``bench.langserve_env``).

When the environment cannot be built (no network), the tests skip, or fail when CI=true.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from bench.langserve_env import langserve_python as build


def langserve_python() -> Path:
    """The python of the LangServe environment (built once, cached)."""
    try:
        return build()
    except RuntimeError as error:
        message = f"could not build the LangServe environment: {error}"
        if os.environ.get("CI") == "true":
            pytest.fail(message)
        pytest.skip(message)
