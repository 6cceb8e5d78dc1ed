"""Section 2: move the input, and q, k, v move with it.

The section as one unit: its scene (``scene.py``, manim), its figures (``figures.py``)
and its beat plan (``beats.py``), both manim-free.
"""

__all__ = ["SCENE"]

#: The scene class in ``scene.py``.
SCENE = "MoveTheInput"
