"""The studio's API through its real server: loopback, token, the sentence loop, the words."""

from __future__ import annotations

import json
import subprocess
import sys
import tomllib

import pytest

from tests.support import ROOT

from .support import call, raw, running_studio

SENTENCE = "the cat sat on the mat because it was warm"


@pytest.fixture(scope="module")
def studio(tmp_path_factory):
    with running_studio(tmp_path_factory.mktemp("studio-out")) as server:
        yield server


def cli_error(*args: str) -> str:
    """The one line ``render.py`` prints for bad input (without its prefix), and exit 2."""
    r = subprocess.run([sys.executable, "render.py", *args], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("render.py: error: "), r.stderr
    return lines[0].removeprefix("render.py: error: ")


def test_loopback_only_with_the_token(studio):
    assert studio.url.startswith("http://127.0.0.1:")
    code, body, ctype = raw(studio.url)
    assert code == 200 and ctype.startswith("text/html") and b"static/studio.js" in body
    port = studio.httpd.server_address[1]
    assert raw(studio.url, headers={"Host": f"localhost:{port}"})[0] == 421
    assert raw(studio.url.replace(studio.token, "x" * len(studio.token)))[0] == 404
    assert raw(studio.url + "static/../server.py")[0] == 404
    assert raw(studio.url + "files/../../etc/passwd")[0] == 404


def test_every_script_and_style_comes_from_the_package(studio):
    _, page, _ = raw(studio.url)
    html = page.decode()
    assert "http://" not in html and "https://" not in html and "//" not in html.replace("<!--", "")
    for name in ("studio.js", "studio.css"):
        code, body, _ = raw(studio.url + "static/" + name)
        assert code == 200 and body
        assert b"https://" not in body and b"http://" not in body


@pytest.mark.parametrize("sentence, follow, cli_args", [
    ("cat", None, ["--sentence", "cat"]),
    (SENTENCE, "dog", ["--sentence", SENTENCE, "--follow", "dog"]),
    ("a b supercalifragilisticexpialidocious", None, ["--sentence", "a b supercalifragilisticexpialidocious"]),
])
def test_bad_sentence_is_the_cli_line(studio, sentence, follow, cli_args):
    code, answer = call(studio, "api/preview", {"sentence": sentence, "follow": follow, "lang": "en"})
    assert code == 400
    assert answer["error"] == cli_error("figures", *cli_args)


def test_preview_is_figures_and_script_of_the_sentence(studio):
    code, a = call(studio, "api/preview", {"sentence": SENTENCE, "follow": "it", "lang": "en", "both": True})
    assert code == 200, a
    code, b = call(studio, "api/preview", {"sentence": "the dog chased the ball", "lang": "en"})
    assert code == 200
    assert a["tokens"][a["follow"]] == "it"
    assert "because" in a["script"][0]["texts"]["en"] and "because" not in b["script"][0]["texts"]["en"]
    assert all(set(c["texts"]) == {"en", "ja"} for c in a["script"])
    assert [c["id"] for c in a["script"]] == sorted({c["id"] for c in a["script"]}, key=[c["id"] for c in a["script"]].index)
    figures = json.loads(subprocess.run([sys.executable, "render.py", "figures", "--json", "--sentence", SENTENCE,
                                         "--follow", "it"], cwd=ROOT, capture_output=True, text=True,
                                        check=True).stdout)["story"]["sections"]
    shown = {str(s["section"]): {f["name"]: f["text"] for f in s["figures"]} for s in a["figures"]}
    for sec, figs in figures.items():
        assert shown[str(int(sec))] == {k: v["text"] for k, v in figs.items()}


def test_words_are_checked_and_saved_as_a_captions_file(studio):
    out = studio.out
    code, a = call(studio, "api/preview", {"sentence": SENTENCE, "lang": "en"})
    cue = next(c for c in a["script"] if c["section"] == 3)
    saved_before = (out / "captions.toml").read_bytes() if (out / "captions.toml").exists() else None
    code, bad = call(studio, "api/words", {"lang": "en", "section": 3, "key": cue["beat"], "text": "see {nonsense}"})
    assert code == 400 and "placeholder {nonsense}" in bad["error"]
    assert ((out / "captions.toml").read_bytes() if (out / "captions.toml").exists() else None) == saved_before
    code, saved = call(studio, "api/words", {"lang": "en", "section": 3, "key": cue["beat"],
                                             "text": "My own words for this beat."})
    assert code == 200, saved
    with open(out / "captions.toml", "rb") as f:
        assert tomllib.load(f)["en"]["s03"][cue["beat"]] == "My own words for this beat."
    code, b = call(studio, "api/preview", {"sentence": SENTENCE, "lang": "en"})
    assert next(c for c in b["script"] if c["id"] == cue["id"])["texts"]["en"] == "My own words for this beat."


def test_pacing_is_the_reading_rate(studio):
    code, p = call(studio, "api/words/check", {"text": "短い。", "lang": "ja"})
    assert code == 200 and p["limit"] == 4.0 and p["cues"][0]["seconds"] == 1.5
    code, p = call(studio, "api/words/check", {"text": "This is one sentence of the beat. " * 6, "lang": "en"})
    assert len(p["cues"]) == 2 and all(c["rate"] <= p["limit"] for c in p["cues"])


def test_unknown_product_and_missing_recordings(studio):
    code, answer = call(studio, "api/jobs", {"product": "nonsense"})
    assert code == 400 and "product" in answer["error"]
    code, r = call(studio, "api/recordings", {"ids": ["01-key-1", "01-query-1"]})
    assert code == 200 and r["missing"] == ["01-key-1", "01-query-1"]
    (studio.out / "recordings").mkdir(exist_ok=True)
    (studio.out / "recordings" / "01-key-1.wav").write_bytes(b"RIFF")
    assert call(studio, "api/recordings", {"ids": ["01-key-1", "01-query-1"]})[1]["missing"] == ["01-query-1"]


@pytest.mark.slow
def test_the_preview_is_the_cli_script_and_an_edit_reaches_it(studio):
    """The preview's cues of a section are ``render.py script``'s (which runs the scene),
    with the studio's captions file too."""
    code, a = call(studio, "api/preview", {"sentence": SENTENCE, "lang": "en"})
    beat = next(c for c in a["script"] if c["section"] == 4)["beat"]
    code, _ = call(studio, "api/words", {"lang": "en", "section": 4, "key": beat, "text": "Words of the lecturer."})
    assert code == 200
    code, a = call(studio, "api/preview", {"sentence": SENTENCE, "lang": "en"})
    r = subprocess.run([sys.executable, "render.py", "script", "--json", "--lang", "en", "--sections", "4",
                        "--sentence", SENTENCE, "--captions-file", str(studio.out / "captions.toml")],
                       cwd=ROOT, capture_output=True, text=True, check=True)
    cli = [(c["id"], c["text"]) for c in json.loads(r.stdout)]
    assert [(c["id"], c["texts"]["en"]) for c in a["script"] if c["section"] == 4] == cli
    assert "Words of the lecturer." in [t for _, t in cli]


def test_a_render_takes_the_studios_words_voice_and_recordings(studio):
    """What a render job is given: the command line's options for the page's choice."""
    choice = {"sentence": SENTENCE, "follow": "it", "lang": "en", "theme": "light", "voice": "joe"}
    plain = studio.job_spec({"product": "explainer", "choice": choice})
    assert (plain["sentence"], plain["follow"], plain["theme"], plain["voice"], plain["recordings"]) == (
        SENTENCE, "it", "light", None, None)
    spoken = studio.job_spec({"product": "explainer", "choice": choice, "narration": True, "recordings": True})
    assert spoken["voice"] == "joe" and spoken["recordings"] == str(studio.out / "recordings")
    assert (spoken["captions_file"] is None) == (not (studio.out / "captions.toml").exists())
    with pytest.raises(Exception, match="need 2 to 12 tokens"):
        studio.job_spec({"product": "explainer", "choice": {"sentence": "cat"}})


@pytest.mark.slow
def test_a_cue_is_spoken_in_the_chosen_voice(studio):
    """``api/say`` answers a WAV of the cue in the language's default voice (synthesised
    through narration.synth, so the line lands in the voice cache as a render's would)."""
    import io
    import wave

    code, body, ctype = raw(studio.url + "api/say", json.dumps(
        {"lang": "en", "text": "The query meets every key.", "section": 3, "beat": "keys"}).encode())
    assert code == 200 and ctype == "audio/wav"
    with wave.open(io.BytesIO(body)) as w:
        assert w.getnframes() / w.getframerate() > 0.5
    code, bad = call(studio, "api/say", {"lang": "en", "voice": "no-such-voice", "text": "x"})
    assert code == 400 and "no-such-voice" in bad["error"]


def test_the_recorder_is_the_record_commands_for_the_scripts_cues(studio):
    code, a = call(studio, "api/preview", {"sentence": SENTENCE, "lang": "en"})
    code, rec = call(studio, "api/recorder", {"lang": "en"})
    assert code == 200 and rec["url"].startswith("http://127.0.0.1:") and rec["url"] != studio.url
    code, body, _ = raw(rec["url"] + "cues")
    cues = json.loads(body)
    assert json.loads(body)["folder"] == str(studio.out / "recordings")
    assert [(c["id"], c["text"]) for c in cues["cues"]] == [(c["id"], c["texts"]["en"]) for c in a["script"]]


def test_a_bad_batch_file_is_the_batch_commands_line_and_is_not_kept(studio, tmp_path):
    text = "name,sentence\nfirst,the cat sat\nfirst,the dog ran\n"
    code, answer = call(studio, "api/batch", {"name": "course.csv", "text": text})
    assert code == 400
    (tmp_path / "course.csv").write_text(text, encoding="utf-8")
    assert answer["error"] == cli_error("batch", str(tmp_path / "course.csv"), "--out", str(tmp_path / "o"))
    assert not (studio.out / "batch-files").exists()
