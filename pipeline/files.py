"""Files that appear complete or not at all: temporary names, renames, the output folder and its lock."""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
from dataclasses import dataclass
from pathlib import Path

from .options import BadInput


def tmp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def atomic_write(path: Path, data: bytes | str) -> None:
    """Write ``data`` to ``path`` through a temporary name and a rename."""
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = tmp_name(path)
    try:
        with open(tmp, "wb") as f:
            f.write(data.encode("utf-8") if isinstance(data, str) else data)
            f.flush()
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def publish(src: Path, dest: Path) -> bool:
    """Make ``dest`` a complete copy of ``src`` (hard link if possible), atomically.

    Returns False when ``dest`` already is that file.
    """
    with contextlib.suppress(OSError):
        if os.path.samefile(src, dest):
            return False
    dest.parent.mkdir(parents=True, exist_ok=True)
    tmp = tmp_name(dest)
    try:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        try:
            os.link(src, tmp)
        except OSError:
            shutil.copyfile(src, tmp)
        os.replace(tmp, dest)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
    return True


def unlink(path: Path) -> None:
    with contextlib.suppress(FileNotFoundError):
        path.unlink()


@dataclass
class Paths:
    out: Path

    @property
    def cache(self) -> Path: return self.out / ".cache"
    @property
    def store(self) -> Path: return self.cache / "store"
    @property
    def media(self) -> Path: return self.cache / "media"
    @property
    def tmp(self) -> Path: return self.cache / "tmp"
    @property
    def logs(self) -> Path: return self.cache / "logs"
    @property
    def manifest(self) -> Path: return self.out / "manifest.json"


def check_out_dir(out: Path) -> Paths:
    """Create ``out`` and check it is writable, else :class:`BadInput`."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        (out / ".cache").mkdir(exist_ok=True)
        probe = out / ".cache" / f".probe.{os.getpid()}"
        probe.write_bytes(b"")
        probe.unlink()
    except OSError as e:
        raise BadInput(f"--out {str(out)!r} cannot be written: {e.strerror or e}") from None
    return Paths(out.resolve())


@contextlib.contextmanager
def locked(paths: Paths):
    """Hold ``out/.cache/lock``: one run per output directory at a time."""
    import fcntl

    fd = os.open(paths.cache / "lock", os.O_RDWR | os.O_CREAT, 0o644)
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            raise BadInput(f"--out {str(paths.out)!r} is in use by another render.py run") from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        clean_leftovers(paths)  # of a run that was killed (SIGKILL, power loss)
        yield
    finally:
        shutil.rmtree(paths.tmp, ignore_errors=True)
        os.close(fd)


def clean_leftovers(paths: Paths) -> None:
    """Remove temporary files of an earlier run (only called while holding the lock)."""
    shutil.rmtree(paths.tmp, ignore_errors=True)
    leftover = re.compile(r"^\..+\.\d+\.tmp$")
    for d in (paths.out, paths.out / "clips", paths.out / "stills", paths.cache, *paths.store.glob("*")):
        if d.is_dir():
            for f in d.iterdir():
                if leftover.match(f.name) and f.is_file():
                    unlink(f)


def read_json(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None

