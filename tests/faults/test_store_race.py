"""The batch clip store written by two workers at once, read by a third, on a real file system.

Two processes put the same nine keys over and over, each with bytes of its own (two renders of
one clip that are not bit-for-bit alike: two machines, two library builds), while a third
reads them: every read is either "not there yet" or one writer's whole entry (its video and
its subtitles together, each matching the digest the metadata records), never a mix; at
the end every entry is whole and the store holds no temporary file. No mock: processes,
renames and the real ``ClipStore``.
"""

from __future__ import annotations

import multiprocessing as mp
import time
from pathlib import Path

import pytest

from batch.store import ClipStore, StoreError

pytestmark = [pytest.mark.slow]

KEYS = [f"{i:02d}ab{i:08d}" for i in range(9)]
ROUNDS = 12


def _files(base: Path, who: str, key: str) -> dict[str, Path]:
    base.mkdir(parents=True, exist_ok=True)
    (base / f"{key}.mp4").write_bytes((who * 4096 + key).encode() * 16)
    (base / f"{key}.srt").write_text(f"1\n00:00:00,000 --> 00:00:01,000\n{who} {key}\n", encoding="utf-8")
    return {"mp4": base / f"{key}.mp4", "srt": base / f"{key}.srt"}


def _writer(root: str, who: str, scratch: str) -> None:
    store = ClipStore(root)
    for r in range(ROUNDS):
        for key in (KEYS if r % 2 == 0 else reversed(KEYS)):
            store.put(key, _files(Path(scratch), who, key), {"by": who})


def _reader(root: str, scratch: str, stop, problems) -> None:
    store = ClipStore(root)
    n = 0
    while not stop.is_set() or n < 2 * len(KEYS):
        for key in KEYS:
            dest = Path(scratch) / str(n)
            n += 1
            try:
                meta = store.get(key, dest)
            except StoreError as e:
                if "not in the store" not in str(e):
                    problems.append(f"{key}: {e}")
                continue
            video = (dest / f"{key}.mp4").read_bytes()
            text = (dest / f"{key}.srt").read_text(encoding="utf-8")
            who = meta["by"]
            if not video.startswith((who * 8).encode()) or f"{who} {key}" not in text:
                problems.append(f"{key}: the metadata says {who}, the files disagree")


def store_race(work: Path) -> list[str]:
    """Two writers and a reader on a fresh store in ``work``: what went wrong (empty: nothing)."""
    root = str(work / "store")
    ctx = mp.get_context("fork")
    with ctx.Manager() as manager:
        problems, stop = manager.list(), manager.Event()
        writers = [ctx.Process(target=_writer, args=(root, who, str(work / who))) for who in ("A", "B")]
        reader = ctx.Process(target=_reader, args=(root, str(work / "read"), stop, problems))
        t0 = time.monotonic()
        for p in (*writers, reader):
            p.start()
        for p in writers:
            p.join(120)
        stop.set()
        reader.join(120)
        found = list(problems)
        found += [f"exit codes {[p.exitcode for p in (*writers, reader)]}"
                  for _ in [0] if any(p.exitcode != 0 for p in (*writers, reader))]
    if time.monotonic() - t0 >= 120:
        found.append("took two minutes or more")
    store = ClipStore(root)
    if store.keys() != set(KEYS):
        found.append(f"entries at the end: {sorted(store.keys())}")
    for key in store.keys() & set(KEYS):
        meta = store.get(key, work / "final")
        if meta["by"] not in ("A", "B"):
            found.append(f"{key}: written by {meta['by']!r}")
    found += [f"temporary file left: {p.name}" for p in (work / "store").rglob("*") if p.name.endswith(".tmp")]
    return found


def test_two_writers_and_a_reader_never_see_a_mixed_entry(tmp_path):
    problems = store_race(tmp_path)
    assert not problems, problems[:5]
