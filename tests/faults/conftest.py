"""The fault suite's one reference project per test process (pytest-xdist worker), built
once for every module (:func:`tests.faults.harness.reference_project`)."""

from __future__ import annotations

import pytest

from tests.faults.harness import SLIDE_FORMATS, reference_project

__all__ = ["SLIDE_FORMATS", "project"]


@pytest.fixture(scope="session")
def project(tmp_path_factory):
    return reference_project(tmp_path_factory.mktemp("faults"))
