"""Custom sentences through the command line: figures, bad input, every caption resolved.

Every scene rendered for a custom sentence (every beat readable, the sentence followed, the
last frame drawn) is ``test_layout``'s: its sentences include these.
"""

from __future__ import annotations

import json
import subprocess
import sys

import numpy as np
import pytest

import render
from attn_math.head import sentence_head
from scenes.registry import SECTIONS, story_of
from tests.support import ROOT
from tests.support.sentences import CUSTOM as SENTENCES
from tests.support.sentences import independent
from words import captions, config

pytestmark = pytest.mark.slow


def figures_json(*args: str) -> dict:
    p = subprocess.run([sys.executable, str(ROOT / "render.py"), "figures", "--json", *args],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def test_figures_json_for_a_sentence_matches_numpy():
    d = figures_json("--sentence", SENTENCES["repeated"], "--follow", "it")
    head = sentence_head(SENTENCES["repeated"].split(), follow="it")
    Q, K, V, R, S, W, Wc, O = independent(head)
    assert d["tokens"] == SENTENCES["repeated"].split()
    assert d["labels"][0] != d["labels"][3]
    assert d["follow"] == 6
    np.testing.assert_allclose(d["raw_scores"], R, atol=1e-12)
    np.testing.assert_allclose(d["causal_weights"], Wc, atol=1e-12)
    np.testing.assert_allclose(d["outputs"], O, atol=1e-12)
    assert d["story"]["roles"]["winner"]["index"] == int(np.argmax(R[6]))


def test_figures_json_default_reproduces_the_storyboard():
    d = figures_json()
    sec = d["story"]["sections"]
    assert (sec["03"]["R_follow_winner"]["text"], sec["03"]["R_follow_self"]["text"]) == ("1.72", "1.14")
    assert sec["21"]["out_pulled"]["text"] == "[1.21, 0.93]"
    assert sec["23"]["bill_ratio"]["text"] == "171x"
    # every listed section shows numbers; a card without any (the opening) is not listed
    assert "00" not in sec and all(sec.values())


def test_spec_file_with_follow_override(tmp_path):
    spec = tmp_path / "s.toml"
    spec.write_text('sentence = "the dog saw it"\n[vectors]\ndog = [2.5, -1.0]\n', encoding="utf-8")
    d = figures_json("--spec", str(spec), "--follow", "dog")
    assert d["follow"] == 1 and d["embeddings"][1] == [2.5, -1.0]


BAD = [
    (["--sentence", ""], "sentence"),
    (["--sentence", "alone"], "sentence"),
    (["--sentence", " ".join(["w"] * 13)], "13"),
    (["--sentence", "the cat ran", "--follow", "dog"], "follow"),
    (["--spec", "no-such-file.toml"], "no such file"),
]
BAD_SPECS = [
    ('sentence = "a b c"\nW_Q = [[1, 2], [3, 4], [5, 6]]\n', "W_Q"),
    ('sentence = "a b c"\nW_V = [["x", 1], [0, 1]]\n', "W_V"),
    ('sentence = "a b c"\nW_K = [[1, 2], [2, 4]]\n', "singular"),
    ('sentence = "a b c"\n[vectors]\nb = [nan, 1.0]\n', "vectors.b"),
    ('sentence = "a b c"\ncolour = "red"\n', "colour"),
    ('sentence = "a b c"\n[roles]\nvillain = "a"\n', "villain"),
    ('sentence = "a b c\n', "TOML"),
]


@pytest.mark.parametrize("cmd", ["figures", "render", "stills"])
@pytest.mark.parametrize("args,needle", BAD, ids=[a[-1][:12] or "empty" for a, _ in BAD])
def test_bad_sentence_exit_2_nothing_written(cmd, args, needle, tmp_path, capsys):
    out = tmp_path / "out"
    argv = [cmd, *args] + (["--out", str(out)] if cmd != "figures" else [])
    with pytest.raises(SystemExit) as e:
        render.main(argv)
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and needle in err and "Traceback" not in err
    assert not out.exists()


@pytest.mark.parametrize("text,needle", BAD_SPECS, ids=[n for _, n in BAD_SPECS])
def test_bad_spec_file_exit_2(text, needle, tmp_path, capsys):
    spec = tmp_path / "bad.toml"
    spec.write_text(text, encoding="utf-8")
    out = tmp_path / "out"
    with pytest.raises(SystemExit) as e:
        render.main(["render", "--spec", str(spec), "--out", str(out)])
    assert e.value.code == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and needle in err and "Traceback" not in err
    assert not out.exists()


@pytest.mark.parametrize("name", sorted(SENTENCES))
def test_every_caption_resolves_for_the_sentence(name):
    story = story_of(sentence_head(SENTENCES[name].split()))
    for section in SECTIONS:
        ctx = story.caption_context(section.number)
        for lang in config.LANGS:
            for beat in captions.table(lang).get(captions.section_key(section.number), {}):
                text = captions.render(lang, section.number, beat, ctx)
                assert "{" not in text, (name, section.stem, beat)
