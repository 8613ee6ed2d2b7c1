# The part of tqdm.auto that combinators.integrations.progress uses.
from typing import IO

class tqdm:
    n: float
    colour: str | None  # a property in the notebook bar (its style's bar_color)
    def __init__(
        self,
        *,
        total: float | None = ...,
        desc: str | None = ...,
        unit: str = ...,
        file: IO[str] | None = ...,
        leave: bool | None = ...,
    ) -> None: ...
    def update(self, n: float | None = ...) -> bool | None: ...
    def set_postfix(self, *, refresh: bool | None = ..., **kwargs: object) -> None: ...
    def close(self) -> None: ...
