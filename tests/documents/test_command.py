import argparse

import pytest
from docfixtures import FakeTranslator, mark

from fanyi.documents import command


def cli(argv, translator=None):
    parser = argparse.ArgumentParser(prog="fanyi file")
    command.add_arguments(parser)
    args = parser.parse_args([str(a) for a in argv])
    made = []

    def factory():
        made.append(translator or FakeTranslator())
        return made[-1]

    return command.run(args, factory), made


@pytest.fixture
def files(tmp_path):
    (tmp_path / "a.txt").write_text("Hello there.\n", encoding="utf-8")
    (tmp_path / "b.md").write_text("# Title\n\nText.\n", encoding="utf-8")
    (tmp_path / "c.srt").write_text("1\n00:00:01,000 --> 00:00:02,000\nHi!\n", encoding="utf-8")
    return [tmp_path / "a.txt", tmp_path / "b.md", tmp_path / "c.srt"]


def test_several_files_in_one_call(files, tmp_path, capsys):
    code, made = cli(files)
    out, err = capsys.readouterr()
    assert code == 0 and len(made) == 1  # one model for all files
    assert (tmp_path / "a.zh.txt").read_text(encoding="utf-8") == mark("Hello there.") + "\n"
    assert (tmp_path / "b.zh.md").read_text(encoding="utf-8") == f"# {mark('Title')}\n\n{mark('Text.')}\n"
    assert mark("Hi!") in (tmp_path / "c.zh.srt").read_text(encoding="utf-8")
    assert out.count("translated:") == 3 and "a.zh.txt" in out
    assert "a.txt: 1/1" in err.splitlines() and "\r" not in err  # stderr is no terminal here: plain lines


def test_the_progress_bar_is_drawn_only_on_a_terminal():
    import io

    from fanyi.documents.command import ProgressBar

    class Terminal(io.StringIO):
        def isatty(self) -> bool:
            return True

    shown, logged = Terminal(), io.StringIO()
    for stream in (shown, logged):
        bar = ProgressBar(stream, "a.txt")
        for done in range(101):
            bar(done, 100)
        bar.close()
    assert shown.getvalue().startswith("\ra.txt [") and shown.getvalue().endswith("] 100/100\n")
    assert logged.getvalue().splitlines() == [f"a.txt: {n}/100" for n in range(0, 101, 10)]


def test_a_bad_file_is_reported_and_the_others_still_translated(files, tmp_path, capsys):
    (tmp_path / "bad.docx").write_bytes(b"not a zip")
    code, _ = cli([files[0], tmp_path / "bad.docx", tmp_path / "missing.txt"])
    _, err = capsys.readouterr()
    assert code == 1
    assert "bad.docx is not a valid Word document" in err and "missing.txt does not exist" in err
    assert (tmp_path / "a.zh.txt").exists() and not list(tmp_path.glob("bad.zh*"))


def test_the_model_is_not_loaded_when_no_input_can_be_read(tmp_path, capsys):
    code, made = cli([tmp_path / "x.xlsx"])
    assert code == 1 and made == []
    assert "x.xlsx is not a supported document" in capsys.readouterr().err


def test_output_file_and_folder(files, tmp_path, capsys):
    code, _ = cli([files[0], "-o", tmp_path / "chosen.txt"])
    assert code == 0 and (tmp_path / "chosen.txt").read_text(encoding="utf-8") == mark("Hello there.") + "\n"
    folder = tmp_path / "out"
    folder.mkdir()
    code, _ = cli([*files, "-o", folder])
    assert code == 0 and sorted(p.name for p in folder.iterdir()) == ["a.zh.txt", "b.zh.md", "c.zh.srt"]


def test_output_must_be_a_folder_for_several_inputs(files, tmp_path, capsys):
    code, made = cli([*files, "-o", tmp_path / "one.txt"])
    assert code == 2 and made == []
    assert "-o must name an existing folder" in capsys.readouterr().err


def test_bilingual_and_target_reach_the_job(files, tmp_path, capsys):
    translator = FakeTranslator()
    code, _ = cli([files[0], "--bilingual", "--target", "cmn_Hant"], translator)
    assert code == 0
    written = (tmp_path / "a.cmn_Hant.bilingual.txt").read_text(encoding="utf-8")
    assert written == "Hello there.\n" + mark("Hello there.") + "\n"
    assert translator.options[0].target == "cmn_Hant"


def test_failed_units_make_a_non_zero_exit_with_the_reason_shown(tmp_path, capsys):
    (tmp_path / "a.txt").write_text("Fine.\n\nBroken one.\n", encoding="utf-8")
    translator = FakeTranslator()
    translator.fail_on = {"Broken"}
    code, _ = cli([tmp_path / "a.txt"], translator)
    out, _ = capsys.readouterr()
    assert code == 1 and "failed: 1" in out and "Broken one." in out and "RuntimeError" in out


@pytest.mark.parametrize(
    ("argv", "inputs", "bilingual", "to"),
    [
        (["a.pdf", "--bilingual"], ["a.pdf"], "side", None),
        (["a.pdf", "--bilingual", "alternate"], ["a.pdf"], "alternate", None),
        (["--bilingual", "a.pdf", "b.pdf"], ["a.pdf", "b.pdf"], "side", None),  # a file after it is no layout
        (["a.pdf", "--to", "docx"], ["a.pdf"], None, "docx"),
    ],
)
def test_a_pdfs_bilingual_layout_and_output_kind(argv, inputs, bilingual, to):
    parser = argparse.ArgumentParser(prog="fanyi file")
    command.add_arguments(parser)
    args = parser.parse_args(argv)
    assert [p.name for p in [*args.named_after_bilingual, *args.inputs]] == inputs
    assert (args.bilingual, args.to) == (bilingual, to)


def test_alternating_pages_and_docx_reach_the_job(tmp_path, capsys):
    import pikepdf
    from docfixtures import make_pdf

    (tmp_path / "a.pdf").write_bytes(make_pdf([["One page of text."], ["And a second one."]]))
    code, _ = cli([tmp_path / "a.pdf", "--bilingual", "alternate"])
    assert code == 0
    with pikepdf.open(tmp_path / "a.zh.bilingual.pdf") as pdf:
        assert len(pdf.pages) == 4  # each original page before its translation
    code, _ = cli([tmp_path / "a.pdf", "--to", "docx"])
    assert code == 0 and (tmp_path / "a.zh.docx").is_file()
    (tmp_path / "a.txt").write_text("Hello there.\n", encoding="utf-8")
    capsys.readouterr()
    code, made = cli([tmp_path / "a.txt", "--to", "docx"])
    assert code == 1 and "cannot be written as docx" in capsys.readouterr().err
    assert made == []  # refused before a model is loaded
