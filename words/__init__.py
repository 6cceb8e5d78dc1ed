"""Words: everything a viewer reads or hears, and the configuration that picks them; no manim.

    config      the ``ATTN_*`` environment variables: names, allowed values, defaults
    captions    the caption tables (each section's ``captions/<lang>.toml``, the shared
                ``assets/captions/<lang>.toml``) and their placeholders
    cues        a beat as cues: reading time, two balanced lines, a long beat split in two
    linebreak   where a line may break (kinsoku, clause ends) and the two line breakers
    spoken      the spoken form of a caption and its tables (``assets/spoken/<lang>.toml``)

The scenes, the narration, the pipeline, the deck and ``attn_math`` all read these; this
package imports nothing else of the project (plural rules and language names come from
Babel), so that every layer may import it and the words can be tested without rendering.
"""
