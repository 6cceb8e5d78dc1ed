"""The closing card of the stitched explainer, as one unit: its scene (``scene.py``) and its
beat plan (``beats.py``). A card, not a section of the source: a full run adds it.
"""

__all__ = ["CARD", "SCENE", "WORDS_OF"]

#: The scene class in ``scene.py``.
SCENE = "ClosingCard"
#: A title card around the video, not a section.
CARD = True
#: The sections (by slug) whose caption words the card also shows: the attention map's four
#: failures. A render's cache key hashes these tables with the card's own, and no others.
WORDS_OF = ("attention-map",)
