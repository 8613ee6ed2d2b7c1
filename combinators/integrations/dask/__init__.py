"""Batches on a Dask cluster (extra ``dask``): ``DaskExecutor``."""

from combinators.integrations.dask.executor import DaskExecutor as DaskExecutor

__all__ = ["DaskExecutor"]
