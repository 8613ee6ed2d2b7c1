"""Batches on a Dask cluster (extra ``dask``): ``DaskExecutor``.

Without the extra, importing this package raises ``effects.MissingExtraError`` naming it.
"""

import importlib as _importlib

try:
    _importlib.import_module("distributed")  # the extra's one dependency
except ModuleNotFoundError as _missing:
    from effects.hooks import MissingExtraError as _MissingExtraError
    from effects.hooks import install_line as _install_line

    raise _MissingExtraError(
        f"DaskExecutor needs the optional extra 'dask': {_install_line('dask')} (missing module: {_missing.name})"
    ) from _missing

from combinators.integrations.dask.executor import DaskExecutor as DaskExecutor

__all__ = ["DaskExecutor"]
