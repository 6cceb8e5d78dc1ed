"""Section 26, a real head: what a trained transformer does with the followed word.

The section as one unit: its scene (``scene.py``, manim) and the 72-head grid it draws
(``head_grid.py``), its figures (``figures.py``, read off the trained model by
:mod:`attn_math.real_head`) and its beat plan (``beats.py``), both manim-free.

It needs the model package the set-up installs; :data:`REQUIRES` says so before a run
starts (the other sections render without it).
"""

from attn_math.real_head import model_missing

__all__ = ["REQUIRES", "SCENE"]

#: The scene class in ``scene.py``.
SCENE = "RealHead"
#: What the section needs besides the toy head: callables that return None when it is
#: there, else one line saying what to install.
REQUIRES = (model_missing,)
