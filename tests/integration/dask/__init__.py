"""DaskExecutor against a real distributed.LocalCluster."""
