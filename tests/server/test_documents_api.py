"""Documents over the API: DeepL's document API as deepl.Translator.translate_document uses it, and
LibreTranslate's /translate_file + /download_file; the output is what `fanyi file` writes."""

from __future__ import annotations

import io
import urllib.parse
from pathlib import Path

import deepl
import pytest
import requests

from fanyi import limits
from fanyi.documents import translate_document
from fanyi.engine.options import DecodeOptions

TIMEOUT = 120
TEXT = "The weather is fine today.\n\nWhere is the station?\n"


@pytest.fixture
def en_zh(serve, tiny_pack):
    return serve([tiny_pack])


def expected_output(tmp_path: Path, tiny_translator, name: str, content: bytes, target: str = "cmn_Hans") -> bytes:
    """What the documents' code writes for this file with the reference translator."""
    folder = tmp_path / "reference"
    folder.mkdir(exist_ok=True)
    source = folder / name
    source.write_bytes(content)
    return translate_document(source, tiny_translator, options=DecodeOptions(target=target)).output.read_bytes()


def docx_bytes() -> bytes:
    import docx

    document = docx.Document()
    document.add_paragraph("The weather is fine today.")
    document.add_paragraph("Thank you very much.")
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


@pytest.mark.parametrize("name, content", [("notes.txt", TEXT.encode()), ("report.docx", None)])
def test_deepl_translate_document(en_zh, tiny_translator, tmp_path, name, content):
    content = content or docx_bytes()
    client = deepl.Translator("k", server_url=en_zh.address)
    output = io.BytesIO()
    (tmp_path / name).write_bytes(content)
    with (tmp_path / name).open("rb") as document:  # as users call it: the upload is named after the file
        status = client.translate_document(document, output, target_lang="ZH-HANS")
    assert status.done and status.billed_characters > 0
    if name.endswith(".txt"):
        assert output.getvalue() == expected_output(tmp_path, tiny_translator, name, content)
    else:  # a .docx is a zip with dates in it: compare its text
        import docx

        got = [p.text for p in docx.Document(io.BytesIO(output.getvalue())).paragraphs]
        want = [
            p.text
            for p in docx.Document(io.BytesIO(expected_output(tmp_path, tiny_translator, name, content))).paragraphs
        ]
        assert got == want and got[0]


def test_deepl_document_errors_name_the_clients_file(en_zh, monkeypatch, tmp_path):
    monkeypatch.setattr(deepl.http_client, "max_network_retries", 0)
    client = deepl.Translator("k", server_url=en_zh.address)
    (tmp_path / "numbers.txt").write_text("12345\n")
    with (
        (tmp_path / "numbers.txt").open("rb") as document,
        pytest.raises(deepl.DocumentTranslationException, match="numbers.txt has nothing to translate") as error,
    ):
        client.translate_document(document, io.BytesIO(), target_lang="ZH")
    assert "fanyi-api-" not in str(error.value)  # where the server keeps it is not the client's business
    with pytest.raises(deepl.DeepLException, match="is not a document Fanyi translates"):
        client.translate_document_upload(b"x", target_lang="ZH", filename="image.png")
    with pytest.raises(deepl.DeepLException, match="output_format=pdf cannot be made"):
        client.translate_document_upload(b"Hello.", target_lang="ZH", filename="a.txt", output_format="pdf")


def test_deepl_status_and_result_need_the_documents_key(en_zh):
    client = deepl.Translator("k", server_url=en_zh.address)
    handle = client.translate_document_upload(TEXT.encode(), target_lang="ZH", filename="a.txt")
    assert client.translate_document_wait_until_done(handle).done
    wrong = deepl.DocumentHandle(handle.document_id, "0" * 32)
    with pytest.raises(deepl.DeepLException, match="no such document"):
        client.translate_document_get_status(wrong)
    answer = requests.post(
        f"{en_zh.address}/v2/document/{handle.document_id}/result",
        json={"document_key": wrong.document_key},
        timeout=TIMEOUT,
    )
    assert answer.status_code == 404 and "no such document" in answer.json()["message"]


def upload(server, name: str, content: bytes, **fields) -> requests.Response:
    return requests.post(
        server.address + "/translate_file",
        files={"file": (name, content)},
        data={"source": "en", "target": "zh", **fields},
        timeout=TIMEOUT,
    )


def test_libretranslate_translate_file_and_download_file(en_zh, tiny_translator, tmp_path):
    answer = upload(en_zh, "../../notes from 北京.txt", TEXT.encode())  # a path in the name: only its name is used
    assert answer.status_code == 200
    url = answer.json()["translatedFileUrl"]
    assert url.startswith(en_zh.address + "/download_file/")
    assert urllib.parse.unquote(url).endswith(".notes from 北京.zh.txt")
    download = requests.get(url, timeout=TIMEOUT)
    assert download.status_code == 200
    assert download.content == expected_output(tmp_path, tiny_translator, "notes.txt", TEXT.encode())
    assert "notes%20from%20%E5%8C%97%E4%BA%AC.zh.txt" in download.headers["content-disposition"]
    assert requests.get(en_zh.address + "/download_file/0123.notes.zh.txt", timeout=TIMEOUT).status_code == 404


def test_libretranslate_file_errors_are_400_in_its_shape(en_zh):
    for answer, words in (
        (upload(en_zh, "empty.txt", b"   \n"), "empty.txt has nothing to translate"),
        (upload(en_zh, "x.exe", b"MZ"), "is not a document Fanyi translates"),
        (upload(en_zh, "a.txt", b"Hi.", target=""), "target is required"),
        (requests.post(en_zh.address + "/translate_file", json={"q": "x"}, timeout=TIMEOUT), "multipart/form-data"),
    ):
        assert answer.status_code == 400 and words in answer.json()["error"], answer.text
    settings = requests.get(en_zh.address + "/frontend/settings", timeout=TIMEOUT).json()
    assert settings["filesTranslation"] is True and ".docx" in settings["supportedFilesFormat"]


@pytest.mark.parametrize(
    "name", ["CON.txt", "..", "nul", "bill\u202etxt.docx", "report?.txt", "翻" * 67 + ".txt"], ids=range(6)
)
def test_a_document_name_that_cannot_be_a_file_name_is_refused_in_each_protocols_shape(en_zh, name, monkeypatch):
    """The translation is downloaded under the client's name (fanyi.names): one that cannot be a file name is
    refused with a 400 in the protocol's shape, and nothing is kept."""
    refused = upload(en_zh, name, TEXT.encode())
    assert refused.status_code == 400 and "cannot be a file or folder name" in refused.json()["error"], refused.text
    monkeypatch.setattr(deepl.http_client, "max_network_retries", 0)
    client = deepl.Translator("k", server_url=en_zh.address)
    with pytest.raises(deepl.DeepLException, match="cannot be a file or folder name"):
        client.translate_document_upload(TEXT.encode(), target_lang="ZH", filename=name)
    monkeypatch.setattr(limits, "API_MAX_DOCUMENTS", 1)  # none was kept: one more still fits
    assert upload(en_zh, "a.txt", TEXT.encode()).status_code == 200


def test_documents_are_bounded_in_size_and_number(en_zh, monkeypatch):
    monkeypatch.setattr(limits, "API_MAX_DOCUMENT_BYTES", 1000)
    answer = upload(en_zh, "big.txt", b"Hello world. " * 300_000)  # 3.9 MB: more than the bound + 1 MiB of form
    assert answer.status_code == 413 and "too large" in answer.json()["error"]
    monkeypatch.setattr(limits, "API_MAX_DOCUMENTS", 1)
    assert upload(en_zh, "a.txt", TEXT.encode()).status_code == 200  # kept until fetched or expired
    refused = upload(en_zh, "b.txt", TEXT.encode())
    assert refused.status_code == 429 and "documents are being translated" in refused.json()["error"]


def test_documents_need_the_key_and_are_removed_when_the_server_stops(serve, tiny_pack):
    server = serve([tiny_pack], api_key="sekret")
    assert upload(server, "a.txt", TEXT.encode()).status_code == 403
    with pytest.raises(deepl.AuthorizationException):
        deepl.Translator("wrong", server_url=server.address).translate_document_upload(
            TEXT.encode(), target_lang="ZH", filename="a.txt"
        )
    answer = upload(server, "a.txt", TEXT.encode(), api_key="sekret")
    assert answer.status_code == 200
    kept = server.core.files.find(
        urllib.parse.unquote(answer.json()["translatedFileUrl"]).rsplit("/", 1)[1].split(".", 1)[0]
    )
    assert kept.output.exists()
    server.stop()
    assert not kept.folder.exists()


class _ContextPack:
    """A pack that takes each paragraph's predecessor (an LLM pack with a context prompt)."""

    source_lang, target_lang, takes_context = "en", "zh", True

    def languages(self, options):
        from fanyi.engine.language_choice import LanguageChoice

        return LanguageChoice(None, None, "en", "zh")

    def translate_results(self, texts, options=None, progress=None, cancel=None, contexts=None):
        from fanyi.engine.results import Translation

        assert contexts is not None
        return [Translation(f"[{text}|{context}]") for text, context in zip(texts, contexts)]


def test_a_document_through_the_api_reaches_a_pack_that_takes_the_context(tmp_path):
    """The API counts what it translates through a wrapper of the translator; a pack that takes each
    paragraph's predecessor gets it through the wrapper too (the wrapper once refused it: every paragraph failed)."""
    from fanyi.server.core import _Counting

    source = tmp_path / "a.txt"
    source.write_text("First.\n\nSecond.\n", encoding="utf-8")
    counting = _Counting(_ContextPack())
    result = translate_document(source, counting)
    assert result.output.read_text(encoding="utf-8") == "[First.|]\n\n[Second.|First.]\n"
    assert counting.characters == len("First.") + len("Second.")


def _pdf() -> bytes:
    import sys

    sys.path.insert(0, str(Path(__file__).parents[1] / "documents"))
    from docfixtures import make_pdf

    return make_pdf([["The weather is fine today.", "", "Where is the station?"]])


def test_a_pdf_comes_back_as_a_pdf_or_as_a_docx_when_asked(en_zh, tmp_path):
    import pikepdf

    client = deepl.Translator("k", server_url=en_zh.address)
    (tmp_path / "a.pdf").write_bytes(_pdf())
    output = io.BytesIO()
    with (tmp_path / "a.pdf").open("rb") as document:
        assert client.translate_document(document, output, target_lang="ZH").done
    with pikepdf.open(io.BytesIO(output.getvalue())) as pdf:
        assert len(pdf.pages) == 1 and "/FyFont" in pdf.pages[0].Resources.Font  # the translation drawn in place
    output = io.BytesIO()
    with (tmp_path / "a.pdf").open("rb") as document:
        client.translate_document(document, output, target_lang="ZH", output_format="docx")
    assert output.getvalue()[:2] == b"PK"  # a .docx, as DeepL gives for output_format=docx
    with pytest.raises(deepl.DeepLException, match="output_format=xlsx cannot be made"):
        client.translate_document_upload(_pdf(), target_lang="ZH", filename="a.pdf", output_format="xlsx")


def test_a_bilingual_pdf_through_libretranslate(en_zh):
    import pikepdf

    answer = requests.post(
        en_zh.address + "/translate_file",
        files={"file": ("a.pdf", _pdf())},
        data={"source": "en", "target": "zh", "bilingual": "side"},
        timeout=TIMEOUT,
    )
    assert answer.status_code == 200, answer.text
    download = requests.get(answer.json()["translatedFileUrl"], timeout=TIMEOUT)
    with pikepdf.open(io.BytesIO(download.content)) as pdf:
        assert [float(v) for v in pdf.pages[0].mediabox] == [0, 0, 2 * 612, 792]  # the original beside it
    wrong = requests.post(
        en_zh.address + "/translate_file",
        files={"file": ("a.pdf", _pdf())},
        data={"source": "en", "target": "zh", "bilingual": "diagonal"},
        timeout=TIMEOUT,
    )
    assert wrong.status_code == 400 and "bilingual must be one of side, alternate" in wrong.json()["error"]
