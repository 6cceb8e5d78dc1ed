"""The Dask cluster a batch runs on: an in-process ``LocalCluster``, or an existing scheduler.

Workers run one task at a time (one thread each): manim's configuration is process-wide, and
each task forks its own render process anyway. Worker processes are made non-daemonic
(``distributed.worker.daemon = False``) so they may fork render processes from a forkserver
that has imported manim once, like ``render`` does; on an existing cluster started without
that setting, tasks fall back to a fresh python process per section (see
:func:`batch.tasks._strategy`).
"""

from __future__ import annotations

import contextlib
import importlib.util
import logging
import socket
from collections.abc import Iterator

#: Seconds to wait for ``--scheduler`` to answer: the TCP connection, then Dask's handshake.
PROBE_TIMEOUT = 5
CONNECT_TIMEOUT = 30


class ClusterError(RuntimeError):
    """The scheduler cannot be reached (bad input: exit 2)."""


def check_scheduler(address: str) -> None:
    """Fail fast (:class:`ClusterError`) if nothing listens at a ``tcp://host:port`` address;
    other protocols are left to Dask."""
    from urllib.parse import urlsplit

    parts = urlsplit(address if "://" in address else f"tcp://{address}")
    if parts.scheme != "tcp":
        return
    try:
        port = parts.port or 8786
        with socket.create_connection((parts.hostname or "127.0.0.1", port), timeout=PROBE_TIMEOUT):
            pass
    except ValueError:
        raise ClusterError(f"--scheduler {address}: not an address like tcp://host:8786") from None
    except OSError as e:
        raise ClusterError(f"--scheduler {address}: cannot connect ({e.strerror or e})") from None


def has_dashboard() -> bool:
    """Dask serves its dashboard only when bokeh is installed."""
    return importlib.util.find_spec("bokeh") is not None


@contextlib.contextmanager
def connect(scheduler: str | None, workers: int) -> Iterator:
    """A ``distributed.Client``: on ``scheduler`` (``tcp://host:8786``), else on a new
    ``LocalCluster`` of ``workers`` processes with one thread each, closed on exit."""
    import dask
    from distributed import Client, LocalCluster

    if scheduler:
        try:
            client = Client(scheduler, timeout=CONNECT_TIMEOUT, set_as_default=False)
        except (OSError, TimeoutError) as e:
            raise ClusterError(f"--scheduler {scheduler}: cannot connect ({' '.join(str(e).split())})") from None
        try:
            yield client
        finally:
            client.close()
        return
    # Set for the whole run, not a block: a nanny reads it again when it restarts a dead worker.
    dask.config.set({"distributed.worker.daemon": False})
    cluster = LocalCluster(n_workers=workers, threads_per_worker=1, processes=True,
                           dashboard_address="127.0.0.1:0" if has_dashboard() else None,
                           silence_logs=logging.ERROR, host="127.0.0.1")
    try:
        client = Client(cluster, set_as_default=False)
        try:
            yield client
        finally:
            client.close()
    finally:
        cluster.close()

