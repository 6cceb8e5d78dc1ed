"""Section 11, the softmax staircase: exponentiate, divide by the sum, stack to exactly 1.

The section as one unit: its scene (``scene.py``, manim), its figures (``figures.py``)
and its beat plan (``beats.py``), both manim-free.
"""

__all__ = ["SCENE"]

#: The scene class in ``scene.py``.
SCENE = "SoftmaxStaircase"
