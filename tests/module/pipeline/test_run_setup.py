"""The run set-up chain (``pipeline.run_setup``) and the output kinds (``pipeline.kinds``),
without rendering."""

from __future__ import annotations

import pytest

from attn_math import default_head
from pipeline.kinds import CLIP, KINDS, STILL
from pipeline.options import BadInput
from pipeline.run_setup import Example, run_options, set_up_run, write_head_file


def test_the_first_mistake_is_the_one_reported(tmp_path):
    """Sections are chosen before the example is read, the example before the output folder."""
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(BadInput, match="--sections"):
        set_up_run(sections_spec="99", example=Example(sentence="one"), out_dir=blocker / "out", lang="en")
    with pytest.raises(BadInput, match="sentence"):
        set_up_run(sections_spec="1", example=Example(sentence="one"), out_dir=blocker / "out", lang="en")
    with pytest.raises(BadInput, match="--out"):
        set_up_run(sections_spec="1", example=Example(), out_dir=blocker / "out", lang="en")


def test_a_run_with_an_example(tmp_path):
    run = set_up_run(sections_spec="2-3", example=Example(sentence="the dog saw it", follow="it"),
                     out_dir=tmp_path / "out", lang="en", theme="light", quality="preview")
    assert [s.number for s in run.sections] == [2, 3]
    assert run.sentence() == "the dog saw it"
    assert run.opts.n_tokens == 4 and run.opts.lang == "en" and run.opts.theme == "light"
    assert run.opts.head is not None and run.opts.head.parent == run.paths.cache / "heads"
    assert run.opts.head.read_text(encoding="utf-8") == run.head.to_toml()
    assert run.opts.voice_cache is None       # a silent run keeps no voice cache


def test_default_head_and_head_files(tmp_path):
    assert Example().resolve() is None
    opts = run_options(None, tmp_path, lang="ja", narration=False, voice_cache=tmp_path / "v")
    assert opts.head is None and opts.n_tokens is None and opts.voice_cache is None
    text = default_head().to_toml()
    first = write_head_file(text, tmp_path)
    mtime = first.stat().st_mtime_ns
    assert write_head_file(text, tmp_path) == first and first.stat().st_mtime_ns == mtime
    assert write_head_file(text + "\n", tmp_path) != first


def test_output_kinds(tmp_path):
    assert set(KINDS) == {"clip", "still"} and KINDS["clip"] is CLIP
    assert CLIP.stored_files(tmp_path, "k", "burned") == [tmp_path / "k.mp4", tmp_path / "k.srt"]
    assert CLIP.stored_files(tmp_path, "k", "none") == [tmp_path / "k.mp4"]
    assert STILL.stored_files(tmp_path, "k", "burned") == [tmp_path / "k.png"]
    assert STILL.published(tmp_path, "03-which-key") == tmp_path / "stills" / "03-which-key.png"
    assert CLIP.stitched and not STILL.stitched
