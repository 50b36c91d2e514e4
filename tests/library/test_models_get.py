"""`fanyi models get ORG/NAME` end to end, as a user runs it: a tiny Qwen3 and a tiny MarianMT model served by a
Hub on 127.0.0.1 (HF_ENDPOINT) and by a ModelScope on 127.0.0.1 (MODELSCOPE_DOMAIN) become installed packs that
decode exactly as transformers' generate(); and the same with torch and transformers not importable."""

from __future__ import annotations

import functools
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

from fanyi import paths  # noqa: E402
from fanyi.engine.options import DecodeOptions  # noqa: E402
from fanyi.engine.translator import Translator  # noqa: E402
from fanyi.library import installed  # noqa: E402

REFUSE_TORCH = textwrap.dedent(
    """
    import importlib.abc, sys
    class Refuse(importlib.abc.MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in ("torch", "transformers"):
                raise ImportError(f"{name} is not importable in this test")
    sys.meta_path.insert(0, Refuse())
    """
)
RUN = "import sys\nfrom fanyi.cli import main\ncode = main(sys.argv[1:])\n"
NO_TORCH_LOADED = "assert not {'torch', 'transformers'} & set(sys.modules), sorted(sys.modules)\n"


def fanyi(*args: str, env: dict[str, str], torch_free: bool = False) -> subprocess.CompletedProcess[str]:
    code = (REFUSE_TORCH if torch_free else "") + RUN + (NO_TORCH_LOADED if torch_free else "") + "sys.exit(code)\n"
    return subprocess.run([sys.executable, "-c", code, *args], env=env, capture_output=True, text=True, timeout=600)


@functools.cache
def _converter_needs_torch(folder: str, out: str) -> str:
    """Why this branch's converter cannot run without torch, or "" when it can (checked once, in a subprocess)."""
    done = fanyi("export", folder, out, env=dict(os.environ), torch_free=True)
    if done.returncode == 0:
        return ""
    return done.stderr.strip().splitlines()[-1] if done.stderr.strip() else f"exit {done.returncode}"


@pytest.fixture(params=[False, True], ids=["with-torch", "torch-not-importable"])
def torch_free(request, tiny_hf_en_zh, tmp_path_factory) -> bool:
    if request.param:
        why = _converter_needs_torch(str(tiny_hf_en_zh), str(tmp_path_factory.mktemp("probe") / "pack"))
        if why:
            pytest.skip(f"the converter of this branch still reads the weights through torch/transformers ({why})")
    return request.param


def env_for(user_dirs, **extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k.lower() not in ("http_proxy", "https_proxy", "all_proxy")}
    return {**env, "HF_HUB_OFFLINE": "", "NO_PROXY": "127.0.0.1", **extra}


def marian_matches_generate(pack: Path, hf: Path) -> None:
    model = transformers.MarianMTModel.from_pretrained(hf).eval()
    tokenizer = transformers.MarianTokenizer.from_pretrained(hf)
    translator = Translator.open(pack, threads=1)
    corpus = Path(__file__).resolve().parents[2] / "assets" / "corpus" / "en.txt"
    texts = [f">>cmn_Hans<< {line}" for line in corpus.read_text(encoding="utf-8").splitlines()[:4]]
    with torch.no_grad():
        out = model.generate(**tokenizer(texts, return_tensors="pt", padding=True))
    expected = []
    for row in out.tolist():
        row = row[1:]  # the decoder start
        expected.append(row[: row.index(0) + 1] if 0 in row else [t for t in row if t != model.config.pad_token_id])
    sources = [tokenizer(t)["input_ids"] for t in texts]
    assert translator.generate_ids(sources, DecodeOptions()) == expected


def qwen3_matches_generate(pack: Path, hf: Path) -> None:
    model = transformers.Qwen3ForCausalLM.from_pretrained(hf, dtype=torch.float32).eval()
    translator = Translator.open(pack, threads=1)
    options = DecodeOptions(source="en", target="zh", max_new_tokens=16)
    for text in ("Good morning.", "The weather is fine today."):
        ids = translator.encode(text, options)
        with torch.no_grad():
            out = model.generate(
                torch.tensor([ids]),
                attention_mask=torch.ones(1, len(ids), dtype=torch.long),
                do_sample=False,
                max_new_tokens=16,
                top_k=None,
                top_p=None,
                temperature=None,
            )
        assert translator.generate_ids([ids], options)[0] == out[0, len(ids) :].tolist(), text


@pytest.mark.parametrize("kind", ["marian", "qwen3"])
def test_models_get_from_a_hub_installs_a_pack_that_decodes_as_generate(
    kind, torch_free, hub, user_dirs, tiny_hf_en_zh, tiny_hf_llm
):
    repo, hf = {
        "marian": ("Helsinki-NLP/opus-mt-en-zh", tiny_hf_en_zh),
        "qwen3": ("Qwen/Qwen3-1.7B", tiny_hf_llm("qwen3")),
    }[kind]
    hub.add(repo, hf)
    done = fanyi(
        "models",
        "get",
        repo,
        "--quantize",
        "none",
        env=env_for(user_dirs, HF_ENDPOINT=hub.endpoint),
        torch_free=torch_free,
    )
    assert done.returncode == 0, done.stderr
    name = repo.rsplit("/", 1)[-1].lower()
    assert done.stdout.startswith(f"installed {name} in ")
    assert "converting layer 1/" in done.stderr  # off a terminal: a line per step
    pack = installed.find_pack(name)
    assert pack.quantization == "none" and not pack.bundled
    assert {p for _m, p, _h in hub.requests if p.startswith("/api/models/")} == {f"/api/models/{repo}/revision/main"}
    (marian_matches_generate if kind == "marian" else qwen3_matches_generate)(pack.path, hf)


@pytest.mark.parametrize("kind", ["marian", "qwen3"])
def test_models_get_from_modelscope_installs_the_same_pack(
    kind, torch_free, modelscope, user_dirs, tiny_hf_en_zh, tiny_hf_llm
):
    repo, hf = {
        "marian": ("Helsinki-NLP/opus-mt-en-zh", tiny_hf_en_zh),
        "qwen3": ("Qwen/Qwen3-1.7B", tiny_hf_llm("qwen3")),
    }[kind]
    modelscope.add(repo, hf)
    env = env_for(user_dirs, MODELSCOPE_DOMAIN=modelscope.endpoint)
    done = fanyi("models", "get", repo, "--quantize", "none", "--from", "modelscope", env=env, torch_free=torch_free)
    assert done.returncode == 0, done.stderr
    pack = installed.find_pack(repo.rsplit("/", 1)[-1].lower())
    assert {q["Revision"][0] for p, q in modelscope.requests} == {"master"}
    (marian_matches_generate if kind == "marian" else qwen3_matches_generate)(pack.path, hf)


def test_the_default_quantization_is_int8_for_marian_and_int4_for_an_llm(hub, user_dirs, tiny_hf_en_zh, tiny_hf_llm):
    hub.add("Helsinki-NLP/opus-mt-en-zh", tiny_hf_en_zh)
    hub.add("Qwen/Qwen3-1.7B", tiny_hf_llm("qwen3"))
    env = env_for(user_dirs, HF_ENDPOINT=hub.endpoint)
    for repo in ("Helsinki-NLP/opus-mt-en-zh", "Qwen/Qwen3-1.7B"):
        done = fanyi("models", "get", repo, env=env)
        assert done.returncode == 0, done.stderr
    assert {p.name: p.quantization for p in installed.list_packs()} == {"opus-mt-en-zh": "int8", "qwen3-1.7b": "int4"}


def test_a_catalog_recipe_installs_from_a_hub_with_its_licence_asked_first(hub, user_dirs, tiny_hf_llm, monkeypatch):
    """`fanyi models install ID` takes the recipe's repository, revision and conversion; a licence that restricts
    use is asked about first, as for `models get` of the same repository."""
    import json

    from packserver import catalog_doc

    folder = tiny_hf_llm("hunyuan")
    repo = hub.add("tencent/HY-MT1.5-1.8B", folder)
    entry = {
        "id": "hy-mt1.5-1.8b",
        "version": 1,
        "default": True,
        "display_name": {"en": "HY-MT1.5"},
        "architecture": "hunyuan",
        "source_langs": ["en", "zh"],
        "target_langs": ["en", "zh"],
        "sources": {"huggingface": {"repo": "tencent/HY-MT1.5-1.8B", "revision": repo.commit}},
        "convert": {"quantize": "int4", "embeddings": "int8", "block_size": 32},
        "download_size": 1_000_000,
        "pack_size": 500_000,
        "license": {
            "name": "Tencent HY Community License",
            "url": "https://example.org/License.txt",
            "commercial_use": True,
            "excluded_territories": ["EU"],
        },
    }
    catalog_file = user_dirs / "catalog.json"
    catalog_file.write_bytes(catalog_doc([entry]))
    env = env_for(user_dirs, HF_ENDPOINT=hub.endpoint, FANYI_CATALOG_FILE=str(catalog_file))
    for args in (("install", "hy-mt1.5-1.8b"), ("get", "tencent/HY-MT1.5-1.8B")):
        asked = fanyi("models", *args, env=env)
        assert asked.returncode == 2 and "--accept-license" in asked.stderr and not hub.requests
    done = fanyi("models", "install", "hy-mt1.5-1.8b", "--accept-license", env=env)
    assert done.returncode == 0, done.stderr
    pack = installed.find_pack("hy-mt1.5-1.8b")
    assert (pack.pack_version, pack.quantization) == (1, "int4")
    manifest = json.loads((pack.path / "manifest.json").read_text(encoding="utf-8"))
    assert manifest["source_model"] == {"id": "tencent/HY-MT1.5-1.8B", "revision": repo.commit}
    assert manifest["quantization"]["block_size"] == 32


# --- a model's folder on this computer -----------------------------------------------------------------------
def test_importing_a_models_folder_converts_it_with_progress(user_dirs, tiny_hf_en_zh, tmp_path):
    """`fanyi models import DIR` of a Hugging Face model folder (a download of the repository, `hf download`, a git
    clone) makes a pack of it as `fanyi models get` does, with the conversion's progress; no network."""
    folder = shutil.copytree(tiny_hf_en_zh, tmp_path / "given" / "opus-mt-en-zh")
    before = sorted(p.name for p in folder.iterdir())
    done = fanyi("models", "import", str(folder), env=env_for(user_dirs, HF_HUB_OFFLINE="1"))
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("imported opus-mt-en-zh into ")
    assert "converting layer 1/" in done.stderr
    pack = installed.find_pack("opus-mt-en-zh")
    assert pack.quantization == "int8" and not pack.bundled  # the default for MarianMT, as models get makes
    assert Translator.open(pack.path, threads=1).translate("Good morning.")
    assert sorted(p.name for p in folder.iterdir()) == before  # the model's folder as it was
    assert not list(paths.downloads_dir().rglob(".convert-*"))  # the conversion's folder is gone


def test_models_get_of_a_folder_converts_it_without_the_network(user_dirs, tiny_hf_en_zh, tmp_path):
    folder = shutil.copytree(tiny_hf_en_zh, tmp_path / "opus-mt-en-zh")
    env = env_for(user_dirs, HF_HUB_OFFLINE="1")
    done = fanyi("models", "get", str(folder), "--quantize", "none", "--name", "mine", env=env)
    assert done.returncode == 0, done.stderr
    assert "asking" not in done.stderr and done.stdout.startswith("installed mine in ")
    marian_matches_generate(installed.find_pack("mine").path, tiny_hf_en_zh)


def test_a_folder_that_is_neither_a_pack_nor_a_model_says_what_to_choose(user_dirs, tmp_path):
    empty = tmp_path / "somewhere"
    empty.mkdir()
    (empty / "notes.txt").write_text("hello", encoding="utf-8")
    env = env_for(user_dirs, HF_HUB_OFFLINE="1")
    for args in (("import", str(empty)), ("get", str(empty))):
        done = fanyi("models", *args, env=env)
        assert done.returncode == 2 and done.stderr.splitlines() == [
            f"fanyi: {empty} is neither a model pack (it has no manifest.json) nor a Hugging Face model folder (it "
            "has no config.json): choose the folder that holds one of them"
        ], done.stderr
    nowhere = fanyi("models", "get", str(tmp_path / "missing"), env=env)
    assert nowhere.returncode == 2 and nowhere.stderr.splitlines() == [
        f"fanyi: {tmp_path / 'missing'} is neither a folder on this computer nor a repository id (owner/name)"
    ], nowhere.stderr
