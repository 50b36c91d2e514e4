#!/usr/bin/env bash
# CI check of the Linux download built from this checkout, as a user gets it:
#   1. make dist, then unpack dist/Fanyi-*-linux-*.tar.xz into a temporary folder;
#   2. fail if the bundle holds anything of torch or transformers; a folder as the input is one line, status 2;
#   3. build a tiny random int8 pack with the repository's own exporter from the dev venv (.venv,
#      make install-dev), and put it into the bundle when no real pack was bundled (models/ empty);
#   4. run the bundle's `fanyi --self-test` offscreen with an empty environment (no venv, no
#      PYTHONPATH, a fresh HOME) and check it left no Fanyi settings or data in that HOME; the self-test
#      also converts the tiny checkpoint of assets/selftest served by a Hub on 127.0.0.1 with the bundled
#      converter (no torch in the bundle) and translates with the pack it made;
#   5. `fanyi file` translates a .txt, .html, .docx and .pdf (into a PDF drawn with the bundled font, and
#      into a .docx), and a scanned (image-only)
#      PDF through the bundled OCR models, without touching the network;
#   6. `fanyi models install` downloads the tiny pack from a catalog (an entry with a prebuilt archive)
#      served on this machine;
#   7. `fanyi serve` on a free localhost port answers a LibreTranslate /translate request with what
#      `fanyi translate` says (the local API was packed);
#   7. portable mode: with fanyi-portable.txt beside the executable, `fanyi models import` puts the
#      tiny pack into data/ beside it.
# Prints the sizes and the self-test's report; exits non-zero with a FAIL line on any failure.
set -euo pipefail
cd "$(dirname "$0")/../.."
fail() { echo "FAIL: $*" >&2; exit 1; }

make dist
tarball=$(ls dist/Fanyi-*-linux-*.tar.xz 2>/dev/null | head -n1)
[ -n "$tarball" ] || fail "make dist wrote no dist/Fanyi-*-linux-*.tar.xz"
work=$(mktemp -d /tmp/fanyi-smoke.XXXXXX)
serve_pid=
trap '[ -z "$serve_pid" ] || kill "$serve_pid" 2>/dev/null; rm -rf "$work"' EXIT
tar -C "$work" -xJf "$tarball"
bundle=$(ls -d "$work"/Fanyi-*/)
bundle=${bundle%/}
[ -x "$bundle/fanyi" ] || fail "no executable fanyi in $tarball"
# The launcher says in one line that a folder is no input (Python alone would abort in four lines).
status=0
"$bundle/fanyi" translate < "$work" 2>"$work/folder.err" || status=$?
[ "$status" = 2 ] && [ "$(wc -l < "$work/folder.err")" = 1 ] \
  || fail "a folder as the input gave status $status and: $(cat "$work/folder.err")"

leaks=$(find "$bundle" -iname '*torch*' -o -iname '*transformers*' | head -n5)
[ -z "$leaks" ] || fail "the bundle contains export tooling: $leaks"

echo "bundle without model: $(du -sh "$bundle" | cut -f1) unpacked, $(du -h "$tarball" | cut -f1) as $(basename "$tarball")"

[ -x .venv/bin/python ] || fail "no .venv to build the tiny test pack with (make install-dev)"
tiny="$work/tiny-en-zh-int8"
.venv/bin/python - "$work/hf" "$tiny" <<'PY'
import sys
from pathlib import Path

from fanyi.export.convert import export_pack
sys.path.insert(0, "tests")  # the test-model builders
from tiny_models.synthetic import build_tiny_folder

hf = build_tiny_folder(Path(sys.argv[1]), direction="en-zh", multi_target=True)
export_pack(hf, Path(sys.argv[2]), quantize="int8", name="tiny-en-zh-int8")
PY
models="$bundle/_internal/models"
if ! ls "$models"/*/manifest.json >/dev/null 2>&1; then
  mkdir -p "$models"
  cp -r "$tiny" "$models/"
fi

mkdir -p "$work/home"
env -i PATH=/usr/bin:/bin HOME="$work/home" LANG=C.UTF-8 QT_QPA_PLATFORM=offscreen "$bundle/fanyi" --self-test \
  || fail "the bundle's self-test failed (report above)"
# Privacy: the frozen app's translation opens no internet socket and writes no ONNX Runtime telemetry
# (the runtime hook sets ORT_DISABLE_TELEMETRY before anything is imported).
if command -v strace >/dev/null; then
  rm -rf "$work/home-trace" && mkdir -p "$work/home-trace"
  echo "Good morning. The weather is fine today." | env -i PATH=/usr/bin:/bin HOME="$work/home-trace" LANG=C.UTF-8 \
    strace -f -qq -e trace=%network,openat -o "$work/trace.txt" "$bundle/fanyi" translate --model "$tiny" \
    || fail "fanyi translate failed under strace"
  if grep -E 'socket\(AF_INET6?,|nscd/socket|io\.systemd\.Resolve|"/etc/resolv\.conf"' "$work/trace.txt"; then
    fail "the bundle's translation touched the network (trace above)"
  fi
  [ ! -e "$work/home-trace/.cache/Microsoft" ] || fail "the bundle wrote ONNX Runtime telemetry files"
  echo "privacy ok: no socket, no name lookup, no telemetry files"
else
  echo "strace not installed: privacy check of the bundle skipped"
fi
# fontconfig may cache fonts in HOME; the user's Fanyi settings and data must stay untouched
written=$(find "$work/home" -iname '*fanyi*')
[ -z "$written" ] || fail "the self-test wrote user files: $written"
# Documents: each format's module and libraries (lxml, python-docx, pdfminer) must have been packed.
docs="$work/docs"
mkdir -p "$docs"
.venv/bin/python - "$docs" <<'PY'
import sys
from pathlib import Path

import docx

sys.path.insert(0, "tests/documents")
from docfixtures import make_pdf, scanned_pdf

out = Path(sys.argv[1])
(out / "note.txt").write_text("Good morning.\n", encoding="utf-8")
(out / "page.html").write_text("<html><body><p>Good morning.</p></body></html>\n", encoding="utf-8")
letter = docx.Document()
letter.add_paragraph("Good morning.")
letter.save(out / "letter.docx")
(out / "paper.pdf").write_bytes(make_pdf([["Good morning."]]))
(out / "scan.pdf").write_bytes(scanned_pdf([["Good morning. The weather is fine today."]]))
PY
env -i PATH=/usr/bin:/bin HOME="$work/home" LANG=C.UTF-8 "$bundle/fanyi" file --model "$tiny" \
  "$docs/note.txt" "$docs/page.html" "$docs/letter.docx" "$docs/paper.pdf" || fail "fanyi file failed in the bundle"
for out in note.zh.txt page.zh.html letter.zh.docx paper.zh.pdf; do
  [ -s "$docs/$out" ] || fail "fanyi file wrote no $out"
done
# The PDF came back as a PDF, its translation drawn with the bundle's own Noto Sans SC (pikepdf, fontTools
# and the fonts must all be in it), and a PDF can still become a .docx.
.venv/bin/python - "$docs/paper.zh.pdf" <<'PY' || fail "the translated PDF is not drawn with the bundled font"
import sys

import pikepdf

with pikepdf.open(sys.argv[1]) as pdf:
    font = str(pdf.pages[0].Resources.Font.FyFont.BaseFont)
sys.exit(0 if font.endswith("+NotoSansSC-Regular") else f"drawn with {font}")
PY
env -i PATH=/usr/bin:/bin HOME="$work/home" LANG=C.UTF-8 "$bundle/fanyi" file --model "$tiny" --to docx \
  "$docs/paper.pdf" || fail "fanyi file --to docx failed in the bundle"
[ -s "$docs/paper.zh.docx" ] || fail "fanyi file --to docx wrote no paper.zh.docx"
# A scan: PDFium renders the page and the bundled OCR models read it (traced: no socket, no lookup).
ocr_run=(env -i PATH=/usr/bin:/bin HOME="$work/home" LANG=C.UTF-8)
command -v strace >/dev/null && ocr_run+=(strace -f -qq -e trace=%network -o "$work/ocr-trace.txt")
"${ocr_run[@]}" "$bundle/fanyi" file --model "$tiny" "$docs/scan.pdf" > "$work/scan-report.txt" \
  || fail "fanyi file could not OCR a scanned PDF"
[ -s "$docs/scan.zh.pdf" ] || fail "fanyi file wrote no scan.zh.pdf"
grep -q "recognised by OCR" "$work/scan-report.txt" || fail "the scanned PDF's report does not say it was recognised by OCR"
if [ -f "$work/ocr-trace.txt" ] && grep -E 'socket\(AF_INET6?,|nscd/socket|io\.systemd\.Resolve' "$work/ocr-trace.txt"; then
  fail "OCR in the bundle touched the network (trace above)"
fi
echo "OCR ok: the bundle recognised and translated a scanned PDF"

# Downloads: the bundle installs a pack from a catalog served on this machine over HTTP (urllib, ssl
# and truststore must all be in it; a TLS handshake with a real server needs the internet).
.venv/bin/python - "$tiny" "$work/served" "$bundle/fanyi" <<'PY' || fail "fanyi models install failed in the bundle"
import hashlib, json, subprocess, sys, threading, zipfile
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

pack, served, exe = Path(sys.argv[1]), Path(sys.argv[2]), sys.argv[3]
served.mkdir()
manifest = json.loads((pack / "manifest.json").read_text(encoding="utf-8"))
manifest["pack_version"] = 1
archive = served / f"{pack.name}-v1.zip"
with zipfile.ZipFile(archive, "w", zipfile.ZIP_DEFLATED) as zf:
    zf.writestr(f"{pack.name}/manifest.json", json.dumps(manifest))
    for name in manifest["files"]:
        zf.write(pack / name, f"{pack.name}/{name}")
httpd = ThreadingHTTPServer(("127.0.0.1", 0), partial(SimpleHTTPRequestHandler, directory=str(served)))
threading.Thread(target=httpd.serve_forever, daemon=True).start()
base, data = f"http://127.0.0.1:{httpd.server_port}", archive.read_bytes()
unpacked = sum(f["size"] for f in manifest["files"].values())
entry = {"id": pack.name, "version": 1, "display_name": {"en": "tiny"}, "architecture": "marian",
         "source_langs": ["en"], "target_langs": ["zh"], "sources": {"huggingface": {"repo": "tiny/tiny", "revision": "0" * 40}},
         "convert": {"quantize": "int8"}, "download_size": len(data), "pack_size": unpacked,
         "format_version": manifest["format_version"], "urls": [f"{base}/{archive.name}"],
         "archive": {"file": archive.name, "size": len(data), "sha256": hashlib.sha256(data).hexdigest(),
                     "unpacked_size": unpacked},
         "license": {"name": "MIT", "url": "https://opensource.org/license/mit", "commercial_use": True}}
# newer than the catalog the bundle ships (serials are YYYYMMDDHHMM), or the app keeps that one
(served / "catalog.json").write_text(json.dumps({"schema": 2, "serial": 999912312359, "packs": [entry]}))
env = {"PATH": "/usr/bin:/bin", "HOME": str(served), "LANG": "C.UTF-8", "FANYI_DATA_DIR": str(served / "data"),
       "FANYI_CATALOG_URL": f"{base}/catalog.json"}
done = subprocess.run([exe, "models", "install", pack.name], env=env, capture_output=True, text=True, timeout=300)
print(done.stdout + done.stderr, end="")
sys.exit(done.returncode or not (served / "data" / "models" / pack.name / "manifest.json").is_file())
PY
echo "downloads ok: the bundle installed a pack from a catalog"
# The local API: `fanyi serve` on port 0 (a free one) prints its address first; one /translate answer.
env -i PATH=/usr/bin:/bin HOME="$work/home" LANG=C.UTF-8 "$bundle/fanyi" serve --model "$tiny" --port 0 \
  >"$work/serve.out" 2>"$work/serve.err" &
serve_pid=$!
for _ in $(seq 1 600); do
  grep -q '^Fanyi serves http://' "$work/serve.out" 2>/dev/null && break
  kill -0 "$serve_pid" 2>/dev/null || break
  sleep 0.1
done
url=$(sed -n 's/^Fanyi serves \(http:[^ ]*\).*/\1/p' "$work/serve.out")
[ -n "$url" ] || { cat "$work/serve.err" >&2; fail "fanyi serve did not start"; }
expected=$(env -i PATH=/usr/bin:/bin HOME="$work/home" LANG=C.UTF-8 "$bundle/fanyi" translate --model "$tiny" \
  --target cmn_Hans "Good morning.")
.venv/bin/python - "$url" "$expected" <<'PY' || { cat "$work/serve.err" >&2; fail "the bundle's local API gave a wrong answer"; }
import json
import sys
import urllib.request

url, expected = sys.argv[1], sys.argv[2]
request = urllib.request.Request(url + "/translate", data=json.dumps(
    {"q": "Good morning.", "source": "en", "target": "zh"}).encode(), headers={"Content-Type": "application/json"})
with urllib.request.urlopen(request, timeout=120) as answer:
    body = json.load(answer)
if body != {"translatedText": expected}:
    sys.exit(f"{url}/translate answered {body!r}, expected {expected!r}")
PY
kill -INT "$serve_pid"
wait "$serve_pid" || fail "fanyi serve did not stop cleanly on Ctrl+C"
serve_pid=
echo "local API ok: $url/translate answered as fanyi translate does"

# Portable mode: with the marker next to the executable, an imported pack lands beside it too.
touch "$bundle/fanyi-portable.txt"
env -i PATH=/usr/bin:/bin HOME="$work/home" LANG=C.UTF-8 "$bundle/fanyi" models import "$tiny" \
  || fail "fanyi models import failed in portable mode"
[ -f "$bundle/data/models/tiny-en-zh-int8/manifest.json" ] || fail "portable mode: the pack is not in $bundle/data"
echo "portable mode ok: imported pack in $bundle/data/models"
echo "Linux bundle smoke test passed"
