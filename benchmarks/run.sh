#!/usr/bin/env bash
# One command for the whole benchmark (issue 5):
#   bash benchmarks/run.sh [--quick] [--work DIR] [driver options...]
# and for mBART-50 and NLLB-600M against CTranslate2 (issue 13; --tiny: a smoke test at tiny shapes):
#   bash benchmarks/run.sh --many-to-many [--tiny] [--quick] [--work DIR]
# 1. creates/updates benchmarks/.venv from benchmarks/requirements.txt (+ this checkout, editable),
# 2. builds the random-weight opus-mt-en-zh-sized model and every engine's conversion in the work
#    dir (default /tmp/fanyi-bench; whatever is already there and up to date is reused),
# 3. runs the driver (one worker process per engine and thread count) and writes benchmarks/RESULTS.md.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(dirname "$here")"
venv="$here/.venv"
work=/tmp/fanyi-bench
args=()
prepare_args=()
while (($#)); do
  case "$1" in
    --work) work="$2"; args+=("$1" "$2"); shift 2 ;;
    --many-to-many|--tiny) prepare_args+=("$1"); args+=("$1"); shift ;;
    *) args+=("$1"); shift ;;
  esac
done

# pip's output is shown only when it fails (the local index prints a warning per missing folder, and
# the --no-deps install of Fanyi makes the resolver list the app's GUI dependencies as missing).
quiet_pip() {
  local log
  log="$(mktemp)"
  if ! "$venv/bin/pip" "$@" -q >"$log" 2>&1; then
    grep -v "is ignored" "$log" >&2
    rm -f "$log"
    return 1
  fi
  rm -f "$log"
}

if [[ ! -x "$venv/bin/python" ]]; then
  python3 -m venv "$venv"
fi
stamp="$venv/.requirements.sha256"
want="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [[ "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
  quiet_pip install -r "$here/requirements.txt"
  echo "$want" > "$stamp"
fi
# Editable and without dependencies: "ours" is always the engine code in this checkout.
quiet_pip install -e "$repo" --no-deps

cd "$here"
# Keep onnxruntime/CTranslate2 logs and Python warnings of the conversions out of the way.
export PYTHONWARNINGS=ignore TOKENIZERS_PARALLELISM=false
"$venv/bin/python" prepare.py --work "$work" "${prepare_args[@]}"
"$venv/bin/python" driver.py --command "bash benchmarks/run.sh${args[*]:+ ${args[*]}}" "${args[@]}"
