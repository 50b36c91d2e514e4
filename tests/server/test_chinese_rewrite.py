"""Chinese asked for in Chinese (简→繁, 繁→简) is written anew by OpenCC, no model: through DeepL's and
LibreTranslate's real clients, DeepLX's JSON, the stream and the document APIs. The server's opener
refuses to open any pack, so an answer that needed a model would fail."""

from __future__ import annotations

import io

import deepl
import pytest
import requests
from libretranslatepy import LibreTranslateAPI
from test_stream import events

from fanyi import variants

SIMPLIFIED = "请观看关于软件更新的视频。这个打印机的缓存满了。"
TRADITIONAL = "請觀看關於軟件更新的視頻。"
TIMEOUT = 60


def no_model(path):
    raise AssertionError(f"a model was opened for a conversion: {path}")


@pytest.fixture
def server(serve, tiny_pack, tiny_pack_zh_en):
    return serve([tiny_pack, tiny_pack_zh_en], opener=no_model)


def test_libretranslate_writes_chinese_anew_in_the_way_asked_for(server):
    client = LibreTranslateAPI(server.address)
    taiwan = variants.rewrite(SIMPLIFIED, "zh-TW")
    assert "軟體" in taiwan and "影片" in taiwan and "印表機" in taiwan  # Taiwan's words, not only its characters
    for source in ("auto", "zh", "zh-Hans"):
        assert client.translate(SIMPLIFIED, source, "zh-TW") == taiwan
        assert client.translate(SIMPLIFIED, source, "zh-Hant") == taiwan
    assert client.translate(SIMPLIFIED, "auto", "zh-HK") == variants.rewrite(SIMPLIFIED, "zh-HK")
    assert client.translate(TRADITIONAL, "auto", "zh") == "请观看关于软件更新的视频。"  # 繁→简
    answer = requests.post(
        f"{server.address}/translate", json={"q": [SIMPLIFIED, TRADITIONAL], "target": "zh-TW"}, timeout=TIMEOUT
    ).json()
    assert answer["translatedText"] == [taiwan, "請觀看關於軟體更新的影片。"]


def test_deepl_client_and_deeplx_json_get_traditional(server):
    client = deepl.Translator("any-key", server_url=server.address)
    result = client.translate_text(SIMPLIFIED, target_lang="ZH-HANT")
    assert result.text == variants.rewrite(SIMPLIFIED, "zh-TW") and result.detected_source_lang == "ZH"
    assert client.translate_text(TRADITIONAL, source_lang="ZH", target_lang="ZH-HANS").text.startswith("请观看")
    body = requests.post(
        f"{server.address}/translate",
        json={"text": SIMPLIFIED, "source_lang": "ZH", "target_lang": "ZH-HANT"},
        timeout=TIMEOUT,
    ).json()
    assert body["code"] == 200 and body["data"] == variants.rewrite(SIMPLIFIED, "zh-TW")


def test_the_stream_writes_chinese_anew(server):
    answer = requests.post(
        f"{server.address}/stream", json={"q": SIMPLIFIED, "source": "auto", "target": "zh-TW"}, timeout=TIMEOUT
    )
    assert events(answer.text)[-1] == ("done", {"translatedText": variants.rewrite(SIMPLIFIED, "zh-TW")})


def test_a_chinese_document_asked_for_in_traditional_is_written_anew(server, tmp_path):
    source = tmp_path / "notes.txt"
    source.write_text(f"{SIMPLIFIED}\n\n第二段：软件。\n", encoding="utf-8")
    output = io.BytesIO()
    with source.open("rb") as document:
        status = deepl.Translator("k", server_url=server.address).translate_document(
            document, output, target_lang="ZH-HANT"
        )
    assert status.done and status.billed_characters == len(SIMPLIFIED) + len("第二段：软件。")
    assert output.getvalue().decode("utf-8") == f"{variants.rewrite(SIMPLIFIED, 'zh-TW')}\n\n第二段：軟體。\n"


def test_with_no_model_installed_chinese_is_still_written_anew_and_anything_else_says_why(serve):
    server = serve([], opener=no_model)
    client = LibreTranslateAPI(server.address)
    assert client.translate(SIMPLIFIED, "auto", "zh-TW") == variants.rewrite(SIMPLIFIED, "zh-TW")
    result = deepl.Translator("any-key", server_url=server.address).translate_text(SIMPLIFIED, target_lang="ZH-HANT")
    assert result.text == variants.rewrite(SIMPLIFIED, "zh-TW")
    english = requests.post(
        f"{server.address}/translate", json={"q": "Good morning.", "target": "zh-TW"}, timeout=TIMEOUT
    )
    assert english.status_code == 503 and "no translation model is installed" in english.json()["error"]
