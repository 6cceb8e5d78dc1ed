"""The layout probe for the tests: :mod:`scenes.probe` (where the studio and the contact
sheets also find it) and :func:`assert_readable`, the tests' verdict on a probe."""

from __future__ import annotations

import pytest

from scenes.probe import (  # noqa: F401 - the tests import them from here
    VISIBLE_OPACITY,
    Probe,
    TextBox,
    arrows_drawn,
    check,
    check_arrows,
    check_token_names,
    probe_section,
    text_boxes,
)

__all__ = ["assert_readable", "Probe", "TextBox", "VISIBLE_OPACITY", "arrows_drawn", "check", "check_arrows",
           "check_token_names", "probe_section", "text_boxes"]


def assert_readable(probe: Probe, on_arrows_known: str | None = None) -> None:
    """Assert that ``probe`` found no problem, but for texts on arrows known to lie there.

    A case whose texts are known to lie on arrows (``on_arrows_known``: why, naming the
    label and the arrow) is a strict xfail on those problems only: every other problem still
    fails it, it xfails (call this after the case's other checks) while a text lies on an
    arrow, and it fails once none does, so that it is struck off the list.
    """
    others = [p for p in probe.problems if p not in probe.on_arrows]
    assert not others, "\n".join(others)
    if on_arrows_known is None:
        assert not probe.on_arrows, "\n".join(probe.on_arrows)
    elif probe.on_arrows:
        pytest.xfail(f"{on_arrows_known}: " + "; ".join(probe.on_arrows))
    else:
        pytest.fail(f"listed as known ({on_arrows_known}), but no text lies on an arrow: "
                    "strike it off")
