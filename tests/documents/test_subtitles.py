from fanyi.documents import translate_document

SRT = (
    "1\n"
    "00:00:01,000 --> 00:00:03,500\n"
    "Hello there,\n"
    "how are you?\n"
    "\n"
    "2\n"
    "00:00:04,000 --> 00:00:05,000 X1:10 X2:20\n"
    "<i>I am fine.</i>\n"
    "\n"
    "3\n"
    "00:00:06,000 --> 00:00:07,000\n"
    "1984\n"
)

VTT = (
    "WEBVTT - Fanyi test\n"
    "\n"
    "NOTE This note\n"
    "is not a cue.\n"
    "\n"
    "STYLE\n"
    "::cue { color: yellow }\n"
    "\n"
    "intro\n"
    "00:01.000 --> 00:03.000 align:start position:10%\n"
    "<v Bob>Welcome to\n"
    "the show.</v>\n"
    "\n"
    "00:04.000 --> 00:05.000\n"
    "{\\an8}Goodbye!\n"
)


def run(tmp_path, translator, name, text, **kwargs):
    src = tmp_path / name
    src.write_text(text, encoding="utf-8")
    result = translate_document(src, translator, **kwargs)
    return result, result.output.read_text(encoding="utf-8")


def test_srt_keeps_indices_and_timings_and_joins_a_cue(tmp_path, translator):
    result, out = run(tmp_path, translator, "film.srt", SRT)
    assert out == (
        "1\n00:00:01,000 --> 00:00:03,500\n⟦HELLO THERE, HOW ARE YOU?⟧\n\n"
        "2\n00:00:04,000 --> 00:00:05,000 X1:10 X2:20\n<i>⟦I AM FINE.⟧</i>\n\n"
        "3\n00:00:06,000 --> 00:00:07,000\n1984\n"
    )
    assert result.output.name == "film.zh.srt"
    assert [e.where for e in result.report.kept] == ["cue 3"]


def test_vtt_keeps_header_notes_styles_settings_and_voice_tags(tmp_path, translator):
    _, out = run(tmp_path, translator, "talk.vtt", VTT)
    assert out == VTT.replace("<v Bob>Welcome to\nthe show.</v>", "<v Bob>⟦WELCOME TO THE SHOW.⟧</v>").replace(
        "{\\an8}Goodbye!", "{\\an8}⟦GOODBYE!⟧"
    )
    assert sorted(translator.texts) == ["Goodbye!", "Welcome to the show."]


def test_bilingual_cues_show_the_original_lines_then_the_translation(tmp_path, translator):
    _, out = run(tmp_path, translator, "film.srt", SRT, bilingual=True)
    assert "Hello there,\nhow are you?\n⟦HELLO THERE, HOW ARE YOU?⟧\n\n2\n" in out
    assert "<i>I am fine.</i>\n<i>⟦I AM FINE.⟧</i>\n" in out


def test_text_inside_a_tag_pair_is_styled_for_a_formatted_translation():
    from fanyi.documents.inline import marked_text
    from fanyi.documents.subtitles import tag_pieces

    assert marked_text(tag_pieces("He said <i>never</i> again.")) == "He said <sn>never</sn> again."
    assert marked_text(tag_pieces("No tags here.")) is None
