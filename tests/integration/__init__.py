"""Tests against real parts: a live server, a browser, a Dask cluster, an OTLP receiver."""
