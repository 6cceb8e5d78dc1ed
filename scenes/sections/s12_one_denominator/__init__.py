"""Section 12, one denominator: drag one score, every other weight answers, the sum stays 1.

The section as one unit: its scene (``scene.py``, manim), its figures (``figures.py``)
and its beat plan (``beats.py``), both manim-free.
"""

__all__ = ["SCENE"]

#: The scene class in ``scene.py``.
SCENE = "OneDenominator"
