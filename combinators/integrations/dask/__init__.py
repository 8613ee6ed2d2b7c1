"""Batches on a Dask cluster (extra ``dask``): ``DaskExecutor``.

Without the extra, importing this package raises ``effects.MissingExtraError`` naming it.
"""

import importlib as _importlib

try:
    _importlib.import_module("distributed")  # the extra's one dependency
except ModuleNotFoundError as _missing:
    from effects import MissingExtraError as _MissingExtraError

    raise _MissingExtraError(
        "DaskExecutor needs the optional extra 'dask': pip install 'combinators[dask]'"
        f" (missing module: {_missing.name})"
    ) from _missing

from combinators.integrations.dask.executor import DaskExecutor as DaskExecutor

__all__ = ["DaskExecutor"]
