"""Builds (or reuses) every file the LLM benchmark loads, and its workload (issue 19).

    /work/bench/venv/bin/python benchmarks/llm_prepare.py [--work /work/bench] [--models hy-mt1.5-1.8b,qwen3-1.7b]

Per model, under WORK:
- models/<key>/                 random weights at the real configuration (llm_models.py)
- gguf/<key>-q4_0.gguf          llama.cpp's Q4_0 mix (tied embedding/output Q6_K) (llm_gguf.py)
- gguf/<key>-q4_0-pure.gguf     every matrix Q4_0 (`--pure`)
- ort-genai/<key>-int4/         `python -m onnxruntime_genai.models.builder -m HF -o OUT -p int4 -e cpu`,
                                run by --builder-python: onnxruntime-genai 0.18.0's builder imports
                                classes that only transformers 5.x has (Qwen3_5ForConditionalGeneration),
                                while the benchmark venv pins transformers 4.57.6, so the builder has
                                its own venv (/work/bench/builder-venv: the same onnxruntime-genai and
                                onnxruntime, transformers 5.x); when the builder refuses an
                                architecture, its error goes into files-<key>.json and the engine is
                                left out
- fanyi/<key>-<variant>/        Fanyi's packs: `fanyi export --quantize int4` with each variant's options
                                (llm_engines.FANYI_VARIANTS), run by --fanyi-python (a Python with Fanyi's
                                export extra: torch, transformers, onnx); the folder it exports is the
                                model's with a chat template written into tokenizer_config.json (the
                                random folders have none; the benchmark feeds ids, not prompts)
- files-<key>.json              the paths above (llm_engines.ModelFiles) and the builder's outcome
- workload-<key>.json           the token ids every engine gets (below)

Workload (ids from the model's tokenizer.json; our tokenizer is trained on assets/corpus, so the
counts differ from the real tokenizer's, the structure is the model card's):
- prompt_120: the first 120 tokens of assets/corpus/en.txt (the prefill row);
- prefix / sentence / suffix: the translation prompt of the model card in its chat format, split
  where the source text goes (HY-MT1.5: "Translate the following segment into Chinese, without
  additional explanation." in its user turn; Qwen3: a user turn asking for the Chinese translation,
  thinking off as its template writes it). The sentence has 12 words. prefix + sentence + suffix is
  also the decode row's prompt.
"""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

from llm_engines import FANYI_VARIANTS
from llm_gguf import build_gguf
from llm_models import CORPUS, MODELS, REAL, build_folder

PROMPT_TOKENS = 120
SENTENCE = "Please remember to turn off the lights when you leave the room."  # 12 words, from en.txt
CHAT = {  # (prefix, suffix) around the source text, as each model's chat template renders it
    "hy-mt1.5-1.8b": (
        "<|hy_begin_of_sentence|><|hy_User|>Translate the following segment into Chinese, "
        "without additional explanation.\n\n",
        "<|hy_Assistant|>",
    ),
    "qwen3-1.7b": (
        "<|im_start|>user\nTranslate the following English text into Chinese. Output only the translation.\n\n",
        "<|im_end|>\n<|im_start|>assistant\n<think>\n\n</think>\n\n",
    ),
}


def workload(folder: Path, key: str) -> dict:
    from tokenizers import Tokenizer

    tokenizer = Tokenizer.from_file(str(folder / "tokenizer.json"))
    text = (CORPUS / "en.txt").read_text(encoding="utf-8")
    prompt = tokenizer.encode(text).ids[:PROMPT_TOKENS]
    if len(prompt) != PROMPT_TOKENS:
        raise SystemExit(f"the corpus gives only {len(prompt)} tokens")
    if len(SENTENCE.split()) != 12:
        raise SystemExit("the first-token sentence must have 12 words")
    prefix, suffix = CHAT[key.removesuffix("-tiny")]
    return {
        "prompt_120": prompt,
        "prefix": tokenizer.encode(prefix).ids,
        "sentence": tokenizer.encode(SENTENCE).ids,
        "suffix": tokenizer.encode(suffix).ids,
        "sentence_text": SENTENCE,
    }


def build_ort_genai(folder: Path, out: Path, log: Path, python: Path) -> str | None:
    """None when built, else the builder's last error line."""
    if (out / "genai_config.json").exists():
        return None
    tmp = out.with_name(out.name + ".tmp")
    command = [
        str(python),
        "-m",
        "onnxruntime_genai.models.builder",
        "-m",
        str(folder),
        "-o",
        str(tmp),
        "-p",
        "int4",
        "-e",
        "cpu",
        "-c",
        str(out.parent / "cache"),
    ]
    with log.open("w") as f:
        done = subprocess.run(command, stdout=f, stderr=subprocess.STDOUT)
    if done.returncode != 0:
        lines = [line for line in log.read_text().splitlines() if line.strip()]
        return lines[-1] if lines else f"exit code {done.returncode}"
    tmp.rename(out)
    return None


def build_fanyi(folder: Path, key: str, work: Path, python: Path) -> dict[str, str]:
    """Fanyi's int4 packs of the folder, one per variant (reused when there)."""
    source = work / "fanyi" / f"{key}-src"
    source.mkdir(parents=True, exist_ok=True)
    for item in folder.iterdir():
        link = source / item.name
        if item.name != "tokenizer_config.json" and not link.exists():
            link.symlink_to(item)
    prefix, suffix = CHAT[key.removesuffix("-tiny")]
    template = (
        "{% for m in messages %}" + prefix.replace("{", "{{ '{' }}") + "{{ m['content'] }}" + suffix + "{% endfor %}"
    )
    (source / "tokenizer_config.json").write_text(
        json.dumps({"tokenizer_class": "PreTrainedTokenizerFast", "chat_template": template})
    )
    packs = {}
    for variant, options in FANYI_VARIANTS.items():
        out = work / "fanyi" / f"{key}-{variant}"
        if not (out / "manifest.json").exists():
            subprocess.run(
                [
                    str(python),
                    "-m",
                    "fanyi",
                    "export",
                    str(source),
                    str(out),
                    "--quantize",
                    "int4",
                    "--overwrite",
                    *options,
                ],
                check=True,
            )
        packs[variant] = str(out)
    return packs


def prepare(work: Path, key: str, builder_python: Path, fanyi_python: Path) -> None:
    spec = MODELS[key]
    folder = build_folder(spec, work / "models")
    (work / "gguf").mkdir(exist_ok=True)
    f16 = work / "gguf" / f"{key}.f16.gguf"  # shared by both variants, deleted once they exist
    gguf = {
        variant: str(build_gguf(folder, work / "gguf" / f"{key}-{variant}.gguf", pure, f16))
        for variant, pure in (("q4_0", False), ("q4_0-pure", True))
    }
    f16.unlink(missing_ok=True)
    (work / "ort-genai").mkdir(exist_ok=True)
    ort = work / "ort-genai" / f"{key}-int4"
    error = build_ort_genai(folder, ort, work / "ort-genai" / f"{key}-int4.log", builder_python)
    files = {
        "key": key,
        "hf": str(folder),
        "eos_ids": list(spec.eos_ids),
        "gguf": gguf,
        "ort_genai": None if error else str(ort),
        "ort_genai_error": error,
        "fanyi": build_fanyi(folder, key, work, fanyi_python),
    }
    (work / f"files-{key}.json").write_text(json.dumps(files, indent=1))
    (work / f"workload-{key}.json").write_text(json.dumps(workload(folder, key)))
    print(f"{key}: ready" + (f" (onnxruntime-genai: {error})" if error else ""), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--work", type=Path, default=Path("/work/bench"))
    parser.add_argument(
        "--models",
        default=",".join(spec.key for spec in REAL),
        help="also: hy-mt1.5-1.8b-tiny,qwen3-1.7b-tiny (a smoke test at a tiny shape)",
    )
    parser.add_argument(
        "--builder-python",
        type=Path,
        default=Path("/work/bench/builder-venv/bin/python"),
        help="a Python with onnxruntime-genai's model builder and what it imports",
    )
    parser.add_argument(
        "--fanyi-python",
        type=Path,
        default=Path(__file__).resolve().parents[1] / ".venv/bin/python",
        help="a Python with Fanyi and its export extra (the repository's `make test` venv)",
    )
    args = parser.parse_args()
    for key in args.models.split(","):
        prepare(args.work, key, args.builder_python, args.fanyi_python)


if __name__ == "__main__":
    main()
