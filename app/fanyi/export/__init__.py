"""Build-time tools: turn a Hugging Face Marian folder into a Fanyi model pack."""
