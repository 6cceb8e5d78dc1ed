"""Benchmark: the studio's loop, from a new sentence to its script, its first still, all stills.

Run with the project's interpreter::

    .venv/bin/python bench/bench_studio.py [--jobs 2] [--lang en] [--out DIR] [--json FILE]

Starts the studio's server (``attn-explainer studio --no-browser``, in its own process, as a
lecturer starts it), then, as the page does for a sentence it has not seen: ``POST
api/preview`` (the figures and the whole script), then ``POST api/jobs`` for the stills of
every section at preview quality (480p15), polling the job as the page does. Measures:

(a) new sentence -> its script on the page (the preview's answer; the server warm, as after
    the page's first sentence);
(b) -> the first still;
(c) -> all 25 stills.

Goals: (a) < 1 s, (b) < 10 s, (c) < 90 s. Speed is measured here, never asserted in tests.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SENTENCES = ("the dog chased the ball across the wet grass", "a lecturer types her own example here")


def post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST")
    with urllib.request.urlopen(req, timeout=600) as r:
        return json.loads(r.read())


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=600) as r:
        return json.loads(r.read())


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--lang", default="en")
    ap.add_argument("--out", default=None)
    ap.add_argument("--json", default=None)
    a = ap.parse_args(argv)
    out = Path(a.out or tempfile.mkdtemp(prefix="bench-studio-"))
    server = subprocess.Popen([sys.executable, str(ROOT / "render.py"), "studio", "--no-browser", "--out", str(out),
                               "--lang", a.lang, "--jobs", str(a.jobs)], stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        url = server.stdout.readline().strip()
        post(url + "api/preview", {"sentence": SENTENCES[0], "lang": a.lang})   # warm: the page's first sentence
        t0 = time.perf_counter()
        preview = post(url + "api/preview", {"sentence": SENTENCES[1], "lang": a.lang})
        t_script = time.perf_counter() - t0
        sections = [s["number"] for s in preview["sections"] if not s["card"]]
        job = post(url + "api/jobs", {"product": "stills", "choice": {"sentence": SENTENCES[1], "lang": a.lang},
                                      "sections": sections})
        t_first = None
        while True:
            state = get(url + f"api/jobs/{job['id']}")
            done = [e for e in state["sections"].values() if e.get("status") in ("rendered", "cached")]
            if done and t_first is None:
                t_first = time.perf_counter() - t0
            if not state["running"]:
                break
            time.sleep(0.1)
        t_all = time.perf_counter() - t0
        failed = [s for s, e in state["sections"].items() if e.get("status") == "failed"]
    finally:
        server.terminate()
        server.wait(60)
    result = {"sections": len(sections), "jobs": a.jobs, "script_s": round(t_script, 3),
              "server_preview_s": preview["seconds"], "first_still_s": round(t_first or float("nan"), 1),
              "all_stills_s": round(t_all, 1), "stills": len(done), "failed": failed}
    print(json.dumps(result, indent=1))
    if a.json:
        Path(a.json).write_text(json.dumps(result, indent=1))
    return 0 if not failed else 1


if __name__ == "__main__":
    raise SystemExit(main())
