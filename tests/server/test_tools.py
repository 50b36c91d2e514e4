"""Each tool's request replayed as its own source sends it (method, path, headers, body, language codes), and
its answer read as that source reads it, without and with an API key.

Sources read (each test names its file): Zotero PDF Translate (windingwind/zotero-pdf-translate,
src/modules/services/*.ts), STranslate (ZGGSONG/STranslate, src/STranslate/ViewModels/Preference/Translator/
*.cs), Pot (pot-app/pot-desktop, src/services/translate/*/) and Pot's MTranServer plugin
(ndevel/pot-app-translate-plugin-mtranserver, main.js and info.json), KISS Translator (fishjar/kiss-translator,
src/apis/trans.js, src/config/api.js), KOReader (koreader/koreader, frontend/ui/translator.lua), MTranServer
(xxnuo/MTranServer, src/controllers/), and Immersive Translate's documentation of its custom API
(immersivetranslate.com/docs/services/custom: the extension is closed source).
"""

from __future__ import annotations

import json
import urllib.parse

import pytest
import requests
from api_helpers import EN, HANS, KEY, TAIWAN, ZH

TIMEOUT = 60


# --- MTranServer's protocol -----------------------------------------------------------------------


def zotero_mtranserver(server, text: str, langfrom: str, langto: str, secret: str = "", versionlabel: bool = False):
    """src/modules/services/mtranserver.ts: POST to the endpoint typed (MTranServer's default
    http://localhost:8989/translate), the secret as a bare `authorization` header, the codes cut to their first
    part (or zh-Hans / zh-Hant with "version label" on); the answer is xhr.response.result."""
    labels = {"zh": "zh-Hans", "zh-CN": "zh-Hans", "zh-HK": "zh-Hant", "zh-MO": "zh-Hant", "zh-TW": "zh-Hant"}

    def map_lang(lang: str) -> str:
        return labels[lang] if versionlabel and lang in labels else lang.split("-")[0]

    return requests.post(
        f"{server.address}/translate",
        headers={"authorization": secret, "content-type": "application/json"},
        data=json.dumps({"text": text, "from": map_lang(langfrom), "to": map_lang(langto)}),
        timeout=TIMEOUT,
    )


def test_zotero_mtranserver_service(both, keyed, tiny_translator, tiny_translator_zh_en):
    answer = zotero_mtranserver(both, EN[0], "en", "zh-CN")
    assert answer.status_code == 200 and answer.json()["result"] == tiny_translator.translate(EN[0], HANS)
    assert zotero_mtranserver(both, ZH[0], "zh-CN", "en").json()["result"] == tiny_translator_zh_en.translate(ZH[0])
    # "version label" on: zh-TW is sent as zh-Hant, Taiwan's Traditional by OpenCC
    traditional = zotero_mtranserver(both, EN[1], "en", "zh-TW", versionlabel=True).json()["result"]
    assert traditional == tiny_translator.translate(EN[1], TAIWAN)
    # a server with a key: the secret is the key, sent bare; none (an empty header) is refused
    assert zotero_mtranserver(keyed, EN[0], "en", "zh-CN", secret=KEY).json()["result"] == answer.json()["result"]
    assert zotero_mtranserver(keyed, EN[0], "en", "zh-CN").status_code == 403
    assert zotero_mtranserver(keyed, EN[0], "en", "zh-CN", secret="wrong").status_code == 403


def test_stranslate_mtranserver_service(both, tiny_translator_zh_en):
    """src/STranslate/ViewModels/Preference/Translator/TranslatorMTranServer.cs: POST Url with {from, to, text}
    (zh_cn → "zh", en → "en"; Traditional and auto are not offered), no key; reads ["result"]."""
    body = json.dumps({"from": "zh", "to": "en", "text": ZH[1]})
    answer = requests.post(
        f"{both.address}/translate", data=body, headers={"Content-Type": "application/json"}, timeout=TIMEOUT
    )
    assert answer.json()["result"] == tiny_translator_zh_en.translate(ZH[1])


def test_pot_mtranserver_plugin(both, keyed, tiny_translator):
    """ndevel/pot-app-translate-plugin-mtranserver main.js: GET /health first (status == 'ok'), then POST
    /translate with {from, to, text} and `Authorization: <token>` when a token is set (bare); /translate/batch
    with {from, to, texts} → results; /version → version. info.json sends "zh" for both zh_cn and zh_tw."""
    for server, token in ((both, ""), (keyed, KEY)):
        assert requests.get(f"{server.address}/health", timeout=TIMEOUT).json()["status"] == "ok"
        headers = {"Content-Type": "application/json", **({"Authorization": token} if token else {})}
        one = requests.post(
            f"{server.address}/translate",
            headers=headers,
            json={"from": "en", "to": "zh", "text": EN[2]},
            timeout=TIMEOUT,
        )
        assert one.json()["result"] == tiny_translator.translate(EN[2], HANS)
        batch = requests.post(
            f"{server.address}/translate/batch",
            headers={"Content-Type": "application/json", "Authorization": token},
            json={"from": "en", "to": "zh", "texts": EN[:3]},
            timeout=TIMEOUT,
        )
        assert batch.json()["results"] == [tiny_translator.translate(t, HANS) for t in EN[:3]]
        assert requests.get(f"{server.address}/version", timeout=TIMEOUT).json()["version"]
    refused = requests.post(f"{keyed.address}/translate/batch", json={"from": "en", "to": "zh", "texts": EN[:1]})
    assert refused.status_code == 403 and refused.json()["error"]


def test_mtranserver_html_and_bearer_token(both, keyed, tiny_translator):
    """MTranServer's own API (src/controllers/translate.controller.ts, API.md): html true keeps the markup;
    the key as Bearer or ?token= (src/middleware/auth.ts reads both)."""
    html = "<p>The weather <b>is fine</b> today.</p>"
    answer = requests.post(
        f"{both.address}/translate", json={"from": "en", "to": "zh-Hans", "text": html, "html": True}, timeout=60
    ).json()
    assert answer["result"].startswith("<p>") and "<b>" in answer["result"]
    body = {"from": "en", "to": "zh-Hans", "text": EN[0]}
    bearer = requests.post(
        f"{keyed.address}/translate", json=body, headers={"Authorization": f"Bearer {KEY}"}, timeout=60
    )
    query = requests.post(f"{keyed.address}/translate?token={KEY}", json=body, timeout=60)
    assert bearer.json()["result"] == query.json()["result"] == tiny_translator.translate(EN[0], HANS)


# --- Immersive Translate's and KISS Translator's custom APIs ----------------------------------------


def test_immersive_translate_custom_api(both, keyed, tiny_translator, tiny_translator_zh_en):
    """immersivetranslate.com/docs/services/custom (and MTranServer's src/controllers/plugins/imme.controller.ts):
    POST JSON {source_lang, target_lang, text_list} → {translations: [{detected_source_lang, text}]}; Google's
    codes; the key as ?token= in the URL typed into the extension."""
    body = {"source_lang": "auto", "target_lang": "zh-CN", "text_list": [EN[0], EN[3]]}
    for url in (f"{both.address}/imme", f"{keyed.address}/imme?token={KEY}"):
        answer = requests.post(url, json=body, timeout=TIMEOUT).json()
        assert [t["text"] for t in answer["translations"]] == [
            tiny_translator.translate(t, HANS) for t in body["text_list"]
        ]
        assert {t["detected_source_lang"] for t in answer["translations"]} == {"en"}
    back = requests.post(
        f"{both.address}/imme",
        json={"source_lang": "zh-CN", "target_lang": "en", "text_list": [ZH[0]]},
        timeout=TIMEOUT,
    ).json()
    assert back["translations"][0]["text"] == tiny_translator_zh_en.translate(ZH[0])
    taiwan = {"source_lang": "en", "target_lang": "zh-TW", "text_list": [EN[1]]}
    answer = requests.post(f"{both.address}/imme", json=taiwan, timeout=TIMEOUT).json()
    assert answer["translations"][0]["text"] == tiny_translator.translate(EN[1], TAIWAN)
    assert requests.post(f"{keyed.address}/imme", json=body, timeout=TIMEOUT).status_code == 403


def kiss_custom(
    server, texts: list[str], from_lang: str, to_lang: str, key: str = "", batch: bool = False, path: str = "/kiss"
):
    """src/apis/trans.js genCustom: {texts, from, to} in batch mode, else {text: texts[0], from, to}; the
    codes are KISS's own (zh-CN, zh-TW, en, auto: src/config/api.js OPT_LANGS_TO); `Authorization: Bearer
    ${key}`, "Bearer " with no key set. parseTransRes reads (res.translations ?? res).map(item → [item.text,
    item.src]) in batch mode, else [res.text, res.src || res.from]."""
    body = (
        {"texts": texts, "from": from_lang, "to": to_lang}
        if batch
        else {"text": texts[0], "from": from_lang, "to": to_lang}
    )
    answer = requests.post(
        f"{server.address}{path}",
        json=body,
        headers={"Content-type": "application/json", "Authorization": f"Bearer {key}"},
        timeout=TIMEOUT,
    )
    assert answer.status_code == 200, answer.text
    res = answer.json()
    if batch:
        return [[item["text"], item["src"]] for item in res.get("translations", res)]
    return [[res["text"], res.get("src") or res.get("from")]]


def test_kiss_translator_custom_api(both, keyed, tiny_translator, tiny_translator_zh_en):
    assert kiss_custom(both, [EN[0]], "auto", "zh-CN") == [[tiny_translator.translate(EN[0], HANS), "en"]]
    assert kiss_custom(both, [EN[1]], "en", "zh-TW") == [[tiny_translator.translate(EN[1], TAIWAN), "en"]]
    assert kiss_custom(both, EN[:3], "en", "zh-CN", batch=True) == [
        [tiny_translator.translate(t, HANS), "en"] for t in EN[:3]
    ]
    assert kiss_custom(keyed, [ZH[0]], "zh-CN", "en", key=KEY) == [[tiny_translator_zh_en.translate(ZH[0]), "zh"]]
    with pytest.raises(AssertionError):
        kiss_custom(keyed, [ZH[0]], "zh-CN", "en")  # the empty Bearer of a KISS with no key set


def test_the_custom_apis_on_the_shared_translate_path(both, tiny_translator):
    """The same bodies posted to /translate, the path many users type: Immersive Translate's (told by its
    text_list) and KISS Translator's ({text|texts, from, to}, MTranServer's body too: the answer carries both
    tools' fields)."""
    immersive = {"source_lang": "auto", "target_lang": "zh-CN", "text_list": [EN[0]]}
    answer = requests.post(f"{both.address}/translate", json=immersive, timeout=TIMEOUT).json()
    assert answer["translations"] == [{"detected_source_lang": "en", "text": tiny_translator.translate(EN[0], HANS)}]
    assert kiss_custom(both, [EN[1]], "en", "zh-CN", path="/translate") == [
        [tiny_translator.translate(EN[1], HANS), "en"]
    ]
    assert kiss_custom(both, EN[:2], "en", "zh-TW", batch=True, path="/translate") == [
        [tiny_translator.translate(t, TAIWAN), "en"] for t in EN[:2]
    ]


# --- DeepL's web JSON-RPC --------------------------------------------------------------------------


def zotero_deeplx(server, text: str, langfrom: str, langto: str) -> requests.Response:
    """src/modules/services/deeplx.ts: LMT_handle_texts posted to the endpoint typed (its default
    https://www2.deepl.com/jsonrpc) + "?client=chrome-extension,1.28.0&method=LMT_handle_jobs", with DeepL's
    browser extension's headers (its Origin, `Authorization: None`) and the body's `"method": "` spacing trick;
    codes upper-cased (zh-CN → ZH-HANS, zh-TW → ZH-HANT); the answer is response.result.texts[0].text."""
    lang_map = {"zh-CN": "ZH-HANS", "zh-HK": "ZH-HANT", "zh-MO": "ZH-HANT", "zh-SG": "ZH-HANS", "zh-TW": "ZH-HANT"}

    def map_lang(lang: str) -> str:
        return lang_map.get(lang, lang.split("-")[0].upper())

    body = json.dumps(
        {
            "jsonrpc": "2.0",
            "method": "LMT_handle_texts",
            "id": 8300001001,
            "params": {
                "texts": [{"text": text, "requestAlternatives": 3}],
                "splitting": "newlines",
                "lang": {"source_lang_user_selected": map_lang(langfrom), "target_lang": map_lang(langto)},
                "timestamp": 1700000000002,
                "commonJobParams": {"wasSpoken": False, "transcribe_as": ""},
            },
        },
        separators=(",", ":"),
    ).replace('"method":"', '"method": "')
    return requests.post(
        f"{server.address}/translate?client=chrome-extension,1.28.0&method=LMT_handle_jobs",
        data=body.encode(),
        headers={
            "Accept": "*/*",
            "Authorization": "None",
            "Cache-Control": "no-cache",
            "Content-Type": "application/json",
            "Origin": "chrome-extension://cofdbpoegempjloogbagkncekinflcnj",
            "Referer": "https://www.deepl.com/",
            "Sec-Fetch-Site": "none",
            "User-Agent": "DeepLBrowserExtension/1.28.0 Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7)",
        },
        timeout=TIMEOUT,
    )


def test_zotero_deeplx_service_sends_the_web_json_rpc(both, keyed, tiny_translator, tiny_translator_zh_en):
    answer = zotero_deeplx(both, EN[0], "en", "zh-CN")
    assert answer.status_code == 200, answer.text
    body = answer.json()
    assert body["result"]["texts"][0]["text"] == tiny_translator.translate(EN[0], HANS)
    assert body["jsonrpc"] == "2.0" and body["id"] == 8300001001 and body["result"]["lang"] == "EN"
    taiwan = zotero_deeplx(both, EN[1], "en", "zh-TW").json()["result"]["texts"][0]["text"]
    assert taiwan == tiny_translator.translate(EN[1], TAIWAN)
    back = zotero_deeplx(both, ZH[0], "zh-CN", "en").json()["result"]["texts"][0]["text"]
    assert back == tiny_translator_zh_en.translate(ZH[0])
    # the same request on /jsonrpc, the path of DeepL's own address that Zotero's default ends in
    rpc = json.loads(zotero_deeplx(both, EN[0], "en", "zh-CN").request.body)
    assert requests.post(f"{both.address}/jsonrpc", json=rpc, timeout=TIMEOUT).json()["result"] == body["result"]
    # the service cannot send a key (its Authorization is "None"): a server with one refuses it, in JSON-RPC's shape
    refused = zotero_deeplx(keyed, EN[0], "en", "zh-CN")
    assert refused.status_code == 403 and refused.json()["error"]["message"]


def test_zotero_deeplx_api_service(both, tiny_translator):
    """src/modules/services/deeplcustom.ts ("DeepLX (API)"): {text, source_lang, target_lang} with the codes'
    first part upper-cased (zh-TW → "ZH": Simplified), Content-Type "application/json; charset=utf-8", no key;
    reads response.data."""
    body = json.dumps({"text": EN[2], "source_lang": "EN", "target_lang": "zh-TW".split("-")[0].upper()})
    answer = requests.post(
        f"{both.address}/translate",
        data=body,
        headers={"Content-Type": "application/json; charset=utf-8"},
        timeout=TIMEOUT,
    )
    assert answer.json()["data"] == tiny_translator.translate(EN[2], HANS)


def test_pot_deeplx_sends_zh_for_both_chinese_scripts(both, tiny_translator):
    """src/services/translate/deepl/info.ts: zh_cn = 'ZH' and zh_tw = 'ZH'; index.jsx translate_by_deeplx posts
    {source_lang, target_lang, text} to the custom URL and reads data. Pot cannot ask DeepLX for Traditional:
    ZH is Simplified (its OpenAI and Ollama services can, by the language's name in the prompt)."""
    for pot_code in ("zh_cn", "zh_tw"):
        deepl_code = {"zh_cn": "ZH", "zh_tw": "ZH"}[pot_code]
        body = {"source_lang": "EN", "target_lang": deepl_code, "text": EN[3]}
        answer = requests.post(f"{both.address}/translate", json=body, timeout=TIMEOUT).json()
        assert answer["data"] == tiny_translator.translate(EN[3], HANS)


def test_easydict_deepl_with_its_endpoint_set(both, keyed, tiny_translator):
    """tisfeng/Easydict Easydict/Swift/Service/DeepL/DeepLService+Translate.swift deepLTranslate: with an endpoint
    set (deepLTranslateEndPointKey) it posts a form body text, source_lang (without its variant: "en", "auto"),
    target_lang (DeepLService.swift: "zh-hans", "zh-hant") and `Authorization: DeepL-Auth-Key <key>` to it, and
    reads translations[0].text."""
    for server, key in ((both, ""), (keyed, KEY)):
        for target, options in (("zh-hans", HANS), ("zh-hant", TAIWAN)):
            answer = requests.post(
                f"{server.address}/v2/translate",
                data={"text": EN[0], "source_lang": "auto", "target_lang": target},
                headers={"Authorization": f"DeepL-Auth-Key {key}"},
                timeout=TIMEOUT,
            )
            assert answer.json()["translations"][0]["text"] == tiny_translator.translate(EN[0], options)
    refused = requests.post(
        f"{keyed.address}/v2/translate",
        data={"text": EN[0], "source_lang": "en", "target_lang": "zh-hans"},
        headers={"Authorization": "DeepL-Auth-Key "},
        timeout=TIMEOUT,
    )
    assert refused.status_code == 403


# --- Google ------------------------------------------------------------------------------------------


def test_koreader_translator_at_the_root_path(both, tiny_translator, tiny_translator_zh_en):
    """frontend/ui/translator.lua loadPageByGoogle: GET trans_server + /translate_a/single with trans_params
    (client=gtx, ie, oe, sl, tl, hl, otf, ssel, tsel, dt=t, dt=at, dt=md) and q; Translator:translate joins
    result[1][i][1] (Lua's 1-based), _showTranslation names result[3]. KOReader sends no key."""
    params = "client=gtx&ie=UTF-8&oe=UTF-8&sl=auto&tl=zh&hl=en&otf=1&ssel=0&tsel=0&dt=t&dt=at&dt=md&"
    url = f"{both.address}//translate_a/single?{params}q={urllib.parse.quote(EN[0])}"  # a server URL ending in /
    result = requests.get(url, timeout=TIMEOUT).json()
    assert "".join(r[0] for r in result[0]) == tiny_translator.translate(EN[0], HANS)
    assert result[2] == "en" and [r[1] for r in result[0]] == [EN[0]]
    params = params.replace("sl=auto&tl=zh", "sl=zh&tl=en")
    result = requests.get(f"{both.address}/translate_a/single?{params}q={urllib.parse.quote(ZH[1])}", timeout=60).json()
    assert "".join(r[0] for r in result[0]) == tiny_translator_zh_en.translate(ZH[1])


def test_zotero_google_api_service_with_the_secret_as_its_address(both, tiny_translator):
    """src/modules/services/google.ts _google: GET `${secret || url}/translate_a/single?client=gtx&sl=…&tl=…&hl=en
    &dt=at&dt=bd&dt=ex&dt=ld&dt=md&dt=qca&dt=rw&dt=rm&dt=ss&dt=t&source=bh&ssel=0&tsel=0&kc=1&tk=…&q=…` — the
    "googleapi" service's secret replaces Google's address; the answer joins response[0][i][0]."""
    query = (
        "client=gtx&sl=en&tl=zh-TW&hl=en&dt=at&dt=bd&dt=ex&dt=ld&dt=md&dt=qca&dt=rw&dt=rm&dt=ss&dt=t&source=bh"
        f"&ssel=0&tsel=0&kc=1&tk=520631.912590&q={urllib.parse.quote(EN[2])}"
    )
    response = requests.get(f"{both.address}/translate_a/single?{query}", timeout=TIMEOUT).json()
    assert "".join(part[0] for part in response[0] if part and part[0]) == tiny_translator.translate(EN[2], TAIWAN)


def test_cloud_translation_v2(both, keyed, tiny_translator):
    """Google's Cloud Translation v2 (POST /language/translate/v2: q repeated or a list, target, source, format,
    key; MTranServer's src/controllers/plugins/google.controller.ts serves the same shape)."""
    answer = requests.post(
        f"{both.address}/language/translate/v2", json={"q": EN[:2], "target": "zh-CN", "format": "text"}, timeout=60
    ).json()
    assert [t["translatedText"] for t in answer["data"]["translations"]] == [
        tiny_translator.translate(t, HANS) for t in EN[:2]
    ]
    assert {t["detectedSourceLanguage"] for t in answer["data"]["translations"]} == {"en"}
    form = [("q", EN[0]), ("target", "zh-CN"), ("source", "en"), ("format", "text"), ("key", KEY)]
    keyed_answer = requests.post(f"{keyed.address}/language/translate/v2", data=form, timeout=60).json()
    assert keyed_answer["data"]["translations"] == [{"translatedText": tiny_translator.translate(EN[0], HANS)}]
    refused = requests.post(f"{keyed.address}/language/translate/v2", data=form[:-1], timeout=60)
    assert refused.status_code == 403 and refused.json()["error"]["code"] == 403


# --- which programs may ask ----------------------------------------------------------------------------


@pytest.mark.parametrize("origin", ["tauri://localhost", "http://tauri.localhost", "https://tauri.localhost"])
def test_tauri_webviews_are_answered_as_extensions_are(both, origin, tiny_translator):
    """Pot (Tauri 1.8, src-tauri/Cargo.toml) streams OpenAI answers with the webview's window.fetch
    (src/services/translate/openai/index.jsx) and talks to Ollama through ollama/browser: those requests carry
    the webview's Origin (tauri://localhost; http(s)://tauri.localhost on Windows)."""
    answer = requests.post(
        f"{both.address}/translate",
        json={"q": EN[0], "source": "en", "target": "zh"},
        headers={"Origin": origin},
        timeout=TIMEOUT,
    )
    assert answer.status_code == 200 and answer.headers["access-control-allow-origin"] == origin
    preflight = requests.options(
        f"{both.address}/v1/chat/completions",
        headers={"Origin": origin, "Access-Control-Request-Method": "POST"},
        timeout=TIMEOUT,
    )
    assert preflight.status_code == 204


def test_zoteros_own_requests_carry_no_web_origin(both, tiny_translator):
    """Zotero.HTTP.request (zotero/zotero chrome/content/zotero/xpcom/http.js) opens a chrome XMLHttpRequest and
    sets only the caller's headers and a Content-Type: no page's Origin. The plugin's services that set one set
    an extension's (deeplx.ts: chrome-extension://cofdbpoegempjloogbagkncekinflcnj), tested above; a page on the
    web is still refused."""
    body = {"q": EN[0], "source": "en", "target": "zh", "format": "text"}  # libretranslate.ts
    assert requests.post(f"{both.address}/translate", json=body, timeout=TIMEOUT).status_code == 200
    refused = requests.post(
        f"{both.address}/translate", json=body, headers={"Origin": "https://example.com"}, timeout=TIMEOUT
    )
    assert refused.status_code == 403


def test_the_keys_tools_send(keyed, tiny_translator):
    """With a key set, as each tool sends its key: Zotero PDF Translate's LibreTranslate service (libretranslate.ts:
    the secret as the body's api_key) and its GPT services (gpt.ts: `Authorization: Bearer ${secret}` and `api-key`),
    Pot's LibreTranslate plugin (Integral-Tech/pot-app-translate-plugin-libre main.js: api_key in the body) and its
    OpenAI service (openai/index.jsx: Bearer apiKey), STranslate's DeepLX (TranslatorDeepLX.cs: Bearer token); each
    refused without it (403; DeepLX's body 401, as DeepLX's service.go answers it)."""
    expected = tiny_translator.translate(EN[0], HANS)
    libre = {"q": EN[0], "source": "en", "target": "zh", "format": "text"}
    gpt = {
        "model": "fanyi",
        "messages": [{"role": "user", "content": f'Translate into Simplified Chinese:\n"""\n{EN[0]}\n"""'}],
        "stream": False,
    }
    deeplx = {"text": EN[0], "source_lang": "en", "target_lang": "zh"}
    cases = [
        ("/translate", {**libre, "api_key": KEY}, {}, libre, lambda a: a["translatedText"], 403),
        (
            "/v1/chat/completions",
            gpt,
            {"Authorization": f"Bearer {KEY}", "api-key": KEY},
            gpt,
            lambda a: a["choices"][0]["message"]["content"],
            403,
        ),
        ("/translate", deeplx, {"Authorization": f"Bearer {KEY}"}, deeplx, lambda a: a["data"], 401),
    ]
    for path, body, headers, without, read, refusal in cases:
        answer = requests.post(f"{keyed.address}{path}", json=body, headers=headers, timeout=TIMEOUT)
        assert answer.status_code == 200 and read(answer.json()) == expected, path
        assert requests.post(f"{keyed.address}{path}", json=without, timeout=TIMEOUT).status_code == refusal, path


def test_mtranservers_paths_for_the_tools_it_serves(both, tiny_translator):
    """MTranServer's README points tools at its plugin paths (src/controllers/plugins/*.controller.ts): /deeplx
    (DeepLX's body), /deepl (DeepL API's), /google/translate_a/single and /google/language/translate/v2; its
    system.controller.ts answers /__heartbeat__ and /__lbheartbeat__. DeepLX's own /v1/translate takes DeepLX's body."""
    expected = tiny_translator.translate(EN[0], HANS)
    for path in ("/deeplx", "/v1/translate"):
        body = {"text": EN[0], "source_lang": "EN", "target_lang": "ZH"}
        assert requests.post(f"{both.address}{path}", json=body, timeout=TIMEOUT).json()["data"] == expected
    deepl = requests.post(f"{both.address}/deepl", json={"text": [EN[0]], "target_lang": "ZH"}, timeout=TIMEOUT)
    assert deepl.json()["translations"][0]["text"] == expected
    single = requests.get(
        f"{both.address}/google/translate_a/single?client=gtx&sl=en&tl=zh-CN&dt=t&q={urllib.parse.quote(EN[0])}",
        timeout=TIMEOUT,
    ).json()
    assert single[0][0][0] == expected
    v2 = requests.post(
        f"{both.address}/google/language/translate/v2", json={"q": EN[0], "target": "zh", "format": "text"}
    )
    assert v2.json()["data"]["translations"][0]["translatedText"] == expected
    for path in ("/__heartbeat__", "/__lbheartbeat__"):
        assert requests.get(f"{both.address}{path}", timeout=TIMEOUT).status_code == 200
