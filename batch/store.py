"""The clip store of ``render.py batch``: rendered sections by cache key, over fsspec.

``--cache`` is an fsspec URL: a local folder (the default, ``OUT/.cache/store``), a folder
every worker mounts at the same path, or an object store such as ``s3://bucket/prefix``
(credentials and endpoint from the environment: ``AWS_ACCESS_KEY_ID``,
``AWS_SECRET_ACCESS_KEY``, ``AWS_ENDPOINT_URL`` for an S3-compatible server).

An entry is a few files named by its key, in a folder named by the key's first two
characters (``ab/ab12....<digest>.mp4``, ``.srt``, ``.beats``; ``ab/ab12....json``). The key
is the section's content hash (the same hash ``render`` caches by). Each file is written whole
or not at all (a temporary name and a rename on a file system; one PUT on an object store)
under a name that holds its own SHA-256, and the ``.json`` (sizes and digests of the other
files) is written last: an entry without it does not exist, and the one written last names
files that belong together. So the store needs no locking even when two workers render the
same key at once and their bytes differ (a render that is not bit-for-bit reproducible): each
writes its own files, and a reader gets one worker's whole set, never a mix. Reading checks
the sizes and digests. Entries written before the names held digests are read as before.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
import uuid
from pathlib import Path

import fsspec

from pipeline.cache import _file_digest as _sha256  # the one file digest of the project

#: Protocols whose single PUT is atomic (an object appears whole or not at all).
OBJECT_STORES = {"s3", "s3a", "gs", "gcs", "abfs", "az", "adl", "memory"}
META = "json"
#: Hex digits of a file's SHA-256 in its name in the store (:meth:`ClipStore.path`).
CONTENT_DIGITS = 16


class StoreError(RuntimeError):
    """An entry that is missing, incomplete or does not match its digests."""


class ClipStore:
    """A content-addressed store of rendered clips at an fsspec URL.

    Parameters
    ----------
    url
        A local path or an fsspec URL (``s3://bucket/prefix``, ``file:///shared/store``).
    storage_options
        Passed to the fsspec file system (e.g. ``{"client_kwargs": {"endpoint_url": ...}}``);
        by default everything comes from the environment.
    """

    def __init__(self, url: str | os.PathLike, storage_options: dict | None = None):
        url = os.fspath(url)
        if "://" not in url:  # a plain path: absolute, so it means the same on every worker
            url = str(Path(url).expanduser().resolve())
        self.url = url
        self.storage_options = dict(storage_options or {})
        self.fs, self.root = fsspec.core.url_to_fs(url, **self.storage_options)
        self.root = self.root.rstrip("/")
        protocols = self.fs.protocol if isinstance(self.fs.protocol, (tuple, list)) else (self.fs.protocol,)
        self.atomic_put = bool(OBJECT_STORES & set(protocols))
        self.is_local = "file" in protocols or "local" in protocols

    def __reduce__(self):  # workers rebuild the file system from the URL
        return (ClipStore, (self.url, self.storage_options))

    def __repr__(self) -> str:
        return f"ClipStore({self.url!r})"

    # -- names ----------------------------------------------------------------------

    def path(self, key: str, suffix: str, sha256: str | None = None) -> str:
        """Where the ``suffix`` file (``mp4``, ``srt``, ``json``) of ``key`` lives in the store;
        a file named by its content (``sha256``) as :meth:`put` writes them: two workers that
        render one clip at once each write their own bytes, and the metadata written last
        names a set of files that belong together."""
        if not key.isalnum():
            raise ValueError(f"not a cache key: {key!r}")
        if sha256 is not None:
            return f"{self.root}/{key[:2]}/{key}.{sha256[:CONTENT_DIGITS]}.{suffix}"
        return f"{self.root}/{key[:2]}/{key}.{suffix}"

    # -- reading --------------------------------------------------------------------

    def exists(self, key: str) -> bool:
        """True if the entry of ``key`` is complete (its ``.json`` is written last)."""
        path = self.path(key, META)
        self.fs.invalidate_cache(path.rsplit("/", 1)[0])  # another worker may have just written it
        return self.fs.exists(path)

    def keys(self) -> set[str]:
        """The keys of every complete entry, from one listing of the store."""
        if not self.fs.exists(self.root):
            return set()
        self.fs.invalidate_cache(self.root)
        found = set()
        for p in self.fs.find(self.root):
            name = p.rsplit("/", 1)[-1]
            if name.endswith("." + META) and not name.startswith("."):
                found.add(name[: -len(META) - 1])
        return found

    def meta(self, key: str) -> dict | None:
        """The entry's metadata (what the worker recorded, plus ``files``), or None."""
        try:
            with self.fs.open(self.path(key, META), "rb") as f:
                return json.loads(f.read().decode("utf-8"))
        except FileNotFoundError:
            return None
        except ValueError:
            return None  # a corrupt .json: the entry is rendered again

    def get(self, key: str, dest_dir: Path) -> dict:
        """Copy the entry's files to ``dest_dir/<key>.<suffix>`` and return its metadata.

        Files already there with the right digest are kept. Each copy is checked against the
        digests of the ``.json`` and renamed into place when complete.
        """
        meta = self.meta(key)
        if meta is None:
            raise StoreError(f"{key}: not in the store {self.url}")
        dest_dir.mkdir(parents=True, exist_ok=True)
        for suffix, info in meta.get("files", {}).items():
            dest = dest_dir / f"{key}.{suffix}"
            if dest.is_file() and dest.stat().st_size == info["size"] and _sha256(dest) == info["sha256"]:
                continue
            tmp = dest.with_name(f".{dest.name}.{uuid.uuid4().hex}.tmp")
            try:
                self._get_file(self.path(key, suffix, info["sha256"] if info.get("named") else None), tmp)
                if tmp.stat().st_size != info["size"] or _sha256(tmp) != info["sha256"]:
                    raise StoreError(f"{key}.{suffix} in {self.url} does not match its digest")
                os.replace(tmp, dest)
            except FileNotFoundError:
                raise StoreError(f"{key}.{suffix}: missing from the store {self.url}") from None
            finally:
                with contextlib.suppress(FileNotFoundError):
                    tmp.unlink()
        return meta

    def _get_file(self, remote: str, local: Path) -> None:
        if self.is_local:  # a hard link costs no space; the store never changes a file in place
            try:
                os.link(remote, local)
                return
            except OSError:
                # Another file system, links not allowed, or Linux's link(2) losing a race
                # with a rename over ``remote`` (it refuses an inode whose last name just
                # went: ENOENT although the path exists): copy, which opens the file and
                # fails only if it is really missing.
                pass
        self.fs.get_file(remote, str(local))

    # -- writing --------------------------------------------------------------------

    def put(self, key: str, files: dict[str, Path], meta: dict) -> dict:
        """Store ``files`` (``{"mp4": path, "srt": path}``) under ``key``, then the metadata.

        Returns the metadata as stored (``meta`` plus ``files``: size and SHA-256 of each).
        """
        record = dict(meta)
        record["files"] = {s: {"size": Path(p).stat().st_size, "sha256": _sha256(Path(p)), "named": True}
                           for s, p in files.items()}
        for suffix, local in files.items():
            remote = self.path(key, suffix, record["files"][suffix]["sha256"])
            # A name holds its content: a file already there is these bytes, and not renaming
            # over it spares a reader linking it at that moment.
            if not self._present(remote):
                self._put_file(Path(local), remote)
        data = json.dumps(record, indent=1, ensure_ascii=False).encode("utf-8")
        tmp = Path(tempfile.gettempdir()) / f".{key}.{uuid.uuid4().hex}.json"
        try:
            tmp.write_bytes(data)
            self._put_file(tmp, self.path(key, META))
        finally:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
        return record

    def _present(self, remote: str) -> bool:
        self.fs.invalidate_cache(remote.rsplit("/", 1)[0])
        return self.fs.exists(remote)

    def _put_file(self, local: Path, remote: str) -> None:
        parent = remote.rsplit("/", 1)[0]
        if self.atomic_put:
            self.fs.put_file(str(local), remote)
            return
        self.fs.makedirs(parent, exist_ok=True)
        tmp = f"{parent}/.{remote.rsplit('/', 1)[1]}.{uuid.uuid4().hex}.tmp"
        try:
            self.fs.put_file(str(local), tmp)
            self.fs.mv(tmp, remote)
        finally:
            with contextlib.suppress(FileNotFoundError):
                if self.fs.exists(tmp):
                    self.fs.rm_file(tmp)
