"""``render.py batch``: the variants file, the clip store, and batches on a real Dask cluster.

The cluster tests start ``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1
(and, for the S3 store, moto's S3 server), as a user would, and tear them down at the end.
They render the tiny fixture sections (tests/fixtures, copied to a temporary folder with two
extra sections: one that sleeps, to kill its worker mid-task, and one that fails for one
variant) at the hidden ``tiny`` quality, and one real section at preview quality for the
frame comparison with ``render``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import pickle
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.support import FIXTURES, ROOT, TESTS

sys.path.insert(0, str(ROOT))

from batch.store import ClipStore, StoreError  # noqa: E402
from batch.variants import VariantError, load_variants  # noqa: E402

BIN = Path(sys.executable).parent
# One xdist worker runs this module: the cluster and the S3 server are started once.
pytestmark = [pytest.mark.slow, pytest.mark.xdist_group("batch")]


def write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(text.encode(encoding))
    return path


# ----------------------------------------------------------------------------- variants file


def test_csv_as_a_spreadsheet_exports_it(tmp_path):
    """Byte-order mark, CRLF, quoted cells with commas and line breaks, blank rows, any column
    order and case, empty cells taking the defaults."""
    f = write(tmp_path / "class.csv",
              "\ufeffName,Lang,Sentence,Follow,Theme\r\n"
              "alice,en,the dog chased the ball and it rolled,it,dark\r\n"
              "\r\n"
              ",,,,\r\n"
              "kenji,ja,猫 が 魚 を 食べた,,light\r\n"
              'bob,en,"the cat, the dog and it",,\r\n'
              "carol,,,,\r\n")
    vs = load_variants(f)
    assert [v.name for v in vs] == ["alice", "kenji", "bob", "carol"]
    alice, kenji, bob, carol = vs
    assert (alice.lang, alice.theme, alice.head.tokens[alice.head.follow]) == ("en", "dark", "it")
    assert (kenji.lang, kenji.theme, kenji.head.tokens) == ("ja", "light", ["猫", "が", "魚", "を", "食べた"])
    assert bob.head.tokens == ["the", "cat,", "the", "dog", "and", "it"] and bob.theme == "dark"
    assert (carol.lang, carol.theme, carol.captions, carol.head) == ("ja", "dark", "burned", None)
    assert kenji.where == "class.csv row 5"  # the row a spreadsheet shows (header = row 1)


def test_csv_semicolons_tabs_and_multiline_cells(tmp_path):
    semi = write(tmp_path / "a.csv", 'name;sentence\nx1;"a b; c"\n')
    assert load_variants(semi)[0].head.tokens == ["a", "b;", "c"]
    tsv = write(tmp_path / "b.tsv", "name\tsentence\ny1\tone two\n")
    assert load_variants(tsv)[0].head.tokens == ["one", "two"]
    multi = write(tmp_path / "c.csv", 'name,sentence\nz1,"one\ntwo three"\nz2,a b\n')
    assert [v.head.tokens for v in load_variants(multi)] == [["one", "two", "three"], ["a", "b"]]


def test_toml_defaults_and_variants(tmp_path):
    spec = write(tmp_path / "specs" / "dog.toml", 'sentence = "the dog chased the ball and it rolled"\n'
                                                  'follow = "ball"\n')
    f = write(tmp_path / "course.toml", """
[defaults]
lang = "en"
theme = "light"

[[variant]]
name = "a"
sentence = "the cat sat"
follow = 1

[[variant]]
name = "b"
lang = "ja"
spec = "specs/dog.toml"
""")
    a, b = load_variants(f)
    assert (a.lang, a.theme, a.head.follow) == ("en", "light", 1)
    assert (b.lang, b.theme, b.spec) == ("ja", "light", spec.resolve())
    assert b.head.tokens[b.head.follow] == "ball"
    assert b.render_args() == ["--lang", "ja", "--theme", "light", "--captions", "burned",
                               "--spec", str(spec.resolve())]


@pytest.mark.parametrize("text, message", [
    ("name,sentence\nok,a b\nbad,one\n", "v.csv row 3 (bad): sentence: need 2 to 12 tokens, got 1"),
    ("name,sentence,lang\nok,a b,en\nx,a b,fr\n", "v.csv row 3 (x): lang 'fr' is not one of ja, en"),
    ("name,theme\nx,blue\n", "v.csv row 2 (x): theme 'blue' is not one of dark, light"),
    ("name,captions\nx,loud\n", "v.csv row 2 (x): captions 'loud' is not one of burned, srt, none"),
    ("name,sentence,follow\nx,the cat sat,dog\n", "v.csv row 2 (x): follow: 'dog' is not a token of the sentence"),
    ("name,sentence\nAlice,a b\n\nalice,c d\n",
     "v.csv row 4 (alice): name already used by v.csv row 2 (Alice); each variant gets its own folder"),
    ("name,sentence\n../up,a b\n", "v.csv row 2: name '../up' cannot be a folder name"),
    ("name,sentence\n.hidden,a b\n", "v.csv row 2: name '.hidden' cannot be a folder name"),
    ("name,sentence\nnul,a b\n", "v.csv row 2: name 'nul' cannot be a folder name"),
    ("name,sentence\nBatch.json,a b\n", "v.csv row 2: name 'Batch.json' cannot be a folder name"),
    ("name,sentence\n,a b\n", "v.csv row 2: no name"),
    ("name,sentense\nx,a b\n", "v.csv row 1: unknown column 'sentense'"),
    ("sentence\na b\n", "v.csv row 1: no 'name' column"),
    ("name,sentence\nx,a b,extra\n", "v.csv row 2: 3 cells, but the header names 2 columns"),
    ("name,spec\nx,missing.toml\n", "v.csv row 2 (x): "),
    ("name\n", "v.csv: no variants"),
])
def test_bad_rows_are_named(tmp_path, text, message):
    f = write(tmp_path / "v.csv", text)
    with pytest.raises(VariantError) as e:
        load_variants(f)
    assert str(e.value).startswith(message), str(e.value)
    assert "\n" not in str(e.value)


def test_bad_files(tmp_path):
    with pytest.raises(VariantError, match="not UTF-8 text"):
        load_variants(write(tmp_path / "sjis.csv", "name,sentence\nk,猫 が\n", encoding="shift_jis"))
    with pytest.raises(VariantError, match="unknown format"):
        load_variants(write(tmp_path / "v.xlsx", "x"))
    with pytest.raises(VariantError, match="no such file"):
        load_variants(tmp_path / "nope.csv")
    with pytest.raises(VariantError, match=r"t.toml variant 2: unknown key 'colour'"):
        load_variants(write(tmp_path / "t.toml", '[[variant]]\nname="a"\n[[variant]]\nname="b"\ncolour="red"\n'))
    with pytest.raises(VariantError, match=r"\[defaults\]: 'name' cannot have a default"):
        load_variants(write(tmp_path / "u.toml", '[defaults]\nname="a"\n[[variant]]\nsentence="a b"\n'))


# ----------------------------------------------------------------------------- clip store


def _entry(tmp_path: Path) -> dict[str, Path]:
    return {"mp4": write(tmp_path / "src" / "c.mp4", "video" * 100),
            "srt": write(tmp_path / "src" / "c.srt", "1\n00:00:00,000 --> 00:00:01,000\nhi\n")}


def test_local_store_round_trip(tmp_path):
    store = ClipStore(tmp_path / "store")
    key = "0a1b2c3d4e5f"
    assert not store.exists(key) and store.keys() == set()
    stored = store.put(key, _entry(tmp_path), {"duration": 1.0})
    assert store.exists(key) and store.keys() == {key}
    # content-addressed layout (each file named by its key and its own digest), no temporary files
    digests = {s: stored["files"][s]["sha256"][:16] for s in ("mp4", "srt")}
    assert sorted(p.name for p in (tmp_path / "store" / "0a").iterdir()) == sorted([
        f"{key}.{digests['mp4']}.mp4", f"{key}.{digests['srt']}.srt", f"{key}.json"])
    clone = pickle.loads(pickle.dumps(store))  # what a worker receives
    meta = clone.get(key, tmp_path / "got")
    assert meta == stored and meta["duration"] == 1.0
    assert (tmp_path / "got" / f"{key}.mp4").read_bytes() == (tmp_path / "src" / "c.mp4").read_bytes()
    assert meta["files"]["mp4"]["sha256"] == hashlib.sha256(b"video" * 100).hexdigest()


def test_store_entry_without_meta_does_not_exist_and_corruption_is_caught(tmp_path):
    store = ClipStore(tmp_path / "store")
    key = "ff00ff00ff00"
    (tmp_path / "store" / "ff").mkdir(parents=True)
    shutil.copy(_entry(tmp_path)["mp4"], tmp_path / "store" / "ff" / f"{key}.mp4")  # a worker died here
    assert not store.exists(key) and store.keys() == set()
    stored = store.put(key, _entry(tmp_path), {})
    Path(store.path(key, "mp4", stored["files"]["mp4"]["sha256"])).write_bytes(b"bit rot")
    with pytest.raises(StoreError, match="does not match its digest"):
        store.get(key, tmp_path / "got")
    assert not (tmp_path / "got" / f"{key}.mp4").exists()


# ----------------------------------------------------------------------------- a real cluster

PKG = "fxbatch"           # the copied fixture package (tests/fixtures + tests/batch_fixtures)
STEMS = ["01-alpha", "02-beta"]
TITLES = {"en": ["Alpha", "Beta"], "ja": ["アルファ", "ベータ"]}
CUES = {"en": ["alpha", "beta", "second"], "ja": ["アルファ", "ベータ", "二つ目"]}
CLASS_CSV = ("name,sentence,follow,lang,theme\n"
             "alice,the dog chased the ball and it rolled,it,en,dark\n"
             "kenji,猫 が 魚 を 食べた,猫,ja,light\n"
             "carol,,,en,light\n")
LANG = {"alice": "en", "kenji": "ja", "carol": "en"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def project(tmp_path_factory):
    """The fixture sections plus a slow one and a fragile one, as package ``fxbatch``."""
    base = tmp_path_factory.mktemp("batch")
    shutil.copytree(FIXTURES, base / PKG, ignore=shutil.ignore_patterns("__pycache__"))
    for f in (TESTS / "batch_fixtures").glob("*.py"):
        shutil.copy(f, base / PKG / f.name)
    (base / "marks").mkdir()
    return base


@pytest.fixture(scope="module")
def s3(tmp_path_factory):
    """moto's S3 server on 127.0.0.1 with a bucket ``clips``; yields the environment a client
    (and every worker) needs to reach it."""
    from moto.server import ThreadedMotoServer

    port = free_port()
    server = ThreadedMotoServer(ip_address="127.0.0.1", port=port, verbose=False)
    server.start()
    env = {"AWS_ACCESS_KEY_ID": "testing", "AWS_SECRET_ACCESS_KEY": "testing",
           "AWS_DEFAULT_REGION": "us-east-1", "AWS_ENDPOINT_URL": f"http://127.0.0.1:{port}"}
    import boto3

    boto3.client("s3", endpoint_url=env["AWS_ENDPOINT_URL"], aws_access_key_id="testing",
                 aws_secret_access_key="testing", region_name="us-east-1").create_bucket(Bucket="clips")
    yield env
    server.stop()


def base_env(project: Path, extra: dict | None = None) -> dict:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(project), str(ROOT)]),
           "ATTN_REGISTRY": f"{PKG}.registry_batch", "ATTN_BATCH_MARKS": str(project / "marks"), **(extra or {})}
    for k in ("ATTN_LANG", "ATTN_THEME", "ATTN_CAPTIONS", "ATTN_HEAD", "ATTN_FIXTURE_FAIL"):
        env.pop(k, None)
    return env


class Cluster:
    """``dask scheduler`` and two ``dask worker`` processes on 127.0.0.1, started as the README
    says (one process and one thread per worker)."""

    def __init__(self, base: Path, env: dict, port: int = 0):
        self.base, self.env, self.procs = base, env, []
        self.scheduler_file = base / "scheduler.json"
        self._up(port)

    def _up(self, port: int) -> None:
        self.scheduler_file.unlink(missing_ok=True)
        self._start([str(BIN / "dask"), "scheduler", "--host", "127.0.0.1", "--port", str(port),
                     "--dashboard-address", "127.0.0.1:0", "--scheduler-file", str(self.scheduler_file)], "scheduler")
        self.address = self._scheduler_address(deadline=time.monotonic() + 60)
        for i in (1, 2):
            self._start([str(BIN / "dask"), "worker", self.address, "--nworkers", "1", "--nthreads", "1",
                         "--host", "127.0.0.1", "--name", f"w{i}", "--no-dashboard",
                         "--local-directory", str(self.base / f"w{i}")], f"worker{i}")
        with self.client() as c:
            c.wait_for_workers(2, timeout=120)

    def restart(self) -> None:
        """The scheduler SIGKILLed (its workers close when they lose it, as Dask's do), then a
        new scheduler on the same address and two new workers, as a cluster manager does."""
        port = int(self.address.rsplit(":", 1)[1])
        os.killpg(self.procs[0].pid, signal.SIGKILL)
        self.stop()
        self.procs = []
        self._up(port)

    def _scheduler_address(self, deadline: float) -> str:
        """The address in the scheduler file, once the scheduler has written it whole (the
        file appears before its contents: on a busy machine it was read empty)."""
        while True:
            try:
                return json.loads(self.scheduler_file.read_text())["address"]
            except (FileNotFoundError, json.JSONDecodeError, KeyError):
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)

    def _start(self, cmd: list[str], name: str) -> None:
        log = open(self.base / f"{name}.log", "wb")
        self.procs.append(subprocess.Popen(cmd, env=self.env, stdout=log, stderr=subprocess.STDOUT,
                                           start_new_session=True))

    @contextlib.contextmanager
    def client(self):
        from distributed import Client

        c = Client(self.address, timeout=30, set_as_default=False)
        try:
            yield c
        finally:
            c.close()

    def stop(self) -> None:
        for p in reversed(self.procs):  # workers first, then the scheduler; each with its children
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGTERM)
        for p in reversed(self.procs):
            try:
                p.wait(15)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(p.pid, signal.SIGKILL)
                p.wait(5)
        for p in self.procs:  # anything left in the process groups (render processes)
            with contextlib.suppress(ProcessLookupError):
                os.killpg(p.pid, signal.SIGKILL)


@pytest.fixture(scope="module")
def cluster(project, s3, tmp_path_factory):
    # Workers started with what the README says: non-daemonic (they fork render processes), the
    # store's credentials and endpoint in their environment.
    env = base_env(project, {**s3, "DASK_DISTRIBUTED__WORKER__DAEMON": "False"})
    c = Cluster(tmp_path_factory.mktemp("cluster"), env)
    yield c
    c.stop()


def batch(project: Path, *args: str, env: dict | None = None, rc: int | None = 0) -> subprocess.CompletedProcess:
    p = subprocess.run([sys.executable, str(ROOT / "render.py"), "batch", *args], env=base_env(project, env),
                       capture_output=True, text=True, timeout=300)
    if rc is not None:
        assert p.returncode == rc, p.stdout + p.stderr
    return p


def render_variant(project: Path, out: Path, *args: str) -> None:
    p = subprocess.run([sys.executable, str(ROOT / "render.py"), "render", "--quality", "tiny", "--jobs", "1",
                        "--out", str(out), *args], env=base_env(project), capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr


def frames(path: Path) -> list:
    import av

    with av.open(str(path)) as c:
        return [f.to_ndarray(format="rgb24") for f in c.decode(video=0)]


def check_variant(folder: Path, lang: str, stems: list[str] = STEMS) -> None:
    """Streams, chapters, subtitles and clips of one variant's folder, read with PyAV and srt."""
    import av
    import srt

    mp4 = folder / "explainer.mp4"
    clip_frames, clip_seconds = 0, []
    for stem in stems:
        with av.open(str(folder / "clips" / f"{stem}.mp4")) as c:
            clip_frames += sum(1 for _ in c.decode(video=0))
            clip_seconds.append(c.duration / 1e6)
    with av.open(str(mp4)) as c:
        v = c.streams.video[0]
        assert (v.codec_context.name, v.codec_context.width, v.codec_context.height) == ("h264", 128, 72)
        assert len(c.streams.video) == 1 and not c.streams.audio  # (the other stream holds the chapters)
        chapters = c.chapters()
        n = sum(1 for _ in c.decode(video=0))
        duration = c.duration / 1e6
    assert n == clip_frames and abs(duration - sum(clip_seconds)) <= 0.2
    assert [ch["metadata"]["title"] for ch in chapters] == TITLES[lang][: len(stems)]
    starts = [float(ch["start"] * ch["time_base"]) for ch in chapters]
    assert abs(starts[1] - clip_seconds[0]) < 0.01
    cues = list(srt.parse((folder / "explainer.srt").read_text(encoding="utf-8")))
    assert [q.content for q in cues] == CUES[lang]
    assert abs(cues[1].start.total_seconds() - clip_seconds[0]) < 0.01  # shifted to section 2's start
    assert all(q.end.total_seconds() <= duration + 1e-6 for q in cues)
    for stem in stems:
        assert (folder / "clips" / f"{stem}.srt").is_file()


def test_batch_on_a_cluster_equals_render(project, cluster, tmp_path):
    """Three variants (one Japanese) x two sections on the scheduler + 2 workers: every output
    checked, and the frames equal ``render`` of the same variant."""
    csv = write(tmp_path / "class.csv", CLASS_CSV)
    out = tmp_path / "out"
    p = batch(project, str(csv), "--scheduler", cluster.address, "--out", str(out), "--quality", "tiny",
              "--sections", "1-2")
    assert "3 variants x 2 sections: 6 clips, 0 in the store" in p.stderr
    assert "3 of 3 variants written; clips: 6 rendered, 0 from the store, 0 failed" in p.stderr
    assert [ln.split(":")[0] for ln in p.stderr.splitlines() if ln.startswith("✓")] == ["✓ alice", "✓ kenji", "✓ carol"]
    for v in load_variants(csv):
        folder = out / v.name
        check_variant(folder, LANG[v.name])
        render_variant(project, tmp_path / "render" / v.name, "--sections", "1-2", *v.render_args())
        got, want = frames(folder / "explainer.mp4"), frames(tmp_path / "render" / v.name / "explainer.mp4")
        assert len(got) == len(want) and all((a == b).all() for a, b in zip(got, want)), v.name
        assert (folder / "explainer.srt").read_text() == (tmp_path / "render" / v.name / "explainer.srt").read_text()
    # the comparison can fail: variants differ (dark vs light, English vs Japanese captions)
    assert not (frames(out / "alice" / "explainer.mp4")[0] == frames(out / "carol" / "explainer.mp4")[0]).all()
    # a variant's stepped deck is cut from its stored clips at their stored beats: nothing renders
    alice = next(v for v in load_variants(csv) if v.name == "alice")
    deck = subprocess.run([sys.executable, str(ROOT / "render.py"), "slides", "--quality", "tiny", "--sections", "1-2",
                           "--format", "html", "--out", str(out / "alice"), *alice.render_args()],
                          env=base_env(project), capture_output=True, text=True, timeout=300)
    assert deck.returncode == 0 and "0 rendered, 2 cached" in deck.stderr, deck.stdout + deck.stderr
    assert sorted((out / "alice" / "slides" / "media").glob("*.b01.mp4"))
    # a second run renders nothing and rewrites nothing
    before = {f: f.stat().st_mtime_ns for f in out.glob("*/explainer.*")}
    p = batch(project, str(csv), "--scheduler", cluster.address, "--out", str(out), "--quality", "tiny",
              "--sections", "1-2")
    assert "6 clips, 6 in the store" in p.stderr and "0 rendered, 6 from the store" in p.stderr
    assert {f: f.stat().st_mtime_ns for f in out.glob("*/explainer.*")} == before


def test_store_on_s3(project, cluster, s3, tmp_path):
    """The same batch with the store in S3 (moto's server): workers put, the client gets."""
    import boto3

    csv = write(tmp_path / "class.csv", CLASS_CSV)
    out = tmp_path / "out"
    args = [str(csv), "--scheduler", cluster.address, "--out", str(out), "--quality", "tiny", "--sections", "1-2",
            "--cache", "s3://clips/course"]
    p = batch(project, *args, env=s3)
    assert "in the store s3://clips/course" in p.stderr and "6 rendered" in p.stderr
    for name, lang in LANG.items():
        check_variant(out / name, lang)
    s3c = boto3.client("s3", endpoint_url=s3["AWS_ENDPOINT_URL"], aws_access_key_id="testing",
                       aws_secret_access_key="testing", region_name="us-east-1")
    objects = [o["Key"] for o in s3c.list_objects_v2(Bucket="clips", Prefix="course/")["Contents"]]
    # per clip: the metadata, the video, its caption beats (where a stepped deck stops), its
    # .srt, and each language's .srt and .vtt
    names = sorted("".join(Path(k).suffixes[-2:]) if Path(k).suffixes[-2:-1] in ([".ja"], [".en"])
                   else Path(k).suffix for k in objects)
    assert names == sorted([".json", ".mp4", ".beats", ".srt", ".ja.srt", ".ja.vtt", ".en.srt", ".en.vtt"] * 6)
    assert not (out / ".cache" / "store").exists()  # nothing went to the default local store
    # the clips in out/ are the stored objects, byte for byte
    key = json.loads((out / "kenji" / "manifest.json").read_text())["clips"]["02-beta"]["hash"]
    (name,) = [k for k in objects if k.startswith(f"course/{key[:2]}/{key}.") and k.endswith(".mp4")]
    body = s3c.get_object(Bucket="clips", Key=name)["Body"].read()
    assert body == (out / "kenji" / "clips" / "02-beta.mp4").read_bytes()
    # a fresh output folder on the same store: everything comes from S3
    p = batch(project, *[a if a != str(out) else str(tmp_path / "again") for a in args], env=s3)
    assert "0 rendered, 6 from the store" in p.stderr
    check_variant(tmp_path / "again" / "kenji", "ja")


def alive(pid: int) -> bool:
    """True if ``pid`` runs (a zombie waiting for a reaper has finished running)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except FileNotFoundError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def marks(project: Path) -> list[Path]:
    return sorted((project / "marks").glob("04-slow.[0-9]*[0-9]"))


def done_marks(project: Path) -> list[Path]:
    return sorted((project / "marks").glob("04-slow.*.done"))


def test_worker_killed_mid_task(project, cluster, tmp_path):
    """SIGKILL the worker running a section: the scheduler runs the task on the other worker,
    the batch completes, and the killed render process does not outlive its worker."""
    for m in (project / "marks").iterdir():
        m.unlink()
    csv = write(tmp_path / "one.csv", "name,lang\nslowpoke,en\n")
    out = tmp_path / "out"
    proc = subprocess.Popen([sys.executable, str(ROOT / "render.py"), "batch", str(csv), "--scheduler",
                             cluster.address, "--out", str(out), "--quality", "tiny", "--sections", "4"],
                            env=base_env(project), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while not marks(project) and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        assert marks(project), "the slow section never started"
        first_render = int(marks(project)[0].suffix[1:])
        with cluster.client() as c:
            busy = [w for w, keys in c.processing().items() if keys]
            assert len(busy) == 1
            pid = c.run(os.getpid, workers=busy)[busy[0]]
        os.kill(pid, signal.SIGKILL)
        stdout, stderr = proc.communicate(timeout=180)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, stderr
    assert "1 of 1 variants written" in stderr
    started, finished = marks(project), done_marks(project)
    assert len(started) == 2 and len(finished) == 1  # it ran again, to the end
    # the killed worker's render process died with it (when its forkserver exited), unfinished
    assert not alive(first_render) and finished[0].name != f"04-slow.{first_render}.done"
    check_stream = frames(out / "slowpoke" / "explainer.mp4")
    assert len(check_stream) == 3  # 0.6 s at 5 fps


@pytest.mark.parametrize("shared", [False, True], ids=["eighteen-clips", "four-shared-clips"])
def test_workers_killed_again_and_again_through_a_batch(project, cluster, tmp_path, shared):
    """Nine variants while a busy worker is SIGKILLed every second (its nanny starts it
    again), up to five times: every variant is written whole, each clip in the store matches
    its digests, and the cluster is back to two workers. With nine sentences each variant has
    clips of its own; with one sentence the nine share four clips, so the same clip's workers
    die again and again (the slow fixture section, 4 s, is among them) until Dask gives it up
    (``KilledWorker``) and the batch asks for it again."""
    import random
    import threading

    from batch.store import ClipStore

    nouns = ("cat", "dog", "bird", "fish", "tree", "car", "book", "river", "moon")
    rows = "".join(f"v{i},the {'cat' if shared else noun} saw it,{'ja' if i % 3 == 0 else 'en'}\n"
                   for i, noun in enumerate(nouns))
    csv = write(tmp_path / "nine.csv", "name,sentence,lang\n" + rows)
    out, store = tmp_path / "out", tmp_path / "store"
    proc = subprocess.Popen([sys.executable, str(ROOT / "render.py"), "batch", str(csv), "--scheduler",
                             cluster.address, "--out", str(out), "--cache", str(store), "--quality", "tiny",
                             "--sections", "1-2,4" if shared else "1-2"], env=base_env(project),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    kills: list[int] = []
    rng = random.Random(3841)

    def killer() -> None:
        while len(kills) < 5 and proc.poll() is None:
            time.sleep(0.6 if shared else 1.0)
            with contextlib.suppress(Exception), cluster.client() as c:
                busy = [w for w, keys in c.processing().items() if keys]
                if busy:
                    pid = c.run(os.getpid, workers=[rng.choice(busy)])
                    victim = next(iter(pid.values()))
                    os.kill(victim, signal.SIGKILL)
                    kills.append(victim)

    thread = threading.Thread(target=killer, daemon=True)
    thread.start()
    try:
        stdout, stderr = proc.communicate(timeout=400)
    finally:
        if proc.poll() is None:
            proc.kill()
        thread.join(30)
    assert len(kills) >= (2 if shared else 3), f"only {len(kills)} kills: the batch outran the killer"
    assert proc.returncode == 0, stderr
    assert "9 of 9 variants written" in stderr, stderr
    for i in range(9):
        if shared:   # the slow section's chapter has no title of the fixture's: the streams alone
            clip_frames = sum(len(frames(out / f"v{i}" / "clips" / f"{stem}.mp4")) for stem in (*STEMS, "04-slow"))
            assert len(frames(out / f"v{i}" / "explainer.mp4")) == clip_frames
        else:
            check_variant(out / f"v{i}", "ja" if i % 3 == 0 else "en")
    clips = ClipStore(store)
    assert len(clips.keys()) == (6 if shared else 18)   # three sections in two languages, or two of nine sentences
    for key in clips.keys():
        clips.get(key, tmp_path / "check")   # raises if a file does not match its digest
    with cluster.client() as c:
        c.wait_for_workers(2, timeout=120)


def test_scheduler_restarted_mid_batch(project, tmp_path_factory, tmp_path):
    """The scheduler SIGKILLed while a 9-variant batch runs, then started again on the same
    address with new workers: the batch waits for it, asks again for the clips it lost, and
    writes every variant (no traceback); the store holds each clip once, whole."""
    from batch.store import ClipStore

    with socket.socket() as s:   # a free port the restarted scheduler can take again
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    cluster = Cluster(tmp_path_factory.mktemp("restarted"), base_env(project, {"DASK_DISTRIBUTED__WORKER__DAEMON": "False"}),
                      port=port)
    try:
        nouns = ("cat", "dog", "bird", "fish", "tree", "car", "book", "river", "moon")
        csv = write(tmp_path / "nine.csv", "name,sentence,lang\n" + "".join(
            f"v{i},the {noun} saw it,en\n" for i, noun in enumerate(nouns)))
        out, store = tmp_path / "out", tmp_path / "store"
        proc = subprocess.Popen([sys.executable, str(ROOT / "render.py"), "batch", str(csv), "--scheduler",
                                 cluster.address, "--out", str(out), "--cache", str(store), "--quality", "tiny",
                                 "--sections", "1-2"], env=base_env(project), stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while not ClipStore(store).keys() and time.monotonic() < deadline and proc.poll() is None:
            time.sleep(0.1)
        assert proc.poll() is None, "the batch ended before the scheduler could be restarted"
        cluster.restart()
        _, stderr = proc.communicate(timeout=400)
    finally:
        if proc.poll() is None:
            proc.kill()
        cluster.stop()
    assert proc.returncode == 0 and "Traceback" not in stderr, stderr
    assert "9 of 9 variants written" in stderr, stderr
    for i in range(9):
        check_variant(out / f"v{i}", "en")
    clips = ClipStore(store)
    assert len(clips.keys()) == 18
    for key in clips.keys():
        clips.get(key, tmp_path / "check")


def test_failing_section_fails_its_variant_only(project, cluster, tmp_path):
    csv = write(tmp_path / "v.csv", "name,sentence,lang\nfine,the cat sat,en\nboomer,boom goes the cat,en\n")
    out = tmp_path / "out"
    p = batch(project, str(csv), "--scheduler", cluster.address, "--out", str(out), "--quality", "tiny",
              "--sections", "1,5", rc=1)
    assert (out / "fine" / "explainer.mp4").is_file()
    assert not (out / "boomer" / "explainer.mp4").exists()
    assert "✗ boomer: 05-fragile: RuntimeError: the fragile fixture breaks on 'boom'" in p.stderr
    assert "1 of 2 variants written" in p.stderr
    assert "FAILED boomer (v.csv row 3): 05-fragile: RuntimeError: the fragile fixture breaks on 'boom'" in p.stderr
    log = (out / "boomer" / ".cache" / "logs" / "05-fragile.clip.log").read_text()
    assert "Traceback" in log and "fragile fixture breaks" in log


def test_bad_row_stops_the_batch_before_anything(project, tmp_path):
    csv = write(tmp_path / "v.csv", "name,sentence,lang\nok,the cat sat,en\nx,the cat sat,klingon\n")
    out = tmp_path / "out"
    p = batch(project, str(csv), "--out", str(out), "--quality", "tiny", rc=2)
    assert p.stderr.strip() == "render.py: error: v.csv row 3 (x): lang 'klingon' is not one of ja, en"
    assert not out.exists()
    # the same with a previous batch's output in place: nothing of it changes
    write(out / "ok" / "explainer.mp4", "an earlier render")
    batch(project, str(csv), "--out", str(out), "--quality", "tiny", rc=2)
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == ["ok", "ok/explainer.mp4"]
    assert (out / "ok" / "explainer.mp4").read_text() == "an earlier render"


@pytest.mark.parametrize("args, message", [
    (["--scheduler", "tcp://127.0.0.1:9"], "--scheduler tcp://127.0.0.1:9: cannot connect"),
    (["--cache", "nosuch://bucket/x"], "--cache nosuch://bucket/x: Protocol not known: nosuch"),
    (["--sections", "9"], "--sections: unknown section 9"),
])
def test_bad_options_exit_2(project, tmp_path, args, message):
    csv = write(tmp_path / "v.csv", "name\nok\n")
    p = batch(project, str(csv), "--out", str(tmp_path / "out"), "--quality", "tiny", *args, rc=2)
    assert p.stderr.startswith(f"render.py: error: {message}") and len(p.stderr.splitlines()) == 1
    assert not [d for d in (tmp_path / "out").glob("*") if d.name != ".cache"]  # no variant folder


def test_interrupted_batch_resumes_from_the_store(project, cluster, tmp_path):
    """Ctrl-C while sections render: exit 130, nothing stitched; the re-run takes every clip
    that reached the store from there and renders only the rest."""
    for m in (project / "marks").iterdir():
        m.unlink()
    csv = write(tmp_path / "two.csv", "name,lang\nearly,en\nlate,ja\n")
    out = tmp_path / "out"
    args = [str(csv), "--scheduler", cluster.address, "--out", str(out), "--quality", "tiny", "--sections", "1,4"]
    proc = subprocess.Popen([sys.executable, str(ROOT / "render.py"), "batch", *args], env=base_env(project),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    store = out / ".cache" / "store"
    try:
        deadline = time.monotonic() + 120
        while not (marks(project) and list(store.glob("*/*.json"))) and time.monotonic() < deadline:
            time.sleep(0.1)
        proc.send_signal(signal.SIGINT)
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr
    assert "interrupted" in stderr.splitlines()[-1]
    assert not list(out.glob("*/explainer.mp4"))
    stored = len(list(store.glob("*/*.json")))
    assert 1 <= stored < 4
    p = batch(project, *args)
    got = int(p.stderr.split(" in the store")[0].rsplit(",", 1)[1])
    assert got >= stored and f"{4 - got} rendered, {got} from the store" in p.stderr
    assert "2 of 2 variants written" in p.stderr


def test_local_cluster_real_section_equals_render(project, tmp_path):
    """The default in-process LocalCluster, a real section (13) for a Japanese sentence:
    the same frames as ``render``."""
    csv = write(tmp_path / "ja.toml", '[defaults]\nlang = "ja"\n\n[[variant]]\nname = "neko"\n'
                                      'sentence = "猫 が 魚 を 食べた"\nfollow = "猫"\n')
    out = tmp_path / "out"
    real = {"ATTN_REGISTRY": "scenes.registry"}
    p = batch(project, str(csv), "--workers", "1", "--out", str(out), "--quality", "tiny", "--sections", "13",
              env=real)
    assert "cluster: tcp://127.0.0.1:" in p.stderr and "(1 workers)" in p.stderr
    (v,) = load_variants(csv)
    r = subprocess.run([sys.executable, str(ROOT / "render.py"), "render", "--quality", "tiny", "--out",
                        str(tmp_path / "render"), "--sections", "13", *v.render_args()],
                       env=base_env(project, real), capture_output=True, text=True, timeout=300)
    assert r.returncode == 0, r.stderr
    got, want = frames(out / "neko" / "explainer.mp4"), frames(tmp_path / "render" / "explainer.mp4")
    assert len(got) == len(want) > 100 and all((a == b).all() for a, b in zip(got, want))
    assert len({a.tobytes() for a in got[::10]}) > 3  # the section moves: frames differ among themselves
