"""The release: prebuilt model packs, their quality gate and the catalog they are published with.

Its command line is packaging/publish.py, its list of packs (each a recipe) recipes.json beside this file,
its workflow .github/workflows/release.yml. (The pack format is fanyi.engine.pack's, the packs on a user's
computer are fanyi.library's.)

Build time (torch, transformers, sacrebleu; the `export` and `release` extras), except
fetch_default.py, which the installers' workflow runs with the runtime dependencies only.
"""
