"""Extra `dask`: a batch on a local two-worker cluster (threads, 127.0.0.1 only)."""

from distributed import Client, LocalCluster

from combinators import RunnableLambda
from combinators.integrations.dask import DaskExecutor


def square(n: int) -> int:
    return n * n


if __name__ == "__main__":
    with (
        LocalCluster(n_workers=2, processes=False, dashboard_address="127.0.0.1:0") as cluster,
        Client(cluster) as client,
    ):
        out = RunnableLambda(square).batch(list(range(20)), executor=DaskExecutor(client))
    assert out == [n * n for n in range(20)], out
    print("dask: 20 items on 2 workers")
