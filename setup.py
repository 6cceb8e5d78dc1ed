"""The package list, the one part of the build that ``pyproject.toml`` cannot say.

The repository's ``assets/`` folder installs under the distinct name
``attn_explainer_assets`` (``package_dir``): setuptools' ``packages.find`` only names a
package after its folder, and a top-level ``assets`` in site-packages collides with other
distributions' (docs/ARCHITECTURE.md, "Installed"). Folders that hold only data
(``assets/captions``, ``slides/vendor``) are listed as packages too, as setuptools wants of
every importable folder whose files it installs.
"""

from setuptools import find_namespace_packages, setup

#: The code packages, found with their subpackages (folders without ``__init__.py`` too).
CODE = ["attn_math*", "scenes*", "pipeline*", "slides*", "batch*", "narration*", "words*", "cli*", "studio*",
        "patches*"]
#: The installed name of ``assets/``.
ASSETS = "attn_explainer_assets"

setup(
    packages=[*find_namespace_packages(include=CODE, exclude=["*.__pycache__"]),
              ASSETS, *(f"{ASSETS}.{p}" for p in find_namespace_packages(where="assets",
                                                                          exclude=["__pycache__"]))],
    package_dir={ASSETS: "assets"},
)
