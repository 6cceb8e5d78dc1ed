"""Section 9, reading rows: one row is one query against the whole sentence.

The section as one unit: its scene (``scene.py``, manim), its figures (``figures.py``)
and its beat plan (``beats.py``), both manim-free.
"""

__all__ = ["SCENE"]

#: The scene class in ``scene.py``.
SCENE = "ReadingRows"
