"""The studio: a local page where a lecturer types a sentence, sees every section, fixes the
words, records and renders (``attn-explainer studio``).

One module per concern: :mod:`studio.choice` (what the page asks for, checked as the command
line checks it), :mod:`studio.preview` (the figures and the script from the story and the
beat plan, nothing rendered), :mod:`studio.wording` (the lecturer's words, saved as a
captions file the command line accepts), :mod:`studio.jobs` (stills, clips, the video and the
slides rendered in a child process, with per-section events and cancel),
:mod:`studio.job` (that child), :mod:`studio.server` (the loopback-only HTTP server and its
routes) and ``page/`` (the page, its script and style, served from the package). No manim
import at this level: renders happen in the pipeline's workers.
"""

__all__: list[str] = []
