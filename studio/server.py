"""The studio's HTTP server: loopback only, the ``Host`` checked, a session token in the path.

As the recorder (:mod:`narration.recorder`): a ``ThreadingHTTPServer`` on ``127.0.0.1``
that answers only requests whose ``Host`` is the address it listens on (no DNS rebinding)
and only under ``/<token>/``. The page, its script and its style are package data
(``studio/page/``); nothing is fetched from elsewhere.

Routes (:data:`ROUTES`, under ``/<token>/``): ``GET /`` the page, ``GET static/NAME`` its
script and style, ``GET api/state`` the session, ``POST api/preview`` a choice's figures and
script, ``POST api/words/check`` a text's pacing, ``POST api/words`` save an edit,
``POST api/jobs`` start a render, ``GET api/jobs/N`` its state, ``POST api/jobs/N/cancel``,
``POST api/batch`` render a batch file, ``POST api/say`` a cue spoken in the chosen voice (WAV), ``POST api/recorder`` the
recorder's page for the current cues, ``POST api/recordings`` which cues lack a take,
``GET files/PATH`` a file of the output folder.
"""

from __future__ import annotations

import http.server
import importlib.resources
import json
import mimetypes
import re
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from narration.loopback import LoopbackServer, content_length
from pipeline.files import DiskFull, atomic_write, is_disk_full
from pipeline.options import HIDDEN_QUALITIES, QUALITIES, BadInput
from pipeline.run_setup import choose_sections

from .choice import Choice
from .jobs import Jobs
from .wording import Wording, pacing

if TYPE_CHECKING:
    from narration.recorder import RecorderServer

__all__ = ["Route", "ROUTES", "StudioServer", "MAX_BODY_BYTES", "PAGE_FILES"]

#: The largest request body accepted (a sentence, a cue's words).
MAX_BODY_BYTES = 1024 * 1024
#: The page's files (``studio/page/``), by the name the page asks for.
PAGE_FILES = {"studio.js": "text/javascript; charset=utf-8", "studio.css": "text/css; charset=utf-8"}
#: Where the lecturer's takes go, under the output folder.
RECORDINGS = "recordings"
#: Seconds a connection may stay silent before its thread gives up on it.
REQUEST_TIMEOUT = 30
#: What a refused request is told, by status (LoopbackServer.admit).
REFUSED = {421: b"wrong host", 403: b"not from this page", 404: b"not found"}


def _quality(name: str | None) -> str | None:
    """``name`` if the pipeline has that quality (None: the product's own), else the CLI's line."""
    if name is not None and name not in {**QUALITIES, **HIDDEN_QUALITIES}:
        raise BadInput(f"--quality: {name!r} is not one of {', '.join(QUALITIES)}")
    return name


class Reply:
    """An answer: status, body, content type."""

    def __init__(self, body: bytes, ctype: str, code: int = 200):
        self.body, self.ctype, self.code = body, ctype, code

    @classmethod
    def json(cls, data, code: int = 200) -> Reply:
        return cls(json.dumps(data, ensure_ascii=False).encode("utf-8"), "application/json; charset=utf-8", code)


class StudioServer(LoopbackServer):
    """The studio's server, writing into ``out``.

    Parameters
    ----------
    out
        The output folder (``--out``): the explainer, slides, ``captions.toml``,
        ``recordings/``, and ``preview/`` (stills and clips at preview quality).
    lang
        The page's first language (``--lang``).
    port
        The port on 127.0.0.1 (0: any free port).
    jobs
        Sections rendered in parallel by each render.
    stills
        How many sections the page renders stills of, from the first (None: all; a test or
        a screenshot renders a few, or none).
    spares
        Keep a job process ready for the next preview (:class:`studio.jobs.Spare`).
    """

    def __init__(self, out: Path, lang: str = "ja", port: int = 0, jobs: int = 1, stills: int | None = None,
                 spares: bool = True):
        self.out = Path(out).resolve()
        self.out.mkdir(parents=True, exist_ok=True)
        self.lang = lang
        self.parallel = jobs
        self.stills = stills
        self.wording = Wording(self.out)
        self.wording.use()
        self.jobs = Jobs(self.out / ".studio" / "logs", spares=spares)
        self.requests: list[str] = []   # every path asked for (the tests read it)
        self.recorder: RecorderServer | None = None
        self.last_script: list[dict] = []
        super().__init__(port)

    def stop(self) -> None:
        """Stop serving, cancel running renders, stop the recorder."""
        super().stop()
        self.jobs.stop_all()
        if self.recorder is not None:
            self.recorder.stop()

    # ------------------------------------------------------------------ the API

    def page(self, _args, _body) -> Reply:
        html = importlib.resources.files("studio.page").joinpath("index.html").read_bytes()
        return Reply(html.replace(b"{{lang}}", self.lang.encode()), "text/html; charset=utf-8")

    def static(self, args, _body) -> Reply:
        name = args[0] if args else ""
        if name not in PAGE_FILES:
            return Reply(b"not found", "text/plain", 404)
        return Reply(importlib.resources.files("studio.page").joinpath(name).read_bytes(), PAGE_FILES[name])

    def state(self, _args, _body) -> Reply:
        from narration.voices import listing
        from slides.formats import files

        # the voices and the deck's files are the tables' (narration.voices, slides.formats)
        return Reply.json({"lang": self.lang, "out": str(self.out), "voices": listing(), "stills": self.stills,
                           "slides": files(),
                           "captions_file": str(self.wording.path), "edits": self.wording.entries(),
                           "jobs": [j.state() for j in self.jobs.by_id.values()]})

    def preview(self, _args, body) -> Reply:
        from .preview import preview

        t0 = time.perf_counter()
        answer = preview(Choice.from_json(body))
        answer["seconds"] = round(time.perf_counter() - t0, 3)
        self.last_script = answer["script"]
        return Reply.json(answer)

    def words_check(self, _args, body) -> Reply:
        return Reply.json(pacing(str(body.get("text", "")), str(body.get("lang", self.lang))))

    def words_save(self, _args, body) -> Reply:
        saved = self.wording.edit(str(body["lang"]), int(body["section"]), str(body["key"]), str(body["text"]))
        return Reply.json({"saved": str(saved), "edits": self.wording.entries()})

    def job_spec(self, body: dict) -> dict:
        choice = Choice.from_json(body.get("choice") or {})
        choice.head()  # a bad sentence is answered now, in the CLI's words
        sections = body.get("sections")
        if isinstance(sections, str):
            choose_sections(sections)  # a bad list is answered now, in the CLI's words
        quality = _quality(body.get("quality"))
        return {"product": str(body["product"]), "out": str(self.out), "sentence": choice.sentence,
                "follow": choice.follow, "lang": choice.lang, "theme": choice.theme,
                "sections": ",".join(str(s) for s in sections) if isinstance(sections, list) else sections,
                "order": [int(s) for s in sections] if isinstance(sections, list) else None,
                "quality": quality, "jobs": self.parallel,
                "captions_file": str(self.wording.file()) if self.wording.file() else None,
                "voice": choice.voice if body.get("narration") else None,
                # the lecturer's takes; with the voice, it speaks the cues not yet recorded
                "recordings": str(self.out / RECORDINGS) if body.get("recordings") else None,
                "choice": {"key": choice.key()}}

    def batch_start(self, _args, body) -> Reply:
        """Check the page's batch file (CSV or TOML text) as ``render.py batch`` does, keep it
        as ``OUT/batch-files/<name>``, and render it into ``OUT/batch/``."""
        from batch.variants import VariantError, load_variants

        from .job import BATCH

        ext = "toml" if str(body.get("name", "")).lower().endswith(".toml") else "csv"
        # the lecturer's file name (its errors name it), made safe as a file name here
        stem = re.sub(r"[^\w.-]+", "_", Path(str(body.get("name") or "batch")).stem) or "batch"
        text = str(body.get("text", ""))
        staged = self.out / ".studio" / "batch-check" / f"{stem}.{ext}"
        staged.parent.mkdir(parents=True, exist_ok=True)
        staged.write_text(text, encoding="utf-8")
        try:
            load_variants(staged)
        except VariantError as e:
            raise BadInput(str(e)) from None
        finally:
            staged.unlink()
        sections = body.get("sections") or None
        if sections is not None:
            choose_sections(str(sections))
        dest = self.out / "batch-files" / f"{stem}.{ext}"
        atomic_write(dest, text)
        spec = {"product": BATCH, "out": str(self.out), "batch_file": str(dest), "jobs": self.parallel,
                "quality": _quality(body.get("quality")), "sections": sections}
        return Reply.json(self.jobs.start(spec).state())

    def job_start(self, _args, body) -> Reply:
        from .job import PRODUCTS

        if body.get("product") not in PRODUCTS:
            raise BadInput(f"product: {body.get('product')!r} is not one of {', '.join(PRODUCTS)}")
        job = self.jobs.start(self.job_spec(body), replace=PRODUCTS[body["product"]].folder == "preview")
        return Reply.json(job.state())

    def job_state(self, args, _body) -> Reply:
        job = self.jobs.get(int(args[0])) if args and args[0].isdigit() else None
        return Reply.json(job.state()) if job else Reply.json({"error": "no such job"}, 404)

    def job_cancel(self, args, _body) -> Reply:
        job = self.jobs.get(int(args[0])) if args and args[0].isdigit() else None
        if job is None:
            return Reply.json({"error": "no such job"}, 404)
        job.cancel()
        return Reply.json(job.state())

    def say(self, _args, body) -> Reply:
        from narration.pacing import spoken_line
        from narration.synth import Synthesizer
        from narration.voices import MissingVoice, UnknownVoice, chosen

        lang = str(body.get("lang", self.lang))
        try:
            voice = chosen(lang, body.get("voice") or None)
        except (MissingVoice, UnknownVoice) as e:
            raise BadInput(str(e)) from None
        text = str(body.get("text", "")).replace("\n", " ")
        if not text.strip():
            raise BadInput("text: nothing to say")
        spoken = spoken_line(lang, int(body.get("section", 0)), str(body.get("beat", "")), text, None)
        try:
            line = Synthesizer().line(spoken, lang, voice)
        except RuntimeError as e:   # the voice's program refused the text: its one line
            raise BadInput(" ".join(str(e).split())) from None
        return Reply(line.path.read_bytes(), "audio/wav")

    def recorder_start(self, _args, body) -> Reply:
        from narration.recorder import RecorderServer

        lang = str(body.get("lang", self.lang))
        cues = [{"id": c["id"], "text": c["texts"].get(lang, ""), "section": c["section"], "beat": c["beat"]}
                for c in self.last_script]
        if self.recorder is not None:
            self.recorder.stop()
        self.recorder = RecorderServer(self.out / RECORDINGS, cues, lang).start()
        return Reply.json({"url": self.recorder.url})

    def recordings(self, _args, body) -> Reply:
        from narration import recordings

        ids = [str(i) for i in body.get("ids", [])]
        return Reply.json({"folder": str(self.out / RECORDINGS),
                           "missing": recordings.missing(self.out / RECORDINGS, ids)})

    def files(self, args, _body) -> Reply:
        target = (self.out / "/".join(args)).resolve()
        if not target.is_relative_to(self.out) or not target.is_file() or ".studio" in target.parts:
            return Reply(b"not found", "text/plain", 404)
        ctype = mimetypes.guess_type(target.name)[0] or "application/octet-stream"
        return Reply(target.read_bytes(), ctype)

    # ------------------------------------------------------------------ HTTP

    def answer(self, method: str, parts: list[str], body: dict) -> Reply:
        """The reply of the route ``method parts`` matches (bad input: 400 with its line)."""
        for route in ROUTES:
            args = route.match(method, parts)
            if args is not None:
                try:
                    return route.handler(self, args, body)
                except BadInput as e:
                    return Reply.json({"error": " ".join(str(e).split())}, 400)
                except DiskFull as e:
                    return Reply.json({"error": e.line()}, 507)
                except (KeyError, ValueError, TypeError, AttributeError, IndexError, OverflowError) as e:
                    # a field missing or of another type than the page sends
                    what = f"missing field {e}" if isinstance(e, KeyError) else " ".join(str(e).split())
                    return Reply.json({"error": f"bad request: {what}"}, 400)
                except OSError as e:
                    if is_disk_full(e):
                        return Reply.json({"error": DiskFull(self.out).line()}, 507)
                    raise
        return Reply(b"not found", "text/plain", 404)

    def _handler(self):
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            timeout = REQUEST_TIMEOUT   # a client that stops sending does not keep a thread

            def log_message(self, *args):  # quiet: the command prints its own lines
                pass

            def _go(self, method: str) -> None:
                server.requests.append(self.path)
                parts = server.admit(self.headers.get("Host", ""), self.path, self.headers)
                if isinstance(parts, int):
                    return self._send(Reply(REFUSED.get(parts, b"not found"), "text/plain", parts))
                body: dict = {}
                if method == "POST":
                    length = content_length(self.headers)
                    if length is None:
                        return self._send(Reply.json({"error": "Content-Length is not a number of bytes"}, 400))
                    if length > MAX_BODY_BYTES:   # refused before a byte of it is read
                        self.close_connection = True
                        return self._send(Reply.json({"error": "request too large"}, 413))
                    try:
                        body = json.loads(self.rfile.read(length) or b"{}")
                    except (ValueError, RecursionError):
                        return self._send(Reply.json({"error": "not JSON"}, 400))
                    if not isinstance(body, dict):
                        return self._send(Reply.json({"error": "not a JSON object"}, 400))
                self._send(server.answer(method, parts, body))

            def _send(self, reply: Reply) -> None:
                try:
                    self.send_response(reply.code)
                    self.send_header("Content-Type", reply.ctype)
                    self.send_header("Content-Length", str(len(reply.body)))
                    self.send_header("Cache-Control", "no-store")
                    self.end_headers()
                    self.wfile.write(reply.body)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the page went away

            def do_GET(self):  # noqa: N802 - http.server's name
                self._go("GET")

            def do_POST(self):  # noqa: N802
                self._go("POST")

        return Handler


@dataclass(frozen=True)
class Route:
    """A route: its method, its fixed path parts, whether more parts follow (they are the
    handler's arguments) and the :class:`StudioServer` method answering it."""

    method: str
    path: tuple[str, ...]
    handler: Callable[[StudioServer, list[str], dict], Reply]
    rest: bool = False
    after: tuple[str, ...] = ()

    def match(self, method: str, parts: list[str]) -> list[str] | None:
        """The arguments if ``method parts`` is this route, else None."""
        n = len(self.path)
        if method != self.method or tuple(parts[:n]) != self.path:
            return None
        args = parts[n:]
        if self.after:
            if len(args) != 1 + len(self.after) or tuple(args[1:]) != self.after:
                return None
            return args[:1]
        if not self.rest and args:
            return None
        return args


#: The API, first match wins.
ROUTES: tuple[Route, ...] = (
    Route("GET", (), StudioServer.page),
    Route("GET", ("static",), StudioServer.static, rest=True),
    Route("GET", ("api", "state"), StudioServer.state),
    Route("POST", ("api", "preview"), StudioServer.preview),
    Route("POST", ("api", "words", "check"), StudioServer.words_check),
    Route("POST", ("api", "words"), StudioServer.words_save),
    Route("POST", ("api", "jobs"), StudioServer.job_start),
    Route("GET", ("api", "jobs"), StudioServer.job_state, rest=True),
    Route("POST", ("api", "jobs"), StudioServer.job_cancel, after=("cancel",)),
    Route("POST", ("api", "batch"), StudioServer.batch_start),
    Route("POST", ("api", "say"), StudioServer.say),
    Route("POST", ("api", "recorder"), StudioServer.recorder_start),
    Route("POST", ("api", "recordings"), StudioServer.recordings),
    Route("GET", ("files",), StudioServer.files, rest=True),
)
