"""Section 25, the attention map: every row of causal weights as one picture.

The section as one unit: its scene (``scene.py``, manim), its figures (``figures.py``)
and its beat plan (``beats.py``), both manim-free.
"""

__all__ = ["SCENE"]

#: The scene class in ``scene.py``.
SCENE = "AttentionMap"
