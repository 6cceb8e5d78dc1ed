"""Section 19, the silent bug: the causal mask multiplied by 0 instead of added as −∞.

The section as one unit: its scene (``scene.py``, manim), its figures (``figures.py``)
and its beat plan (``beats.py``), both manim-free.
"""

__all__ = ["SCENE"]

#: The scene class in ``scene.py``.
SCENE = "SilentBug"
