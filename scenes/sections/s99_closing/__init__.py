"""The closing card of the stitched explainer, as one unit: its scene (``scene.py``) and its
beat plan (``beats.py``). A card, not a section of the source: a full run adds it.
"""

__all__ = ["CARD", "SCENE"]

#: The scene class in ``scene.py``.
SCENE = "ClosingCard"
#: A title card around the video, not a section.
CARD = True
