"""Imported by the forkserver of a Dask worker (a preload module): it dies with the worker.

``render`` forks each section's process from a forkserver, and every render process asks to
be killed when the forkserver dies (``PR_SET_PDEATHSIG``). But a forkserver outlives the
process that started it for as long as any of its render processes runs (each holds the
forkserver's "parent alive" pipe), so a Dask worker killed mid-task would leave its render
running to the end, unseen. Importing this module in the forkserver makes the kernel kill it
when the worker dies, and its render processes with it. Linux only; elsewhere it does nothing.
"""

from __future__ import annotations

import contextlib
import signal

PR_SET_PDEATHSIG = 1

with contextlib.suppress(Exception):
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
