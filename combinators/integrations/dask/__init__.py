"""Batches on a Dask cluster (extra ``dask``): ``DaskExecutor``."""

from effects.hooks import require_extra as _require_extra

_require_extra("DaskExecutor", "dask", "distributed")

from combinators.integrations.dask.executor import DaskExecutor as DaskExecutor

__all__ = ["DaskExecutor"]
