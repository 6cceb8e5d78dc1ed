"""The command line on top: ``render.py`` (console script ``attn-explainer``).

    group       the command group, the default command, exit codes
    options     the options several commands share, and their checks
    render      ``render`` and ``stills``
    slides      ``slides``
    batch       ``batch``
    info        ``list``, ``figures``, ``voices``, ``script``, ``doctor``: printed, nothing rendered
    doctor      the checks ``doctor`` runs: what each command needs from the machine
    heads       ``heads``: what a real trained model does with the followed word
    record      ``record``: the lecturer's own voice, cue by cue, in the browser
    studio      ``studio``: the local page that makes an explainer without the command line
    page        a local page served until Ctrl-C (``record`` and ``studio``)

Each command parses and checks its input (bad input: one line on stderr, exit 2, nothing
rendered), then hands the work to the libraries (``pipeline``, ``slides``, ``batch``).
Nothing imports this package but ``render.py``.
"""

from .group import cli, main

__all__ = ["cli", "main"]
