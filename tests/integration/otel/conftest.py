"""Fixtures for the tracing tests."""

from __future__ import annotations

import pytest

from tests.integration.otel.support import Traced


@pytest.fixture
def traced() -> Traced:
    return Traced()
