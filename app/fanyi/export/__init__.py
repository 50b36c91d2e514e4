"""Build-time tools: turn a Hugging Face folder (MarianMT, mBART-50, M2M100, NLLB-200, a translation LLM) into a
Fanyi model pack, without torch; ``validate`` compares a pack with transformers."""
