"""Batches on a Dask cluster (extra ``dask``): ``DaskExecutor``.

Without the extra, importing this package raises ``effects.MissingExtraError`` naming it.
"""

from effects.hooks import require_extra as _require_extra

_require_extra("DaskExecutor", "dask", "distributed")  # first: names a missing extra

from combinators.integrations.dask.executor import DaskExecutor as DaskExecutor

__all__ = ["DaskExecutor"]
