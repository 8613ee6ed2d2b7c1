"""``DaskExecutor``: a batch's items as tasks on an existing Dask cluster.

The runnable is pickled once per call, broadcast to every worker and kept by the
executor for the next call with the same runnable (shipped again once the cluster has
lost it: every worker restarted); each task carries a chunk of items
and runs them with this library's interpreter (``effects.executors.run_items``); the
items' effects come back as values and the caller adopts them, so events, logs and
listeners show the remote items below the local run.
"""

from __future__ import annotations

import math
import threading
import uuid
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Final, Literal, TypedDict, final

import attrs
import cloudpickle
from distributed import Client, Future

from combinators.integrations.dask.submission import ChunkTask, DaskSubmission, TaskOptions, cancel_event
from effects.executors import BatchJob, ExecutorError, ShippedItem

_KEPT_STEPS: Final = 8


class _WorkerInfo(TypedDict, total=False):
    """What the executor reads of a worker in ``Client.scheduler_info()["workers"]``."""

    nthreads: int
    resources: Mapping[str, float]


@final
class _Shipments:
    """The runnables an executor has broadcast, most recent last (one scatter each).

    A step is only held here (compared by identity, kept so its id stays its own).
    """

    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.kept: OrderedDict[int, tuple[object, Future[bytes], str]] = OrderedDict()

    def get(self, step: object) -> tuple[Future[bytes], str] | None:
        """The shipment of ``step``, if the cluster still holds it: once every worker that
        had it died or restarted, its future is no longer ``finished`` and it is shipped
        again (else every later batch would fail at once)."""
        with self.lock:
            kept = self.kept.get(id(step))
            if kept is None or kept[0] is not step:
                return None
            if kept[1].status != "finished":
                del self.kept[id(step)]
                return None
            self.kept.move_to_end(id(step))
            return kept[1], kept[2]

    def put(self, step: object, client: Client, blob: bytes) -> tuple[Future[bytes], str]:
        token = uuid.uuid4().hex
        # A key of its own kind: the scheduler queues a batch's tasks (rather than piling
        # them on busy workers) only while their dependencies are few of a kind.
        future = client.scatter({f"combinators_step_{token}": blob}, broadcast=True, hash=False)[
            f"combinators_step_{token}"
        ]
        with self.lock:
            self.kept[id(step)] = (step, future, token)  # the step is kept: its id stays its own
            while len(self.kept) > _KEPT_STEPS:
                self.kept.popitem(last=False)
        return future, token


def _chunk_size(value: int | Literal["auto"]) -> int | Literal["auto"]:
    if value != "auto" and not (type(value) is int and value >= 1):
        raise ValueError(f"chunk_size must be a positive int or 'auto', got {value!r}")
    return value


def _resources(value: Mapping[str, float] | None) -> Mapping[str, float]:
    return MappingProxyType(dict(value or {}))


@final
@attrs.frozen(eq=False, repr=False)
class DaskExecutor:
    """Runs batches on the cluster of a ``distributed.Client`` (an ``effects.Executor``).

    ``chunk_size`` items go in one task. The default, ``"auto"``, chooses from the batch,
    as Dask's own collections choose their partitions: about four tasks per worker
    thread (``ceil(items / (4 * threads))``), so a small batch (up to four items per
    thread) still gets one item per task, results streaming back one by one, and a large
    batch of cheap items pays a task's overhead once per chunk, not once per item. Give
    an int to fix it (1: every item a task of its own, for few, long items).

    ``retries`` are Dask's task retries: a chunk whose task itself failed (its runnable
    could not be loaded on the worker, say) runs again up to that many times. An item's
    own error is its result, never retried here (use ``with_retry``). Independently of
    ``retries``, Dask re-runs a task whose worker died or restarted while it ran, on
    another worker, up to the scheduler's ``distributed.scheduler.allowed-failures``
    times (3 by default; then its items fail with ``KilledWorker``): an item in flight
    on a killed worker can run twice, ``retries=0`` included. Make such items
    idempotent, or start the scheduler with ``allowed-failures`` 0 to run each at most
    once (the items a killed worker was running, or had queued, then fail with
    ``KilledWorker``).

    ``resources`` are worker resources every task needs (``{"GPU": 1}``).

    >>> from distributed import Client, LocalCluster
    >>> from combinators import RunnableLambda
    >>> with LocalCluster(n_workers=1, processes=False, dashboard_address="127.0.0.1:0") as cluster:
    ...     with Client(cluster) as client:
    ...         RunnableLambda(lambda x: x * 2).batch([1, 2, 3], executor=DaskExecutor(client))
    [2, 4, 6]
    """

    client: Client
    chunk_size: int | Literal["auto"] = attrs.field(default="auto", converter=_chunk_size)
    retries: int = 0
    resources: Mapping[str, float] = attrs.field(default=None, converter=_resources)
    _shipments: _Shipments = attrs.field(factory=_Shipments, init=False)

    @property
    def name(self) -> str:
        """``"dask"``: the ``executor`` metadata of the runs it adopts."""
        return "dask"

    def __repr__(self) -> str:
        shown = [repr(self.client)]
        if self.chunk_size != "auto":
            shown.append(f"chunk_size={self.chunk_size!r}")
        if self.retries:
            shown.append(f"retries={self.retries!r}")
        if self.resources:
            shown.append(f"resources={dict(self.resources)!r}")
        return f"DaskExecutor({', '.join(shown)})"

    def submit(self, job: BatchJob) -> DaskSubmission:
        """Check that the cluster can run ``job``, then submit its chunks."""
        status = self.client.status
        if status != "running":
            raise ExecutorError(f"DaskExecutor's client is {status}: it cannot run a batch")
        workers: Mapping[str, _WorkerInfo] = self.client.scheduler_info(n_workers=-1)["workers"]
        self._check_resources(workers)
        shipped = self._shipments.get(job.step)
        blob = None if shipped is not None else _pickled(job.step, f"the runnable {job.step!r}")
        size = self._size(len(job.items), workers)
        chunks = [
            (tuple(item.index for item in part), _pickled((job.kwargs, part), _what(part)))
            for part in _parts(job.items, size)
        ]
        if shipped is None:
            assert blob is not None
            shipped = self._shipments.put(job.step, self.client, blob)
        step, token = shipped
        batch = uuid.uuid4().hex
        options: TaskOptions = {"retries": self.retries}
        if self.resources:
            options["resources"] = dict(self.resources)
        task: ChunkTask = {
            "step": step,
            "token": token,
            "cancel": cancel_event(batch),
            "asynchronous": job.asynchronous,
        }
        return DaskSubmission(self.client, batch, chunks, job.max_concurrency, options, task)

    def _check_resources(self, workers: Mapping[str, _WorkerInfo]) -> None:
        for name, amount in self.resources.items():
            held = [dict(w.get("resources", {})) for w in workers.values()]
            if not any(have.get(name, 0) >= amount for have in held):
                raise ExecutorError(
                    f"no worker of the cluster has the resource {name}={amount:g}"
                    f" (the workers have {held}): its tasks would wait forever"
                )

    def _size(self, count: int, workers: Mapping[str, _WorkerInfo]) -> int:
        if self.chunk_size != "auto":
            return self.chunk_size
        threads = sum(int(w.get("nthreads", 1)) for w in workers.values()) or 1
        return max(1, math.ceil(count / (4 * threads)))


def _parts(items: Sequence[ShippedItem], size: int) -> list[Sequence[ShippedItem]]:
    return [items[start : start + size] for start in range(0, len(items), size)]


def _what(part: Sequence[ShippedItem]) -> str:
    first, last = part[0].index, part[-1].index
    where = f"the item at index {first}" if first == last else f"the items at indexes {first}-{last}"
    return f"{where} (its input or config)"


def _pickled(value: object, what: str) -> bytes:
    try:
        return cloudpickle.dumps(value)
    except Exception as error:
        raise ExecutorError(f"DaskExecutor cannot ship {what}: it does not pickle ({error})") from error
