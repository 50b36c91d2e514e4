import pytest

from fanyi.documents.policy import keep_reason


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("42", "numbers or symbols only"),
        ("3.14 — 2024-01-01", "numbers or symbols only"),
        ("https://example.com/a?b=1", "code or URL"),
        ("foo_bar()", "code or URL"),
        ("if (x) { y = f(x); }", "code or URL"),
        ("这是中文。", "already Chinese"),
        ("Hello world.", None),
        ("e.g.", None),
        ("ƀ", "a letter alone"),
        ("Ǆ", "a letter alone"),
        ("(A)", "a letter alone"),
        ("好", "already Chinese"),
        ("Lj", None),
        ("The 中文 word", None),
    ],
)
def test_keep_reason_for_chinese_target(text, reason):
    assert keep_reason(text, "zh") == reason


def test_target_script_follows_the_target():
    assert keep_reason("Hello world.", "en") == "already in Latin script"
    assert keep_reason("这是中文。", "en") is None
    assert keep_reason("这是中文。", "cmn_Hans") == "already Chinese"
