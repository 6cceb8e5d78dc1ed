"""Files that appear complete or not at all: temporary names, renames, the output folder and its lock."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import re
import shutil
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .options import BadInput

__all__ = ["DiskFull", "is_disk_full", "space_for", "tree_size", "human_size", "tmp_name",
           "atomic_write", "publish", "unlink", "Paths", "check_out_dir", "locked", "clean_leftovers",
           "content_digest", "read_json"]

#: The error numbers of a write that found no room (a full filesystem, a user's quota).
_NO_ROOM = frozenset({errno.ENOSPC, errno.EDQUOT})
_NO_ROOM_TEXT = ("No space left on device", "Disk quota exceeded")


class DiskFull(Exception):
    """A write found its filesystem full: the command line prints :meth:`line` and exits 1.

    Not an :class:`OSError`, so that no ``except OSError`` on the way (a file that may be
    missing) takes it for something else.

    Parameters
    ----------
    folder
        The folder the write went to.
    needed
        The bytes the write needed (None when not known); with ``at_least``, a lower bound.
    """

    def __init__(self, folder: Path | str, needed: int | None = None, at_least: bool = False):
        self.folder = Path(folder)
        self.needed = needed
        self.at_least = at_least
        super().__init__(self.line())

    def free(self) -> int | None:
        """The bytes free now where the write went (None if that cannot be read)."""
        for d in (self.folder, *self.folder.parents):
            with contextlib.suppress(OSError):
                return shutil.disk_usage(d).free
        return None

    def line(self) -> str:
        """One line: the folder, the space needed, the space free, and the fix."""
        free = self.free()
        have = f"{human_size(free)} free" if free is not None else "full"
        if self.needed is None or (self.at_least and free is not None and self.needed <= free):
            need = "more than that needed"
        else:
            need = f"{'at least ' if self.at_least else ''}{human_size(self.needed)} needed"
        return (f"no space left in {self.folder} ({have}, {need}); free some space there or "
                "choose another --out (earlier outputs are kept)")


def is_disk_full(e: BaseException | None) -> bool:
    """Whether ``e`` (or an exception it was raised from) is a write that found no room."""
    seen = set()
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        if isinstance(e, DiskFull):
            return True
        if isinstance(e, OSError) and e.errno in _NO_ROOM:
            return True
        if any(t in str(e) for t in _NO_ROOM_TEXT):
            return True
        e = e.__cause__ or e.__context__
    return False


@contextlib.contextmanager
def space_for(folder: Path, needed: int | None = None, at_least: bool = False) -> Iterator[None]:
    """Turn a full filesystem met inside the block into :class:`DiskFull` for ``folder``."""
    try:
        yield
    except DiskFull:
        raise
    except Exception as e:
        if is_disk_full(e):
            raise DiskFull(folder, needed, at_least) from None
        raise


def tree_size(path: Path) -> int:
    """The bytes of the files under ``path`` (0 if it is gone)."""
    if path.is_file():
        return path.stat().st_size
    total = 0
    for dirpath, _, files in os.walk(path):
        for name in files:
            with contextlib.suppress(OSError):
                total += os.lstat(os.path.join(dirpath, name)).st_size
    return total


def human_size(n: int) -> str:
    """``n`` bytes as a person reads them: 812 B, 14.2 KB, 3.1 MB, 2.0 GB."""
    size = float(n)
    for unit in ("B", "KB", "MB", "GB"):
        if size < 1024 or unit == "GB":
            return f"{size:.0f} {unit}" if unit == "B" else f"{size:.1f} {unit}"
        size /= 1024
    return f"{size:.1f} TB"


def tmp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def atomic_write(path: Path, data: bytes | str) -> None:
    """Write ``data`` to ``path`` through a temporary name and a rename."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    tmp = tmp_name(path)
    try:
        with space_for(path.parent, len(raw)):
            path.parent.mkdir(parents=True, exist_ok=True)
            with open(tmp, "wb") as f:
                f.write(raw)
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
            with space_for(dest.parent, src.stat().st_size):
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
        if is_disk_full(e):
            raise DiskFull(out) from None
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
            holder = (os.pread(fd, 16, 0).decode(errors="replace").strip() or "?")
            raise BadInput(f"--out {str(paths.out)!r} is in use by another render.py run "
                           f"(process {holder})") from None
        os.ftruncate(fd, 0)
        with space_for(paths.cache, 16):
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


def content_digest(path: Path) -> str:
    """The sha256 of a file's bytes (a store entry records its files' digests, so that a cut
    or changed file is found by what it holds, not by its name)."""
    import hashlib

    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def read_json(path: Path) -> dict | None:
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None

