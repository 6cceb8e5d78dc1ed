"""A pytest plugin for :mod:`bench.bench_suite`: each test's wall time, per worker.

Loaded with ``-p bench.suite_timeline``; writes one JSON line per test (``id``, ``start``,
``seconds``: setup, call and teardown together) to ``$ATTN_SUITE_TIMELINE/<worker>.jsonl``.
Does nothing when the variable is unset.
"""

from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from words import config

_out = None


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    global _out
    folder = config.current().suite_timeline
    start = time.time()
    yield
    if not folder:
        return
    if _out is None:
        Path(folder).mkdir(parents=True, exist_ok=True)
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        _out = open(Path(folder) / f"{worker}.jsonl", "a", encoding="utf-8")  # noqa: SIM115
    _out.write(json.dumps({"id": item.nodeid, "start": start, "seconds": time.time() - start}) + "\n")
    _out.flush()
