"""``render.py batch``: many variants of the explainer, rendered on Dask distributed.

One module per concern:

- :mod:`batch.variants`: read and validate the variants file (CSV or TOML);
- :mod:`batch.store`: the content-addressed clip store over fsspec (``--cache``);
- :mod:`batch.tasks`: the work of one (variant, section) task, run on a Dask worker;
- :mod:`batch.cluster`: which Dask cluster runs the tasks (in-process or ``--scheduler``);
- :mod:`batch.run`: the batch itself: plan, submit, follow, stitch each variant.
"""
