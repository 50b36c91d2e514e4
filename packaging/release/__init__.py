"""The release pipeline behind packaging/packs.py: prebuilt model packs, their quality gate and catalog.

Build time (torch, transformers, sacrebleu; the `export` and `release` extras), except
fetch_default.py, which the installers' workflow runs with the runtime dependencies only.
"""
