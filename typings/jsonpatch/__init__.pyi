# Local stubs for jsonpatch (RFC 6902), the subset of its public API this project uses.
#
# JSON documents are typed `object`: jsonpatch accepts any JSON-shaped Python value and
# returns one, so callers narrow what they get back instead of trusting an `Any`.
# Operations are mappings such as {"op": "add", "path": "/a", "value": 1}.

from collections.abc import Callable, Iterable, Iterator, Mapping

class JsonPointerException(Exception):
    """Re-exported by jsonpatch from jsonpointer: a pointer that does not resolve."""

_Operation = Mapping[str, object]

class JsonPatchException(Exception): ...
class InvalidJsonPatch(JsonPatchException): ...
class JsonPatchConflict(JsonPatchException): ...
class JsonPatchTestFailed(JsonPatchException, AssertionError): ...

def apply_patch(
    doc: object,
    patch: str | bytes | Iterable[_Operation],
    in_place: bool = False,
    pointer_cls: type[object] = ...,
    atomic: bool = False,
) -> object: ...
def make_patch(
    src: object,
    dst: object,
    pointer_cls: type[object] = ...,
    generate_test_ops: bool = False,
) -> JsonPatch: ...

class JsonPatch:
    patch: list[dict[str, object]]
    def __init__(self, patch: Iterable[_Operation], pointer_cls: type[object] = ...) -> None: ...
    def __bool__(self) -> bool: ...
    def __iter__(self) -> Iterator[dict[str, object]]: ...
    def __eq__(self, other: object) -> bool: ...
    def __hash__(self) -> int: ...
    @classmethod
    def from_string(
        cls,
        patch_str: str | bytes | bytearray,
        loads: Callable[[str], object] | None = None,
        pointer_cls: type[object] = ...,
    ) -> JsonPatch: ...
    @classmethod
    def from_diff(
        cls,
        src: object,
        dst: object,
        optimization: bool = True,
        dumps: Callable[[object], str] | None = None,
        pointer_cls: type[object] = ...,
        generate_test_ops: bool = False,
    ) -> JsonPatch: ...
    def to_string(self, dumps: Callable[[object], str] | None = None) -> str: ...
    def apply(self, obj: object, in_place: bool = False, atomic: bool = False) -> object: ...
