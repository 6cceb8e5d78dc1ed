"""Section 14: a d-wide dot product has spread √d.

The section as one unit: its scene (``scene.py``, manim), its figures (``figures.py``)
and its beat plan (``beats.py``), both manim-free.
"""

__all__ = ["SCENE"]

#: The scene class in ``scene.py``.
SCENE = "SpreadSqrtD"
