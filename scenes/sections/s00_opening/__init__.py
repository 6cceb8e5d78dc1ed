"""The opening card of the stitched explainer, as one unit: its scene (``scene.py``) and its
beat plan (``beats.py``). A card, not a section of the source: a full run adds it.
"""

__all__ = ["CARD", "SCENE", "WORDS_OF"]

#: The scene class in ``scene.py``.
SCENE = "OpeningCard"
#: A title card around the video, not a section.
CARD = True
#: The sections whose caption words the card also shows: none (it counts the sections; the
#: count is in the registry, hashed on its own).
WORDS_OF: tuple[str, ...] = ()
