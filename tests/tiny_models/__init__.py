"""Tiny random-weight models of every family Fanyi exports, built for the tests, the benchmarks and the
bundle's smoke test (torch, transformers): never part of the app.

No real weights can be downloaded everywhere Fanyi is built or tested, so these build Hugging Face
folders of the real architectures with tokenizers trained on assets/corpus (``spm_files``): MarianMT,
mBART-50, M2M100 and NLLB-200 (``synthetic``) and the translation LLMs (``synthetic_llm``). The tests
import them with tests/ on the path (pytest's rootdir conftest); benchmarks/ and the workflows put
tests/ on ``sys.path`` first.
"""
