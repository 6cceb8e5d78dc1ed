"""The scene configuration contract: the ``ATTN_*`` environment variables (docs/ARCHITECTURE.md).

A value outside the allowed set is an error, never silently the default: a typo such as
``ATTN_LANG=english`` would otherwise render a whole Japanese video without a word of warning.
"""

from __future__ import annotations

import os


class ConfigError(ValueError):
    """An ``ATTN_*`` variable holds a value the scenes do not know."""


def choice(var: str, allowed: tuple[str, ...], default: str) -> str:
    """The value of ``var`` (``default`` when unset or empty); :class:`ConfigError` if not in ``allowed``."""
    value = os.environ.get(var, "") or default
    if value not in allowed:
        raise ConfigError(f"{var}={value!r} is not one of {', '.join(allowed)}")
    return value
