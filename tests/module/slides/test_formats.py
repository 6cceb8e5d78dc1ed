"""The slide formats table (``slides.build.SLIDE_FORMATS``) and ``--format`` parsing."""

from __future__ import annotations

import pytest

from pipeline.options import BadInput
from slides.build import FORMATS, SLIDE_FORMATS, parse_formats


def test_formats_in_canonical_order():
    assert FORMATS == ("pptx", "html", "pdf")
    assert [f.file for f in SLIDE_FORMATS.values()] == ["explainer.pptx", "index.html", "handout.pdf"]
    assert [f.name for f in parse_formats("pdf, PPTX")] == ["pptx", "pdf"]
    assert parse_formats(None) == parse_formats("all") == tuple(SLIDE_FORMATS.values())


@pytest.mark.parametrize("spec, message", [
    ("doc", "unknown --format doc (choose from pptx, html, pdf)"),
    ("", "unknown --format '' (choose from pptx, html, pdf)"),
    ("pptx,key", "unknown --format key"),
])
def test_unknown_formats(spec, message):
    with pytest.raises(BadInput, match=message.replace("(", r"\(").replace(")", r"\)")):
        parse_formats(spec)
