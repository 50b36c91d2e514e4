"""Outputs: nothing replaced that is not ours, two jobs never share a name, nothing left behind."""

from __future__ import annotations

import os
import threading
import time

import pytest
from docfixtures import FakeTranslator, leftovers, mark
from test_command import cli

from fanyi import fsutil
from fanyi.documents import NotWritable, translate_document


def write(tmp_path, name, text):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_an_existing_output_file_is_replaced_only_with_overwrite(tmp_path, translator, capsys):
    src = write(tmp_path, "a.txt", "Hello there.\n")
    mine = write(tmp_path, "mine.txt", "my own notes")
    with pytest.raises(NotWritable, match="mine.txt already exists; .*--overwrite"):
        translate_document(src, translator, dst=mine)
    assert mine.read_text() == "my own notes" and translator.calls == []
    code, _ = cli([src, "-o", mine])
    assert code == 1 and "mine.txt already exists" in capsys.readouterr().err
    assert mine.read_text() == "my own notes"
    code, _ = cli([src, "-o", mine, "--overwrite"])
    assert code == 0 and mine.read_text(encoding="utf-8") == mark("Hello there.") + "\n"
    assert leftovers(tmp_path) == []


def test_two_jobs_on_one_source_write_two_outputs(tmp_path):
    src = write(tmp_path, "c.txt", "Hello there.\n")
    both_translating = threading.Barrier(2, timeout=30)

    def translate(text):
        both_translating.wait()  # each job has chosen c.zh.txt as its name by now
        return mark(text)

    results = []

    def job():
        results.append(translate_document(src, FakeTranslator(translate)))

    jobs = [threading.Thread(target=job) for _ in range(2)]
    for job in jobs:
        job.start()
    for job in jobs:
        job.join(60)
    assert sorted(r.output.name for r in results) == ["c.zh.1.txt", "c.zh.txt"]
    assert all(r.output.read_text(encoding="utf-8") == mark("Hello there.") + "\n" for r in results)
    assert leftovers(tmp_path) == []


def test_a_name_taken_while_translating_is_not_replaced(tmp_path):
    src = write(tmp_path, "c.txt", "Hello there.\n")

    def translate(text):
        (tmp_path / "c.zh.txt").write_text("another program got here first")
        return mark(text)

    result = translate_document(src, FakeTranslator(translate))
    assert result.output.name == "c.zh.1.txt"
    assert (tmp_path / "c.zh.txt").read_text() == "another program got here first"
    chosen = tmp_path / "chosen.txt"

    def take_chosen(text):
        chosen.write_text("theirs")
        return mark(text)

    with pytest.raises(NotWritable, match="chosen.txt was created by someone else while translating"):
        translate_document(src, FakeTranslator(take_chosen), dst=chosen)
    assert chosen.read_text() == "theirs" and leftovers(tmp_path) == []


def test_a_job_sweeps_the_temporaries_a_killed_job_left_in_its_folder(tmp_path, translator):
    src = write(tmp_path, "a.txt", "Hello there.\n")
    stale = tmp_path / f".a.zh.txt.0123456789ab{fsutil.TEMP_SUFFIX}"
    stale.write_text("half a translation from a job that was killed")
    os.utime(stale, (time.time() - 3600, time.time() - 3600))
    translate_document(src, translator)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["a.txt", "a.zh.txt"]
