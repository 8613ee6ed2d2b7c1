"""Templates: f-string, mustache and jinja2 (facts probed on langchain-core 1.8.3)."""

from __future__ import annotations

import pickle
import sys

import cloudpickle  # type: ignore[import-untyped]
import jinja2
import pytest
from hypothesis import given
from hypothesis import strategies as st

from combinators.components.prompts import formats as templates
from combinators.components.prompts.formats import Template, missing_variables_error

# -- f-string ---------------------------------------------------------------------------


def test_fstring_variables_are_sorted_and_braces_escape() -> None:
    template = Template("{b} {a} {{c}} {a}")
    assert template.input_variables == ("a", "b")
    assert template.format({"a": 1, "b": 2}) == "2 1 {c} 1"
    assert Template("{é}").format({"é": 1}) == "1"


def test_fstring_inserts_values_once_and_literally() -> None:
    assert Template("{a} {a}").format({"a": "{b}", "b": 2}) == "{b} {b}"
    assert Template("{a}").format({"a": "<b>&"}) == "<b>&"


@given(
    st.lists(st.sampled_from(["{{", "}}", "x", " ", "{a}", "{b}", "{name}"]), max_size=12),
    st.dictionaries(st.sampled_from(["a", "b", "name"]), st.text(alphabet="{}ab", max_size=4), min_size=3),
)
def test_fstring_agrees_with_str_format_on_plain_placeholders(pieces: list[str], values: dict[str, str]) -> None:
    source = "".join(pieces)
    assert Template(source).format(values) == source.format(**values)


@pytest.mark.parametrize(
    "source",
    ["{a.b}", "{a[0]}", "{}", "{0}", "{a!r}", "{a:{a.__class__}}", "{a:>10}", "{ a }", "{1a}", "{a-b}", "{a:}"],
)
def test_fstring_placeholders_must_be_bare_identifiers(source: str) -> None:
    with pytest.raises(ValueError, match="must be a bare identifier") as caught:
        Template(source)
    assert repr(source) in str(caught.value)


@pytest.mark.parametrize(
    ("source", "match"), [("}", "single '}'"), ("{", "unclosed '{'"), ("{a", "unclosed '{'"), ("a}", "single '}'")]
)
def test_unbalanced_braces_are_named(source: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        Template(source)


def test_missing_variables_raise_the_peers_key_error() -> None:
    with pytest.raises(KeyError) as caught:
        Template("{b} {a}").format({"a": 1})
    assert caught.value.args[0] == (
        "Input to PromptTemplate is missing variables {'b'}.  Expected: ['a', 'b'] Received: ['a']\n"
        "Note: if you intended {b} to be part of the string and not a variable, please escape it "
        "with double curly braces like: '{{b}}'."
    )
    with pytest.raises(KeyError, match=r"missing variables \{'a', 'b'\}.  Expected: \['a', 'b'\] Received: \['c'\]"):
        Template("{b} {a}").format({"c": 1})
    error = missing_variables_error("ChatPromptTemplate", ["x"], [])
    assert error.args[0].startswith("Input to ChatPromptTemplate is missing variables {'x'}.")


def test_partial_variables_values_and_callables() -> None:
    calls: list[int] = []

    def now() -> str:
        calls.append(1)
        return "B"

    template = Template("{a} {b}", partial_variables={"b": now})
    assert template.input_variables == ("a",)
    assert template.variables == ("a", "b")
    assert template.format({"a": 1}) == "1 B"
    assert template.format({"a": 1, "b": "override"}) == "1 override"
    assert len(calls) == 1  # called at each format that needs it: not at build, not when overridden
    bound = Template("{a} {b}").partial(b="bee")
    assert (bound.input_variables, bound.format({"a": 1})) == (("a",), "1 bee")
    with pytest.raises(KeyError, match=r"missing variables \{'a'\}.  Expected: \['a'\] Received: \[\]"):
        bound.format({})


def test_templates_are_values() -> None:
    template = Template("{a}", partial_variables={"b": 1})
    assert template == Template("{a}", partial_variables={"b": 1})
    assert template != Template("{a}")
    for dump in (pickle.dumps, cloudpickle.dumps):
        assert pickle.loads(dump(template)).format({"a": 2}) == "2"
    assert repr(Template("{a}")) == "Template(source='{a}', template_format='f-string', partial_variables={})"


def test_format_wants_a_mapping() -> None:
    with pytest.raises(TypeError, match="PromptTemplate expects a mapping of variable values, got str"):
        Template("{a}").format("x")  # type: ignore[arg-type]


def test_unknown_format_and_bad_source() -> None:
    with pytest.raises(ValueError, match="Unsupported template format: python"):
        Template("x", "python")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a template must be a str, got int"):
        Template(1)  # type: ignore[arg-type]


# -- mustache: (template, values, peer's output); input variables checked separately ------------

MUSTACHE_FACTS: list[tuple[str, dict[str, object], str]] = [
    ("{{name}}", {"name": "<b>&\"'"}, "&lt;b&gt;&amp;&quot;'"),
    ("{{{name}}}", {"name": "<b>&"}, "<b>&"),
    ("{{&name}}", {"name": "<b>&"}, "<b>&"),
    ("{{person.name}} {{#items}}[{{.}}]{{/items}}", {"person": {"name": "x"}, "items": [1, 2]}, "x [1][2]"),
    ("{{#items}}{{n}}{{/items}}", {"items": [{"n": 1}, {"n": 2}]}, "12"),
    ("{{^x}}none{{/x}}", {"x": []}, "none"),
    ("{{^x}}none{{/x}}", {"x": False}, "none"),
    ("{{^x}}none{{/x}}", {"x": ""}, "none"),
    ("{{^x}}none{{/x}}", {"x": 0}, "none"),
    ("{{#x}}yes{{/x}}", {"x": 0}, ""),
    ("{{#x}}yes{{/x}}", {"x": "s"}, "yes"),
    ("{{#x}}[{{.}}]{{/x}}", {"x": "s"}, "[s]"),
    ("{{#x}}[{{y}}]{{/x}}", {"x": {"y": 1}}, "[1]"),
    ("{{#x}}[{{y}}]{{/x}}", {"x": {"z": 1}, "y": 5}, "[5]"),
    ("{{person.name}}", {"person": {}}, ""),
    ("{{person.name}}", {"person": "str"}, ""),
    ("{{a}}", {"a": None}, ""),
    ("{{a}}", {"a": [1, 2]}, "[1, 2]"),
    ("{{a}}", {"a": {"k": 1}}, "{'k': 1}"),
    ("{{a}}", {"a": True}, "True"),
    ("{{a}}", {"a": False}, "False"),
    ("{{a}}", {"a": 0}, "0"),
    ("{{a}}", {"a": ""}, ""),
    ("{{a}}", {"a": 1.5}, "1.5"),
    ("{{! comment }}x", {}, "x"),
    ("{{=<% %>=}}<% a %>", {"a": 1}, "1"),
    ("{{ a }}", {"a": 1}, "1"),
    ("{{a.b.c}}", {"a": {"b": {"c": 3}}}, "3"),
    ("{{#a}}{{b.c}}{{/a}}", {"a": [{"b": {"c": 1}}]}, "1"),
    ("{{#a.b}}x{{/a.b}}", {"a": {"b": True}}, "x"),
    ("{{#a}}\n  line\n{{/a}}\n", {"a": True}, "  line\n"),
    ("{{.}}", {}, "{}"),
    ("a\n  {{#s}}\n  x\n  {{/s}}\nb", {"s": [1, 2]}, "a\n  x\n  x\nb"),
    ("  {{! c }}  \nz", {}, "z"),
    ("{{items.1}}", {"items": ["a", "b"]}, "b"),
    ("{{#a}}{{#b}}{{c}}{{/b}}{{/a}}", {"a": {"c": 1}, "b": True}, "1"),
    ("{{#l}}{{.}},{{/l}}", {"l": [1, None, 0, "", [], False, "a"]}, "1,a,"),  # falsy items are skipped
    ("x\r\n{{#a}}\r\ny\r\n{{/a}}\r\n", {"a": 1}, "x\r\ny\r\n"),
]


@pytest.mark.parametrize(("source", "values", "expected"), MUSTACHE_FACTS)
def test_mustache_renders_like_the_peer(source: str, values: dict[str, object], expected: str) -> None:
    assert Template(source, "mustache").format(values) == expected


def test_mustache_input_variables_are_top_level_names() -> None:
    source = "{{b}} {{a.x}} {{#s}}{{inner}}{{/s}} {{^inv}}{{i2}}{{/inv}} {{{raw}}} {{&amp}} {{.}}"
    assert Template(source, "mustache").input_variables == ("a", "amp", "b", "inv", "raw", "s")


def test_mustache_never_reads_attributes() -> None:
    class Person:
        name = "attribute"

    assert Template("{{person.name}}|{{person.__class__}}", "mustache").format({"person": Person()}) == "|"


@pytest.mark.parametrize(
    ("source", "match"),
    [
        ("{{#a}}", "section 'a' is never closed"),
        ("{{/a}}", "section 'a' closed but never opened"),
        ("{{#a}}{{/b}}", "section 'a' closed by 'b'"),
        ("{{a", "unclosed mustache tag at line 1"),
        ("{{> partial}}", "partials .* are not supported"),
        ("{{}}", "empty mustache tag"),
        ("{{a..b}}", "invalid mustache name 'a..b'"),
        ("{{=<%=}}", "invalid mustache delimiter tag"),
    ],
)
def test_mustache_errors_name_the_template(source: str, match: str) -> None:
    with pytest.raises(ValueError, match=match):
        Template(source, "mustache")


def test_mustache_never_calls_values() -> None:
    with pytest.raises(TypeError, match="mustache section 'f' got a callable"):
        Template("{{#f}}x{{/f}}", "mustache").format({"f": lambda text: text})


def test_mustache_missing_top_level_variables_raise() -> None:
    with pytest.raises(KeyError, match=r"missing variables \{'b'\}"):
        Template("{{a}} {{b}}", "mustache").format({"a": 1})


# -- jinja2 -----------------------------------------------------------------------------------


def test_jinja2_renders_in_a_sandbox_without_attributes() -> None:
    template = Template("{{ a }} {% for i in xs %}{{ i.y }}{% endfor %} {{ d['k'] }}", "jinja2")
    assert template.input_variables == ("a", "d", "xs")
    assert template.format({"a": "<b>", "xs": [{"y": 1}, {"y": 2}], "d": {"k": "v"}}) == "<b> 12 v"
    with pytest.raises(jinja2.exceptions.SecurityError, match="no dunder access"):  # refused when built
        Template("{{ a.__class__ }}", "jinja2")
    with pytest.raises(jinja2.exceptions.SecurityError, match="not 'b' of a int"):  # refused when formatted
        Template("{{ a.b }}", "jinja2").format({"a": 1})
    with pytest.raises(jinja2.exceptions.SecurityError, match="not 'upper' of a str"):  # the peer allows a.upper()
        Template("{{ a.upper() }}", "jinja2").format({"a": "x"})


def test_jinja2_helpers_keep_their_attributes() -> None:
    # loop, namespace and cycler are jinja2's own objects: their public attributes work.
    source = (
        "{% set ns = namespace(n=0) %}{% for i in xs %}{{ loop.index }}{% set ns.n = ns.n + i %}{% endfor %}={{ ns.n }}"
    )
    assert Template(source, "jinja2").format({"xs": [1, 2]}) == "12=3"
    assert Template("{% for k, v in d|items %}{{ k }}{{ v }}{% endfor %}", "jinja2").format({"d": {"a": 1}}) == "a1"


def test_jinja2_syntax_errors_fail_at_build() -> None:
    with pytest.raises(ValueError, match="invalid jinja2 template '{% for %}'"):
        Template("{% for %}", "jinja2")
    with pytest.raises(ValueError, match="No filter named 'attr'"):
        Template("{{ a|attr('x') }}", "jinja2")


def test_jinja2_is_opt_in_with_a_clear_import_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "jinja2", None)
    monkeypatch.setitem(sys.modules, "jinja2.sandbox", None)
    templates._jinja2_environment.cache_clear()  # pyright: ignore[reportPrivateUsage]
    try:
        with pytest.raises(ImportError, match=r"needs the jinja2 package: pip install 'lcel-combinators\[jinja2\]'"):
            Template("{{ a }}", "jinja2")
    finally:
        templates._jinja2_environment.cache_clear()  # pyright: ignore[reportPrivateUsage]
