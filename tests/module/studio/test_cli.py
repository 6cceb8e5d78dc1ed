"""``render.py studio``: bad input is one line and exit 2; Ctrl-C stops it cleanly."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
import urllib.request

import pytest

from tests.support import ROOT


def studio(*args: str, **kw) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "render.py", "studio", "--no-browser", *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, **kw)


@pytest.mark.parametrize("args, says", [
    (["--port", "70000"], "--port"),
    (["--out", "/proc/no-such/folder"], "--out"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, says):
    r = studio(*args)
    assert r.returncode == 2 and r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and says in r.stderr and "Traceback" not in r.stderr


def test_the_recorder_checks_its_port_as_the_studio_does(tmp_path):
    r = subprocess.run([sys.executable, "render.py", "record", "--port", "70000", str(tmp_path / "rec")],
                       cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and r.stdout == "" and not (tmp_path / "rec").exists()
    assert len(r.stderr.strip().splitlines()) == 1 and "--port" in r.stderr and "Traceback" not in r.stderr


def test_a_port_in_use_is_one_line_and_exit_2(tmp_path):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        r = studio("--port", str(taken.getsockname()[1]), "--out", str(tmp_path))
    assert r.returncode == 2 and len(r.stderr.strip().splitlines()) == 1 and "--port" in r.stderr


def test_ctrl_c_stops_it_cleanly(tmp_path):
    p = subprocess.Popen([sys.executable, "render.py", "studio", "--no-browser", "--out", str(tmp_path)], cwd=ROOT,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert p.stdout is not None
        url = p.stdout.readline().strip()
        with urllib.request.urlopen(url, timeout=60) as r:
            assert r.status == 200
    finally:
        p.send_signal(signal.SIGINT)
        _, err = p.communicate(timeout=60)
    assert p.returncode == 0 and "studio stopped" in err and "Traceback" not in err, err
