"""The local translation API: LibreTranslate-, DeepL-, DeepLX-, MTranServer-, Immersive Translate-, KISS
Translator-, Google-, OpenAI- and Ollama-compatible endpoints and an SSE stream.

``fanyi serve`` runs it in the foreground; the desktop app runs it in a thread, over the model its
worker already loaded (see ``models.py``). No Qt here; starlette and uvicorn are imported only when
a server is started (``run.py``), so the app pays nothing for it while the setting is off.

Modules: ``core`` (request → Translator, no HTTP), ``web`` (HTTP side shared by the protocols),
``libretranslate``, ``deepl``, ``deeplx``, ``deepl_web``, ``mtranserver`` (KISS Translator's too),
``immersive``, ``google``, ``openai``, ``ollama``, ``stream`` (one per protocol), ``chat`` (which model
answers a chat request) and ``prompt_reader`` (the translation request in a tool's prompt), ``app`` (the routes),
``models`` (which pack answers), ``languages`` (codes and detection), ``run`` (sockets and threads),
``line`` (how many requests wait, in which threads), ``batching`` (short requests translated
together), ``files`` (documents kept while translated), ``connections`` (idle and slow sockets),
``browsers`` (which web pages may call it), ``errors`` (ApiError).
"""
