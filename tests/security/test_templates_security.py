"""Templates are safe by construction: no attribute access, no format specs, one pass."""

from __future__ import annotations

import jinja2
import pytest
from hypothesis import assume, given
from hypothesis import strategies as st

from combinators.components.prompts.formats import Template


class Hostile:
    """A value that may only be turned into text with ``str``; anything else is an attack."""

    def __init__(self, text: str) -> None:
        object.__setattr__(self, "_text", text)

    def __str__(self) -> str:
        return object.__getattribute__(self, "_text")  # type: ignore[no-any-return]

    def __getattr__(self, name: str) -> object:
        raise AssertionError(f"template read attribute {name!r}")

    def __getitem__(self, key: object) -> object:
        raise AssertionError(f"template indexed with {key!r}")

    def __format__(self, spec: str) -> str:
        raise AssertionError("template called format()")

    def __repr__(self) -> str:
        raise AssertionError("template called repr()")


texts = st.text(alphabet=st.sampled_from(list("ab{}!:.[]<>&\"' 0")), max_size=12)
names = st.sampled_from(["a", "b", "name", "x1"])


@st.composite
def fstring_templates(draw: st.DrawFn) -> tuple[str, list[str | tuple[str]]]:
    pieces: list[str | tuple[str]] = draw(st.lists(st.text(alphabet="xy -") | names.map(lambda n: (n,)), max_size=6))
    source = "".join(p if isinstance(p, str) else "{" + p[0] + "}" for p in pieces)
    return source, pieces


@given(fstring_templates(), st.dictionaries(names, texts, min_size=4))
def test_fstring_only_calls_str_and_never_reformats(
    template: tuple[str, list[str | tuple[str]]], payloads: dict[str, str]
) -> None:
    source, pieces = template
    values = {name: Hostile(payloads.get(name, "")) for name in ("a", "b", "name", "x1")}
    expected = "".join(p if isinstance(p, str) else payloads.get(p[0], "") for p in pieces)
    assert Template(source).format(values) == expected


@given(st.lists(names, min_size=1, max_size=4), st.dictionaries(names, texts, min_size=4))
def test_mustache_variables_only_call_str(used: list[str], payloads: dict[str, str]) -> None:
    values = {name: Hostile(payloads.get(name, "") or "x") for name in ("a", "b", "name", "x1")}
    source = "|".join("{{{" + name + "}}}" for name in used)
    assert Template(source, "mustache").format(values) == "|".join(payloads.get(name, "") or "x" for name in used)
    # dotted names into a non-mapping find nothing and touch nothing
    assert Template("{{a.__class__}}{{a.b.c}}{{#a}}{{/a}}", "mustache").format(values) == ""


@given(
    st.text(alphabet="ab", min_size=1, max_size=3),
    st.sampled_from([".", "[", "]", "!", ":", " ", "-", "(", ")"]),
    st.text(alphabet="ab0{}.[]!:rs>", max_size=6),
)
def test_every_non_identifier_placeholder_is_rejected_at_build(head: str, bad: str, tail: str) -> None:
    field = head + bad + tail.replace("}", "").replace("{", "")
    source = "{" + field + "}"
    with pytest.raises(ValueError, match="must be a bare identifier"):
        Template(source)


def _missing_b_message(value: str) -> str:
    with pytest.raises(KeyError) as caught:
        Template("{a} {b}").format({"a": value})
    return str(caught.value)


@given(st.text(min_size=8).filter(lambda t: t.strip() and "\\" not in t))
def test_error_messages_never_contain_values(canary: str) -> None:
    assume(canary not in _missing_b_message("-"))  # a canary that is a piece of the message's own words
    assert canary not in _missing_b_message(canary)


SSTI_PAYLOADS = [
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ x.__class__.__mro__ }}",
    "{{ x.__init__.__globals__ }}",
    "{{ cycler.__init__.__globals__.os }}",
    "{{ joiner.__init__.__globals__ }}",
    "{{ lipsum.__globals__ }}",
    "{{ namespace.__init__.__globals__ }}",
    "{{ self._TemplateReference__context }}",
    "{{ x['__class__'] }}",
    "{{ x.__dict__ }}",
    "{% for c in [].__class__.__base__.__subclasses__() %}{{ c }}{% endfor %}",
    "{{ x|attr('__class__') }}",
    "{{ '{0.__class__}'.format(x) }}",
    "{{ range.__self__ }}",
    "{% for i in [1] %}{{ loop.__init__.__globals__ }}{{ loop._iterable }}{% endfor %}",
    "{{ cycler(1).__init__.__globals__ }}",
    "{% set ns = namespace() %}{{ ns.__class__ }}",
]


@pytest.mark.parametrize("payload", SSTI_PAYLOADS)
def test_jinja2_sandbox_reveals_no_internals(payload: str) -> None:
    try:
        rendered = Template(payload, "jinja2").format({"x": Hostile("x")})
    except (ValueError, jinja2.TemplateError):
        return  # refused at build or at render: fine
    for leak in ("class", "function", "module", "built-in", "<", "os"):
        assert leak not in rendered


def test_jinja2_reads_mapping_items_only() -> None:
    template = Template("{{ d.k }}{{ d['k'] }}{{ l[1] }}", "jinja2")
    assert template.format({"d": {"k": "v"}, "l": ["a", "b"]}) == "vvb"
    for source in ("{{ h.anything }}", "{{ h['x'] }}"):  # reaching into an object is refused, loudly
        with pytest.raises(jinja2.exceptions.SecurityError, match="may only read mapping keys and list items"):
            Template(source, "jinja2").format({"h": Hostile("z")})
    assert Template("{{ d.missing }}", "jinja2").format({"d": {}}) == ""  # a missing key is undefined


def test_a_nested_format_spec_is_quoted_as_the_template_wrote_it() -> None:
    from combinators.prompts import PromptTemplate

    for template, shown in [
        ("{a:{a.__class__.__name__}}", "{a:{a.__class__.__name__}}"),
        ("x {a:{b}{c}} y", "{a:{b}{c}}"),
        ("{a:{b:{c}}}", "{a:{b:{c}}}"),
    ]:
        with pytest.raises(ValueError) as caught:
            PromptTemplate.from_template(template)
        # The peer's words first ("Invalid format specifier ... Nested replacement fields ..."), then ours.
        assert str(caught.value).startswith("Invalid format specifier in f-string template.")
        assert f"invalid placeholder {shown} in f-string template" in str(caught.value)
