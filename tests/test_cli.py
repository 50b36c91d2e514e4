"""The command line, run as a user runs it (a subprocess), on tiny packs."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from fanyi.engine.translator import Translator


def run(*args, env_extra=None, stdin=None, cwd=None):
    env = dict(os.environ, **(env_extra or {}))
    return subprocess.run(
        [sys.executable, "-m", "fanyi", *args],
        input=stdin,
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
        cwd=cwd,
    )


@pytest.fixture()
def dirs(tmp_path):
    data, config, bundled = tmp_path / "data", tmp_path / "config", tmp_path / "bundled"
    bundled.mkdir()
    return {"FANYI_DATA_DIR": str(data), "FANYI_CONFIG_DIR": str(config), "FANYI_MODELS_DIR": str(bundled)}


def test_translate_arguments_stdin_and_stream(tiny_pack):
    expected = Translator.open(tiny_pack, threads=1)
    one = run("translate", "--model", str(tiny_pack), "Good morning.")
    assert one.returncode == 0, one.stderr
    assert one.stdout == expected.translate("Good morning.") + "\n"
    lines = run("translate", "--model", str(tiny_pack), "--beams", "1", stdin="First line.\nSecond line.\n")
    from fanyi.engine.options import DecodeOptions

    assert lines.stdout.splitlines() == [
        expected.translate(t, DecodeOptions(beams=1)) for t in ("First line.", "Second line.")
    ]
    streamed = run("translate", "--model", str(tiny_pack), "--stream", "Good morning.")
    assert streamed.stdout == one.stdout


def test_with_no_model_installed_chinese_is_still_written_anew(dirs):
    from fanyi import variants

    chinese = "请观看关于软件更新的视频。"
    done = run("translate", "--target", "zh-TW", stdin=f"{chinese}\n", env_extra=dirs)
    assert done.returncode == 0, done.stderr
    assert done.stdout == variants.rewrite(chinese, "zh-TW") + "\n"
    english = run("translate", "--target", "zh-TW", "Good morning.", env_extra=dirs)
    assert english.returncode != 0 and "No translation model is installed" in english.stderr


def test_an_english_sentence_in_a_chinese_line_is_translated_and_the_chinese_written_anew(tiny_pack, dirs):
    """ "Hello there. 今天天气很好。" asked for in Chinese: the English sentence went through untouched."""
    from fanyi import variants
    from fanyi.engine.options import DecodeOptions

    english, chinese = "Good morning.", "请观看关于软件更新的视频。"
    no_model = run("translate", "--target", "zh-TW", f"{english} {chinese}", env_extra=dirs)
    assert no_model.returncode == 0, no_model.stderr  # said, not hidden: the sentence is listed on stderr
    assert no_model.stdout == f"{english}{variants.rewrite(chinese, 'zh-TW')}\n"
    assert "1 sentence is" in no_model.stderr and "Good morning." in no_model.stderr
    os.symlink(tiny_pack, os.path.join(dirs["FANYI_MODELS_DIR"], tiny_pack.name))
    done = run("translate", "--target", "zh-TW", f"{english} {chinese}", env_extra=dirs)
    assert done.returncode == 0, done.stderr
    translated = Translator.open(tiny_pack, threads=1).translate(english, DecodeOptions(convert="zh-TW"))
    assert done.stdout == f"{translated}{variants.rewrite(chinese, 'zh-TW')}\n" and "warning" not in done.stderr


def test_with_no_model_installed_a_chinese_document_is_still_written_anew(dirs, tmp_path):
    """`fanyi file --target zh-TW` on a Chinese document asked for a model: OpenCC needs none."""
    from fanyi import variants

    chinese = "请观看关于软件更新的视频。\n\n打印机的缓存满了。\n"
    document = tmp_path / "notes.txt"
    document.write_text(chinese, encoding="utf-8")
    converted = run("file", str(document), "--target", "zh-TW", env_extra=dirs)
    assert converted.returncode == 0, converted.stderr
    assert (tmp_path / "notes.zh-TW.txt").read_text(encoding="utf-8") == variants.rewrite(chinese, "zh-TW")
    english = tmp_path / "english.txt"
    english.write_text("Good morning.\n", encoding="utf-8")
    refused = run("file", str(english), "--target", "zh-TW", env_extra=dirs)
    assert refused.returncode == 2 and refused.stderr.startswith("fanyi: No translation model is installed")
    assert len(refused.stderr.strip().splitlines()) == 1 and not (tmp_path / "english.zh-TW.txt").exists()


def test_without_a_model_the_languages_choose_the_pack(tiny_pack, tiny_pack_zh_en, dirs):
    """The router picks the pack for --source/--target in any style; the default pack wins a tie."""
    from fanyi.engine.options import DecodeOptions

    for pack in (tiny_pack, tiny_pack_zh_en):
        os.symlink(pack, os.path.join(dirs["FANYI_MODELS_DIR"], pack.name))
    zh_en, en_zh = Translator.open(tiny_pack_zh_en, threads=1), Translator.open(tiny_pack, threads=1)
    into_english = run("translate", "--source", "zh", "--target", "en", "今天天气很好。", env_extra=dirs)
    assert into_english.stdout == zh_en.translate("今天天气很好。") + "\n", into_english.stderr
    traditional = run("translate", "--target", "zh-TW", "Good morning.", env_extra=dirs)  # Taiwan's: OpenCC
    taiwan = DecodeOptions(target="cmn_Hans", convert="zh-TW")
    assert traditional.stdout == en_zh.translate("Good morning.", taiwan) + "\n"
    own = run("translate", "--target", "cmn_Hant", "Good morning.", env_extra=dirs)  # the model's own
    assert own.stdout == en_zh.translate("Good morning.", DecodeOptions(target="cmn_Hant")) + "\n"
    nothing = run("translate", "--source", "ja", "--target", "zh", "Hi.", env_extra=dirs)
    assert nothing.returncode == 2 and "no installed model translates ja into zh" in nothing.stderr


def test_chinese_asked_for_in_chinese_is_written_anew_by_opencc_not_a_model(tiny_pack, dirs, tmp_path):
    """--target zh-TW on Chinese: Taiwan's Traditional by OpenCC (not the en→zh pack's output), line by line
    beside English lines that the pack translates; the same for a document; 繁→简 with --target zh."""
    from fanyi import variants
    from fanyi.engine.options import DecodeOptions

    os.symlink(tiny_pack, os.path.join(dirs["FANYI_MODELS_DIR"], tiny_pack.name))
    chinese = "请观看关于软件更新的视频。"
    taiwan = variants.rewrite(chinese, "zh-TW")
    assert taiwan == "請觀看關於軟體更新的影片。"
    done = run("translate", "--target", "zh-TW", chinese, env_extra=dirs)
    assert (done.returncode, done.stdout) == (0, taiwan + "\n"), done.stderr
    assert run("translate", "--source", "zh", "--target", "zh-HK", chinese, env_extra=dirs).stdout == (
        variants.rewrite(chinese, "zh-HK") + "\n"
    )
    assert run("translate", "--target", "zh", stdin="請觀看關於軟體更新的影片。\n", env_extra=dirs).stdout == (
        "请观看关于软体更新的影片。\n"
    )
    mixed = run("translate", "--target", "zh-TW", stdin=f"Good morning.\n{chinese}\n", env_extra=dirs)
    english = Translator.open(tiny_pack, threads=1).translate("Good morning.", DecodeOptions(convert="zh-TW"))
    assert mixed.stdout == f"{english}\n{taiwan}\n", mixed.stderr
    with_model = run("translate", "--model", str(tiny_pack), "--target", "zh-TW", chinese, env_extra=dirs)
    assert with_model.stdout == taiwan + "\n"
    document = tmp_path / "notes.txt"
    document.write_text(f"{chinese}\n", encoding="utf-8")
    converted = run("file", str(document), "--target", "zh-TW", env_extra=dirs)
    assert converted.returncode == 0, converted.stderr
    assert (tmp_path / "notes.zh-TW.txt").read_text(encoding="utf-8") == taiwan + "\n"
    assert "translated: 1 of 1" in converted.stdout


def test_each_commands_usage_line_names_it_and_the_help_says_what_llm_packs_need():
    """The subcommands' usage read "usage: fanyi [--translate-clipboard | …] fanyi COMMAND ... translate"."""
    for command, usage in (
        (["translate"], "usage: fanyi translate [-h]"),
        (["file"], "usage: fanyi file [-h]"),
        (["models", "install"], "usage: fanyi models install [-h]"),
        (["serve"], "usage: fanyi serve [-h]"),
    ):
        shown = run(*command, "--help")
        assert shown.returncode == 0 and shown.stdout.startswith(usage), shown.stdout[:200]
    for command in ("translate", "file"):
        source_help = " ".join(run(command, "--help").stdout.split("--source")[-1].split())
        assert "translation LLM pack" in source_help and "require" in source_help


def test_models_list_get_from_a_hub_and_remove(tiny_hf_en_zh, dirs, monkeypatch):
    from fanyi.library.sources.localhub import LocalHub

    empty = run("models", "list", env_extra=dirs)
    assert "No translation model is installed" in empty.stdout
    with LocalHub() as hub:
        hub.add("Helsinki-NLP/opus-mt-en-zh", tiny_hf_en_zh)
        got = run(
            "models",
            "get",
            "Helsinki-NLP/opus-mt-en-zh",
            "--quantize",
            "none",
            env_extra={**dirs, "HF_ENDPOINT": hub.endpoint, "HF_HUB_OFFLINE": "", "NO_PROXY": "127.0.0.1"},
        )
    assert got.returncode == 0, got.stderr
    assert got.stdout.startswith("installed opus-mt-en-zh in ")
    listed = run("models", "list", env_extra=dirs)
    assert "opus-mt-en-zh" in listed.stdout and "en→zh" in listed.stdout and "user" in listed.stdout
    assert " none " in listed.stdout  # --quantize none
    translated = run("translate", "Hello.", env_extra=dirs)
    assert translated.returncode == 0 and translated.stdout.strip()
    assert run("models", "remove", "opus-mt-en-zh", env_extra=dirs).returncode == 0
    assert "No translation model" in run("models", "list", env_extra=dirs).stdout


def test_get_offline_is_one_clear_line(dirs):
    from packserver import closed_port_url

    def error_lines(result):  # progress lines ("asking huggingface.co for the model's files") aside
        return [line for line in result.stderr.splitlines() if line.startswith("fanyi:")]

    offline = run(
        "models", "get", "Helsinki-NLP/opus-mt-en-zh", "--from", "hf", env_extra={**dirs, "HF_HUB_OFFLINE": "1"}
    )
    [line] = error_lines(offline)
    assert offline.returncode == 2 and "HF_HUB_OFFLINE is set" in line and "Traceback" not in offline.stderr
    online = {**dirs, "HF_HUB_OFFLINE": ""}
    nothing = run("models", "get", "Helsinki-NLP/opus-mt-en-zh", "--from", closed_port_url(""), env_extra=online)
    [line] = error_lines(nothing)
    assert nothing.returncode == 2 and "no download source can be reached" in line
    bad = run("models", "get", "Helsinki-NLP/opus-mt-en-zh", "--from", "gitee", env_extra=dirs)
    assert bad.returncode == 2 and "unknown download source 'gitee'" in bad.stderr


def test_installing_the_default_pack_offline_is_one_line(dirs, tmp_path):
    """What `make run` does without a pack: the shipped recipe of opus-mt-en-zh, from the sources Settings →
    Downloads names (here a server that is not there); offline, one line, and nothing left."""
    from packserver import closed_port_url

    config = Path(dirs["FANYI_CONFIG_DIR"])
    config.mkdir(parents=True)
    (config / "settings.json").write_text(
        json.dumps({"download_source": "url", "download_source_url": closed_port_url("")}), encoding="utf-8"
    )
    result = run("models", "install", "opus-mt-en-zh", env_extra={**dirs, "HF_HUB_OFFLINE": ""})
    errors = [line for line in result.stderr.splitlines() if line.startswith("fanyi:")]
    assert result.returncode == 2 and len(errors) == 1 and "no download source can be reached" in errors[0]
    assert "Traceback" not in result.stderr and not (Path(dirs["FANYI_DATA_DIR"]) / "models").exists()


def shown_on_a_terminal(output: bytes) -> list[str]:
    """The lines a terminal shows for ``output``: a carriage return goes back to the start of the line, and what
    follows it is written over what was there."""
    lines = []
    for line in output.decode("utf-8", "replace").replace("\r\n", "\n").split("\n"):
        cells: list[str] = []
        for part in line.split("\r"):
            cells[: len(part)] = part
        if "".join(cells).strip():
            lines.append("".join(cells).rstrip())
    return lines


@pytest.mark.skipif(os.name == "nt", reason="a POSIX terminal")
def test_make_run_offline_says_so_in_one_line_on_a_terminal(dirs):
    """README: offline, `make run` (fanyi models install opus-mt-en-zh in a terminal) says so in one line: the
    progress it showed while asking each source is rubbed out once none answered."""
    import pty

    from packserver import closed_port_url

    code = (
        "import sys\nfrom fanyi.library.sources import order\n"
        f"order.MIRROR = {closed_port_url('')!r}\n"
        "from fanyi.cli import main\nsys.exit(main(['models', 'install', 'opus-mt-en-zh']))\n"
    )
    env = {
        **os.environ,
        **dirs,
        "HF_HUB_OFFLINE": "",
        "HF_ENDPOINT": closed_port_url(""),
        "MODELSCOPE_DOMAIN": closed_port_url(""),
    }
    terminal, child = pty.openpty()
    process = subprocess.Popen([sys.executable, "-c", code], stdin=child, stdout=child, stderr=child, env=env)
    os.close(child)
    output = b""
    while True:
        try:
            chunk = os.read(terminal, 4096)
        except OSError:  # EIO: the child closed the terminal
            break
        if not chunk:
            break
        output += chunk
    os.close(terminal)
    assert process.wait(timeout=300) == 2
    [line] = shown_on_a_terminal(output)
    assert line.startswith("fanyi: no download source can be reached"), output


def test_translate_without_a_model_says_how_to_get_one(dirs):
    result = run("translate", "Hello", env_extra=dirs)
    assert result.returncode == 2
    assert "fanyi models install opus-mt-en-zh" in result.stderr and "fanyi models import" in result.stderr
    assert "fetch" not in result.stderr


def test_import_zip_and_refuse_escaping_archive(tiny_pack, dirs, tmp_path):
    good = tmp_path / "pack.zip"
    with zipfile.ZipFile(good, "w") as zf:
        for f in tiny_pack.iterdir():
            zf.write(f, f"tiny/{f.name}")
    ok = run("models", "import", str(good), env_extra=dirs)
    assert ok.returncode == 0, ok.stderr
    evil = tmp_path / "evil.zip"
    with zipfile.ZipFile(evil, "w") as zf:
        zf.writestr("../outside.txt", "x")
    refused = run("models", "import", str(evil), env_extra=dirs)
    assert refused.returncode == 2 and "outside the pack folder" in refused.stderr
    assert not (tmp_path / "data" / "outside.txt").exists()


def test_import_damaged_pack_is_refused(tiny_pack, dirs, tmp_path):
    import shutil

    broken = shutil.copytree(tiny_pack, tmp_path / "broken")
    (broken / "vocab.json").write_text("{}", encoding="utf-8")
    result = run("models", "import", str(broken), env_extra=dirs)
    assert result.returncode == 2 and "vocab.json is damaged" in result.stderr


def test_validate_passes_for_its_model_and_fails_for_another(tiny_pack, tiny_hf_en_zh, tmp_path):
    good = run("validate", str(tiny_pack), "--reference", str(tiny_hf_en_zh))
    assert good.returncode == 0, good.stdout + good.stderr
    for label in ("top-1 agreement", "KL", "logits", "outputs identical"):
        assert label in good.stdout
    import shutil

    import torch
    from transformers import MarianMTModel

    other = shutil.copytree(tiny_hf_en_zh, tmp_path / "other")
    model = MarianMTModel.from_pretrained(other)
    with torch.no_grad():
        for p in model.parameters():
            p.add_(torch.randn_like(p) * 0.2)
    model.save_pretrained(other)
    bad = run("validate", str(tiny_pack), "--reference", str(other))
    assert bad.returncode == 1 and "FAIL" in bad.stdout


def test_validate_int8_reports_metrics(tiny_pack_int8, tiny_hf_en_zh):
    from fanyi.export.validate import validate_pack

    report = validate_pack(tiny_pack_int8, tiny_hf_en_zh)
    assert report.quantization == "int8"
    assert report.steps > 0 and 0.0 <= report.top1_agreement <= 1.0
    assert report.max_logit_diff > 0 and report.mean_kl >= 0


def test_export_refuses_a_folder_that_is_not_a_model(tmp_path):
    result = run("export", str(tmp_path), str(tmp_path / "out"))
    assert result.returncode == 2 and "config.json is missing" in result.stderr


def test_broken_packs_are_listed_not_fatal(tiny_pack, dirs, tmp_path):
    """A pack lacking a field, of wrong types, or of a graph ONNX Runtime cannot load: no command crashes."""
    from pack_damage import broken_copy, truncate

    user = tmp_path / "data" / "models"
    broken_copy(tiny_pack, user / "no-source", lambda m: m.pop("source_lang"))
    broken_copy(tiny_pack, user / "bad-size", lambda m: m["files"]["vocab.json"].update(size=None))
    broken_copy(tiny_pack, user / "no-arch", lambda m: m.pop("architecture"))
    cut = truncate(shutil.copytree(tiny_pack, tmp_path / "cut"), "encoder.onnx")
    doc = tmp_path / "doc.txt"
    doc.write_text("Hello.\n", encoding="utf-8")

    listed = run("models", "list", env_extra=dirs)
    assert listed.returncode == 0 and "Traceback" not in listed.stderr, listed.stderr
    rows = {line.split()[0]: line for line in listed.stdout.splitlines()[1:]}
    assert set(rows) == {"no-source", "bad-size", "no-arch"}
    assert "broken (" in rows["no-source"] and "source_lang is missing" in rows["no-source"]
    assert "files.vocab.json.size must be a whole number" in rows["bad-size"]
    assert "architecture is missing" in rows["no-arch"]

    for args in (
        ["translate", "Hello."],
        ["translate", "--model", "no-source", "Hello."],
        ["file", "--model", "bad-size", str(doc)],
        ["translate", "--model", str(cut), "Hello."],
        ["file", "--model", str(cut), str(doc)],
    ):
        result = run(*args, env_extra=dirs)
        assert result.returncode == 2 and "Traceback" not in result.stderr, (args, result.stderr)
        assert len(result.stderr.strip().splitlines()) == 1, result.stderr
    assert "No usable translation model is installed (3 broken" in run("translate", "Hi.", env_extra=dirs).stderr
    assert "source_lang is missing" in run("translate", "-m", "no-source", "Hi.", env_extra=dirs).stderr
    assert f"{cut / 'encoder.onnx'} cannot be loaded" in run("translate", "-m", str(cut), "Hi.", env_extra=dirs).stderr

    removed = run("models", "remove", "no-source", env_extra=dirs)
    assert removed.returncode == 0, removed.stderr
    assert not (user / "no-source").exists() and (user / "bad-size").exists()


def test_many_to_many_pack_export_and_translate(tiny_hf_many, tmp_path, dirs):
    """`fanyi export` of an mBART-50 folder, then `fanyi translate` with the model's own codes."""
    from fanyi.engine.options import DecodeOptions

    pack = tmp_path / "mbart50-pack"
    exported = run("export", str(tiny_hf_many("mbart50")), str(pack), "--quantize", "none")
    assert exported.returncode == 0, exported.stderr
    assert "converting layer 1/4\n" in exported.stderr and "converting layer 4/4\n" in exported.stderr
    expected = Translator.open(pack, threads=1)
    done = run("translate", "--model", str(pack), "--source", "en_XX", "--target", "zh_CN", "Good morning.")
    assert done.returncode == 0, done.stderr
    assert done.stdout == expected.translate("Good morning.", DecodeOptions(source="en_XX", target="zh_CN")) + "\n"
    streamed = run("translate", "--model", str(pack), "--source", "fr_XX", "--stream", "Bonjour.")
    assert streamed.stdout == expected.translate("Bonjour.", DecodeOptions(source="fr_XX")) + "\n"
    missing = run("translate", "--model", str(pack), "Good morning.")
    assert missing.returncode == 2
    assert missing.stderr.startswith("fanyi: ") and "--source" in missing.stderr and "Traceback" not in missing.stderr
    wrong = run("translate", "--model", str(pack), "--source", "en", "Hi.")
    assert wrong.returncode == 2 and "'en' is not offered" in wrong.stderr
    assert run("models", "import", str(pack), env_extra=dirs).returncode == 0
    listed = run("models", "list", env_extra=dirs)
    assert "hf-mbart50" in listed.stdout and "52 langs" in listed.stdout  # named after the folder


def test_export_refuses_an_unknown_architecture_in_one_line(tmp_path):
    folder = tmp_path / "bert"
    folder.mkdir()
    (folder / "config.json").write_text('{"model_type": "bert", "architectures": ["BertForMaskedLM"]}')
    done = run("export", str(folder), str(tmp_path / "out"))
    assert done.returncode == 2
    assert "BertForMaskedLM is not supported" in done.stderr and "Traceback" not in done.stderr


def test_help_lists_the_app_options_settings_point_to():
    result = run("--help")
    assert result.returncode == 0
    assert "--translate-clipboard" in result.stdout and "--tray" in result.stdout
    assert "Without a command, fanyi opens the desktop app" in " ".join(result.stdout.split())


@pytest.mark.parametrize(("typed", "meant"), [("translte", "translate"), ("model", "models"), ("srve", "serve")])
def test_a_mistyped_command_is_an_error_naming_the_closest_one(dirs, typed, meant):
    # offscreen: were the app opened instead, it would wait for a window that nobody closes
    result = subprocess.run(
        [sys.executable, "-m", "fanyi", typed, "hello"],
        capture_output=True,
        text=True,
        env=dict(os.environ, QT_QPA_PLATFORM="offscreen", **dirs),
        timeout=60,
    )
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"fanyi: `{typed}` is not a command; did you mean `fanyi {meant}`? (`fanyi` alone opens the app.)"
    ]
    unrelated = run("xyzzy", env_extra=dirs)
    assert unrelated.returncode == 2 and "see `fanyi --help`" in unrelated.stderr


@pytest.mark.parametrize("family, source", [("marian", None), ("m2m100", "en"), ("nllb", "eng_Latn"), ("llm", "en")])
def test_taiwan_and_hong_kong_traditional_from_every_pack_that_writes_chinese(
    family, source, tiny_pack, tiny_many_pack, tiny_llm_pack
):
    """--target zh-TW / zh-HK with --model: the pack's Simplified, converted by OpenCC (fanyi.variants);
    a translation LLM pack (HY-MT1.5's architecture) lists zh and zh-Hant, and zh is the one converted."""
    from fanyi import variants
    from fanyi.engine.options import DecodeOptions

    packs = {"marian": lambda: tiny_pack, "llm": lambda: tiny_llm_pack("hunyuan")}
    pack = packs.get(family, lambda: tiny_many_pack(family))()
    simplified = {"marian": "cmn_Hans", "m2m100": "zh", "nllb": "zho_Hans", "llm": "zh"}[family]
    translator = Translator.open(pack, threads=1)
    text = "Please watch the video about the software update."
    plain = translator.translate(text, DecodeOptions(source=source, target=simplified))
    for region in variants.REGIONS:
        args = ["translate", "--model", str(pack), "--target", region, *(["--source", source] if source else []), text]
        done = run(*args)
        assert done.returncode == 0, done.stderr
        assert done.stdout == variants.convert(plain, region) + "\n"


def test_file_writes_taiwans_traditional_under_its_own_name_and_plain_progress_off_a_terminal(tiny_pack, tmp_path):
    from fanyi import variants
    from fanyi.engine.options import DecodeOptions

    source = tmp_path / "notes.txt"
    source.write_text("Please watch the video.\nThe software needs an update.\n", encoding="utf-8")
    done = run("file", str(source), "--model", str(tiny_pack), "--target", "zh-TW")
    assert done.returncode == 0, done.stderr
    translator = Translator.open(tiny_pack, threads=1)
    written = (tmp_path / "notes.zh-TW.txt").read_text(encoding="utf-8")
    expected = [
        variants.convert(translator.translate(line, DecodeOptions(target="cmn_Hans")), "zh-TW")
        for line in ("Please watch the video.", "The software needs an update.")
    ]
    assert written.splitlines() == expected
    # stderr is a pipe here: progress as plain lines, no carriage returns piling up in a log
    lines = done.stderr.splitlines()
    assert "\r" not in done.stderr and lines[-1] == "notes.txt: 1/1" and len(lines) <= 11, done.stderr


def test_every_argument_of_every_command_says_what_it_is():
    """`fanyi export --help` listed hf_dir, out_dir, --name and --overwrite with no word about them."""
    import argparse

    from fanyi.cli import build_parser

    def silent(parser: argparse.ArgumentParser, command: str) -> list[str]:
        found = []
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found += silent(sub, f"{command} {name}")
            elif not action.help and not isinstance(action, argparse._HelpAction):
                found.append(f"{command} {'/'.join(action.option_strings) or action.dest}")
        return found

    assert silent(build_parser(), "fanyi") == []
    shown = run("export", "--help").stdout
    assert "a Hugging Face model folder" in shown and "replace OUT_DIR" in shown
