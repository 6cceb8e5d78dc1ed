"""The studio's API and the recorder under hostile requests, on the real servers and sockets
(loopback only; every loop is bounded and every server stopped).

Refused: a request without the token, with another ``Host``, sent by another page (its
``Origin``, or the browser's ``Sec-Fetch-Site``), a cross-site POST that would start a
render; a path out of the output folder; a body larger than the limit, by its
``Content-Length``, before a byte of it is read. Malformed JSON and fields of the wrong
type in every route: 400 with a message, never a 500, never a traceback (hypothesis fuzzes
every route's fields). 50 clients at once: each gets its own answer, the last preview
wins, no thread is left running, memory stays bounded.
"""

from __future__ import annotations

import json
import os
import socket
import threading
import time
import urllib.parse
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.faults.harness import cases_wanted
from tests.module.studio.support import running_studio

pytestmark = [pytest.mark.slow]

#: Every answer a hostile request may get; 500 is not among them.
FINE = {200, 400, 403, 404, 413, 421, 507}
#: The POST routes and the fields each reads (studio.server.ROUTES).
POST_FIELDS = {
    "api/preview": ("sentence", "follow", "lang", "theme", "voice", "both"),
    "api/words/check": ("text", "lang"),
    "api/words": ("lang", "section", "key", "text"),
    "api/jobs": ("product", "choice", "sections", "quality", "narration", "recordings"),
    "api/jobs/1/cancel": (),
    "api/batch": ("name", "text", "sections", "quality"),
    "api/say": ("lang", "voice", "text", "section", "beat"),
    "api/recorder": ("lang",),
    "api/recordings": ("ids",),
}
SENTENCES = ["the cat sat on the mat", "a dog ran far away", "she said it was warm",
             "we saw the red kite", "my old car broke down"]


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    out = tmp_path_factory.mktemp("studio-attack")
    (out.parent / "secret.txt").write_text("outside the output folder", encoding="utf-8")
    (out / "escape").symlink_to(out.parent)
    with running_studio(out) as server:
        yield server


def send(server, method: str, route: str, body: bytes | None = None, headers: dict | None = None) -> tuple[int, bytes]:
    """One request on a socket of our own (any header, any body, any path)."""
    port = server.httpd.server_address[1]
    head = {"Host": f"127.0.0.1:{port}", "Connection": "close", **(headers or {})}
    if body is not None and "Content-Length" not in head:
        head["Content-Length"] = str(len(body))
    path = route if route.startswith("/") else f"/{server.token}/{route}"
    req = f"{method} {path} HTTP/1.1\r\n" + "".join(f"{k}: {v}\r\n" for k, v in head.items()) + "\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=30) as s:
        s.sendall(req.encode("latin-1") + (body or b""))
        data = b""
        while chunk := s.recv(65536):
            data += chunk
    status = int(data.split(b" ", 2)[1])
    return status, data.split(b"\r\n\r\n", 1)[1]


def test_requests_from_elsewhere_are_refused(studio):
    port = studio.httpd.server_address[1]
    ok = json.dumps({"product": "stills", "choice": {"sentence": SENTENCES[0]}}).encode()
    assert send(studio, "GET", "/")[0] == 404                                   # no token
    assert send(studio, "GET", "/" + "x" * len(studio.token) + "/api/state")[0] == 404
    assert send(studio, "GET", "api/state", headers={"Host": f"localhost:{port}"})[0] == 421
    assert send(studio, "GET", "api/state", headers={"Host": "evil.example"})[0] == 421
    for headers in ({"Origin": "https://evil.example"}, {"Origin": f"http://localhost:{port}"},
                    {"Origin": "null"}, {"Sec-Fetch-Site": "cross-site"}, {"Sec-Fetch-Site": "same-site"}):
        code, _ = send(studio, "POST", "api/jobs", ok, headers=headers)
        assert code == 403, headers
    assert not studio.jobs.by_id, "a refused POST started a render"
    # the page itself (same origin) is answered
    code, _ = send(studio, "POST", "api/words/check", b'{"text": "hi"}',
                   headers={"Origin": f"http://127.0.0.1:{port}", "Sec-Fetch-Site": "same-origin"})
    assert code == 200


@pytest.mark.parametrize("path", [
    "files/../../secret.txt", "files/..%2f..%2fsecret.txt", "files/%2e%2e/secret.txt",
    "files/escape/secret.txt", "files//etc/passwd", "files/%00", "files/.studio/logs",
    "static/../server.py", "static/%2e%2e%2fserver.py",
])
def test_no_path_leaves_the_output_folder(studio, path):
    code, body = send(studio, "GET", path)
    assert code in (400, 404) and b"outside" not in body


def test_a_huge_upload_is_refused_before_it_is_read(studio, tmp_path):
    """1 GB announced, not a byte sent: the answer comes at once (413), the connection closes."""
    port = studio.httpd.server_address[1]
    for route, method in ((f"/{studio.token}/api/preview", "POST"),):
        head = (f"{method} {route} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                f"Content-Length: {1 << 30}\r\n\r\n").encode()
        t0 = time.monotonic()
        with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
            s.sendall(head)
            answer = s.recv(65536)
        assert answer.split(b" ", 2)[1] == b"413" and time.monotonic() - t0 < 5
    for length in ("-5", "12abc", "9" * 40, ""):
        assert send(studio, "POST", "api/preview", b"{}", headers={"Content-Length": length})[0] in (400, 413)
    # the recorder: a take of 1 GB, then a take that says more than it sends
    from narration.recorder import RecorderServer

    rec = RecorderServer(tmp_path / "takes", [{"id": "s01-a", "text": "x", "section": 1, "beat": "a"}], "en").start()
    try:
        rport = rec.httpd.server_address[1]
        head = (f"PUT /{rec.token}/take/s01-a.wav HTTP/1.1\r\nHost: 127.0.0.1:{rport}\r\n"
                f"Content-Length: {1 << 30}\r\n\r\n").encode()
        t0 = time.monotonic()
        with socket.create_connection(("127.0.0.1", rport), timeout=10) as s:
            s.sendall(head)
            answer = s.recv(65536)
        assert answer.split(b" ", 2)[1] == b"413" and time.monotonic() - t0 < 5
        assert send(rec, "PUT", f"/{rec.token}/take/s01-a.wav", b"RIFF",
                    headers={"Origin": "https://evil.example"})[0] == 403
        assert send(rec, "PUT", f"/{rec.token}/take/s01-a.wav", b"RIFF", headers={"Content-Length": "x"})[0] == 413
        assert not list((tmp_path / "takes").iterdir())
    finally:
        rec.stop()


MALFORMED = [b"{", b"[]", b"null", b'"text"', b"\xff\xfe{}", b"[" * 100_000,
             b'{"lang": ' + b"9" * 5000 + b"}", b"{}" * 3]


@pytest.mark.parametrize("route", sorted(POST_FIELDS))
def test_malformed_json_is_a_400_with_a_message(studio, route, capfd):
    for body in MALFORMED:
        code, answer = send(studio, "POST", route, body)
        assert code in (400, 404), (route, body[:20], code)
        if code == 400:
            assert json.loads(answer)["error"]
    assert "Traceback" not in capfd.readouterr().err


def json_values():
    scalars = (st.none() | st.booleans() | st.integers() | st.integers(min_value=10**18)
               | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=40)
               | st.sampled_from(["", "en", "ja", "dark", "1", "-1", "..", "../..", "\x00", "\u202e", "1,2,999"]))
    return st.recursive(scalars, lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=6), c, max_size=3),
                        max_leaves=6)


def body_for(route: str):
    fields = POST_FIELDS[route]
    body = st.dictionaries(st.sampled_from(fields), json_values(), max_size=len(fields)) if fields else st.just({})
    if route == "api/jobs":    # never a real product: a fuzz case must not start a render
        body = body.map(lambda b: {**b, "product": str(b.get("product")) + "?"})
    if route == "api/say":     # never an installed voice: a fuzz case must not synthesise
        body = body.map(lambda b: {**b, "voice": "no-such-voice"})
    if route == "api/batch":   # never a batch that loads
        body = body.map(lambda b: {**b, "text": "not,a\nbatch"})
    return body


@settings(max_examples=cases_wanted(60), deadline=None, derandomize=True,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.data())
def test_fuzzed_fields_never_fail_the_server(studio, capfd, data):
    route = data.draw(st.sampled_from(sorted(POST_FIELDS)))
    body = data.draw(body_for(route))
    code, answer = send(studio, "POST", route, json.dumps(body, allow_nan=True).encode())
    assert code in FINE, (route, body, code, answer[:200])
    if code == 400:
        assert json.loads(answer)["error"]
    path = data.draw(st.lists(st.text(max_size=12), max_size=3))
    get = "/".join(urllib.parse.quote(p, safe="") for p in path)
    for prefix in ("files/", "api/jobs/", "static/"):
        code, answer = send(studio, "GET", prefix + get)
        assert code in FINE and b"outside the output folder" not in answer, (prefix + get, code)
    assert "Traceback" not in capfd.readouterr().err


def rss_kb() -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def test_fifty_clients_at_once(studio):
    """50 clients typing: each answer is its own sentence's, the last preview is the one
    the server keeps, no thread is left, memory stays bounded (three rounds)."""
    threads_before = threading.active_count()
    rss = []
    for round_ in range(3):
        answers: dict[int, tuple[int, dict]] = {}

        def client(i: int, answers: dict = answers) -> None:
            words = SENTENCES[i % len(SENTENCES)].split()
            sentence = " ".join(words[: 2 + i % (len(words) - 1)])
            code, body = send(studio, "POST", "api/preview", json.dumps(
                {"sentence": sentence, "lang": "en"}).encode())
            answers[i] = (code, json.loads(body) | {"asked": sentence})

        clients = [threading.Thread(target=client, args=(i,)) for i in range(50)]
        for c in clients:
            c.start()
        for c in clients:
            c.join(60)
        assert len(answers) == 50
        for code, body in answers.values():
            assert code == 200, body
            assert body["sentence"] == body["asked"]
        # the last answered is the one kept (the page's script)
        code, last = send(studio, "POST", "api/preview", json.dumps({"sentence": SENTENCES[round_], "lang": "en"}).encode())
        assert studio.last_script == json.loads(last)["script"]
        rss.append(rss_kb())
    deadline = time.monotonic() + 10
    while threading.active_count() > threads_before and time.monotonic() < deadline:
        time.sleep(0.05)
    assert threading.active_count() <= threads_before, [t.name for t in threading.enumerate()]
    assert rss[-1] - rss[0] < 50_000, f"memory grew {rss[-1] - rss[0]} KB over two rounds of 50 clients"


def test_the_latest_preview_render_wins(studio, monkeypatch):
    """10 preview renders asked for at once: each cancels the one before; only the last
    is left running, none is left behind."""
    monkeypatch.setenv("ATTN_REGISTRY", "tests.fixtures.registry")
    results = []

    def ask(i: int) -> None:
        results.append(send(studio, "POST", "api/jobs", json.dumps(
            {"product": "stills", "quality": "tiny", "choice": {"sentence": SENTENCES[i % 5], "lang": "en"}}).encode()))

    clients = [threading.Thread(target=ask, args=(i,)) for i in range(10)]
    for c in clients:
        c.start()
    for c in clients:
        c.join(120)
    assert [code for code, _ in results] == [200] * 10
    jobs = sorted(studio.jobs.by_id.values(), key=lambda j: j.number)[-10:]
    assert all(j.cancelled or not j.running for j in jobs[:-1])
    assert sum(j.running for j in jobs) <= 1
    jobs[-1].cancel()
    for j in jobs:
        assert j.wait(30) is not None
    assert not [p for p in Path("/tmp").glob("attn-studio-job-*.json") if str(os.getpid()) in p.name]
