"""An integration checks its extra before anything of it loads, so that its absence is named."""

import importlib.util

from effects.hooks import MissingExtraError, install_line


def require_extra(package: str, extra: str, *modules: str) -> None:
    """Raise ``MissingExtraError`` naming ``extra`` unless each of ``modules`` is installed
    (found, not imported: an SDK's import cost is paid when it is first used).

    >>> require_extra("combinators.integrations.example", "greet", "json")
    >>> require_extra("combinators.integrations.example", "greet", "no_such_sdk_here")
    Traceback (most recent call last):
    ...
    effects.hooks.MissingExtraError: combinators.integrations.example needs the optional extra 'greet': pip install 'lcel-combinators[greet]' (missing module: no_such_sdk_here)
    """
    for module in modules:
        if importlib.util.find_spec(module) is None:
            raise MissingExtraError(
                f"{package} needs the optional extra {extra!r}: {install_line(extra)} (missing module: {module})"
            )
