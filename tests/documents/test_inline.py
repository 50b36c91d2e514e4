from fanyi.documents.inline import Kind, Piece, distribute, render, source_text


def test_distribute_gives_every_piece_a_share_and_loses_nothing():
    pieces = [Piece("Hello "), Piece("bold"), Piece(" world")]
    shares = distribute("你好粗体世界", pieces)
    assert "".join(shares) == "你好粗体世界"
    assert all(shares)


def test_shares_follow_the_source_proportions():
    pieces = [Piece("a" * 30), Piece("b" * 10)]
    shares = distribute("x" * 40, pieces)
    assert [len(s) for s in shares] == [30, 10]


def test_a_cut_never_splits_a_latin_word():
    pieces = [Piece("one two"), Piece("three four")]
    shares = distribute("alpha beta gamma delta", pieces)
    assert "".join(shares) == "alpha beta gamma delta"
    words = set("alpha beta gamma delta".split())
    for share in shares:
        assert set(share.split()) <= words


def test_whitespace_only_pieces_get_nothing_and_edges_keep_their_whitespace():
    pieces = [Piece("\n  Hello"), Piece(" "), Piece("world\n")]
    shares = distribute("你好世界", pieces)
    assert shares[0].startswith("\n  ") and shares[2].endswith("\n")
    assert shares[1] == ""
    assert "".join(shares).strip() == "你好世界"


def test_kept_pieces_are_found_and_not_doubled():
    pieces = [Piece("Run "), Piece("pip install", Kind.KEEP), Piece(" now.")]
    shares = distribute("现在运行 pip install 吧。", pieces)
    assert shares == ["现在运行 ", " 吧。"]
    assert render(pieces, "现在运行 pip install 吧。") == "现在运行 pip install 吧。"


def test_a_kept_piece_missing_from_the_translation_leaves_all_of_it_to_the_text():
    pieces = [Piece("Run "), Piece("pip", Kind.KEEP), Piece(" now.")]
    assert "".join(distribute("立即运行", pieces)) == "立即运行"


def test_text_before_a_leading_kept_piece_moves_to_the_next_text_piece():
    pieces = [Piece("foo()", Kind.KEEP), Piece(" returns a list")]
    assert distribute("返回 foo() 的列表", pieces) == ["返回的列表"]


def test_render_writes_markup_as_it_was():
    pieces = [Piece("", Kind.SEP, "**"), Piece("Note:"), Piece("", Kind.SEP, "**"), Piece(" read this")]
    assert source_text(pieces) == "Note: read this"
    out = render(pieces, "注意：请阅读")
    assert out.startswith("**") and out.count("**") == 2
    assert out.replace("**", "") == "注意：请阅读"


def test_more_pieces_than_characters_still_loses_nothing():
    pieces = [Piece("a"), Piece("b"), Piece("c")]
    assert "".join(distribute("好", pieces)) == "好"


def test_a_translation_that_came_back_unchanged_keeps_every_piece_as_it_was():
    pieces = [Piece("world", Kind.TEXT), Piece(", "), Piece("link")]
    assert distribute("world, link", pieces) == ["world", ", ", "link"]
    # the same words with other spacing are unchanged too (the HTML unit joins whitespace)
    assert distribute("world,  link ", [Piece("world"), Piece(",\n "), Piece("link")]) == ["world", ",\n ", "link"]


def test_styled_pieces_are_marked_for_a_formatted_translation_and_read_back_from_its_marks():
    from fanyi.documents.inline import marked_text

    pieces = [Piece("Hello "), Piece("bold world", styled=True), Piece(", and "), Piece("a link", styled=True)]
    assert marked_text(pieces) == "Hello <sn>bold world</sn>, and <sn>a link</sn>"
    # HY-MT1.5's answer: the marks where it placed them, wrapped <target>…</target>
    translation = "<target>你好<sn>粗体世界</sn>，以及<sn>一个链接</sn></target>"
    assert distribute(translation, pieces) == ["你好", "粗体世界", "，以及", "一个链接"]
    # where the words moved, each mark still holds its own piece's words; text after the last mark, with no
    # piece of its own, stays with it
    assert distribute("<target><sn>粗体世界</sn>你好，<sn>链接</sn>也是</target>", pieces) == [
        "",
        "粗体世界",
        "你好，",
        "链接也是",
    ]


def test_a_translation_that_lost_or_added_marks_is_shared_without_them():
    pieces = [Piece("Hello "), Piece("bold world", styled=True), Piece(".")]
    for translation in ("<target>你好粗体世界。</target>", "你好<sn>粗体</sn><sn>世界</sn>。", "你好<sn>粗体世界。"):
        shares = distribute(translation, pieces)
        assert "".join(shares) == "你好粗体世界。" and "<" not in "".join(shares), translation


def test_no_marks_where_nothing_is_styled_a_piece_is_kept_or_the_text_holds_the_tags():
    from fanyi.documents.inline import marked_text

    assert marked_text([Piece("Hello "), Piece("world")]) is None
    assert marked_text([Piece("Run "), Piece("pip", Kind.KEEP), Piece(" now", styled=True)]) is None
    assert marked_text([Piece("a <sn> b "), Piece("c", styled=True)]) is None
    # a translation of an unmarked block is never read for marks
    assert distribute("<sn>x</sn>", [Piece("Hello "), Piece("world")]) == ["<sn>x", "</sn>"]
