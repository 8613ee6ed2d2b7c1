"""Secret: redacted everywhere but ``get_secret_value``; pickles keep it (documented)."""

from __future__ import annotations

import copy
import json
import logging
import pickle
import pprint
from dataclasses import dataclass

import attrs
import cloudpickle  # type: ignore[import-untyped]
import pytest
from hypothesis import given
from hypothesis import strategies as st

from combinators.components.secrets import REDACTED, MissingSecretError, Secret
from combinators.components.serialization import dumps
from effects.errors import CombinatorsError


def test_every_text_form_is_redacted() -> None:
    key = Secret("sk-123")
    assert repr(key) == "Secret('**********')"
    assert str(key) == f"{key}" == "%s" % key == REDACTED
    assert f"{key:>12}" == "  **********"
    assert key.__redacted__() == REDACTED
    assert key.get_secret_value() == "sk-123"


def test_equality_and_hash_follow_the_value() -> None:
    assert Secret("a") == Secret("a")
    assert Secret("a") != Secret("b")
    assert Secret("a") != "a"
    assert hash(Secret("a")) == hash(Secret("a"))
    assert len({Secret("a"), Secret("a"), Secret("b")}) == 2


def test_secrets_are_immutable() -> None:
    key = Secret("a")
    with pytest.raises(AttributeError, match="Secret is immutable"):
        key._value = "b"  # pyright: ignore[reportAttributeAccessIssue]
    with pytest.raises(AttributeError):
        del key._value  # pyright: ignore[reportAttributeAccessIssue]
    with pytest.raises(TypeError, match="Secret takes a str, got int"):
        Secret(1)  # type: ignore[arg-type]


@pytest.mark.parametrize("dump", [pickle.dumps, cloudpickle.dumps])
def test_pickles_keep_the_value_for_your_own_workers(dump: object) -> None:
    restored = pickle.loads(dump(Secret("sk-1")))  # type: ignore[operator]
    assert restored.get_secret_value() == "sk-1"
    placeholder = pickle.loads(dump(Secret.placeholder("k")))  # type: ignore[operator]
    assert placeholder == Secret.placeholder("k") and placeholder.is_placeholder
    assert copy.deepcopy(Secret("x")) == Secret("x")


def test_placeholders_must_be_supplied() -> None:
    placeholder = Secret.placeholder("api_key")
    assert (placeholder.is_placeholder, placeholder.placeholder_name) == (True, "api_key")
    assert placeholder != Secret("")
    with pytest.raises(MissingSecretError, match="the secret 'api_key' was redacted") as caught:
        placeholder.get_secret_value()
    assert isinstance(caught.value, LookupError) and isinstance(caught.value, CombinatorsError)


@dataclass
class _Holder:
    key: Secret


@attrs.frozen
class _AttrsHolder:
    key: Secret
    others: tuple[Secret, ...]


@given(st.text(alphabet=st.characters(blacklist_categories=["Cs"])).map(lambda t: "sk-canary-" + t))
def test_a_secret_never_shows_in_what_holds_it(value: str) -> None:
    key = Secret(value)
    holders: list[object] = [
        [key], {"k": key}, (key,), {key}, {"nested": [{"deep": key}]},
        _Holder(key), _AttrsHolder(key, (key,)), attrs.asdict(_AttrsHolder(key, (key,))),
    ]  # fmt: skip
    for holder in holders:
        for shown in (repr(holder), str(holder), f"{holder}", "%r" % (holder,), pprint.pformat(holder)):
            assert value not in shown
    assert value not in dumps({"k": key, "l": [key]})
    assert value not in json.dumps({"k": key}, default=str)
    assert value not in str(ValueError(key))
    record = logging.LogRecord("t", logging.INFO, __file__, 1, "key=%s %r", (key, key), None)
    assert value not in record.getMessage()
