#!/usr/bin/env bash
# The LLM peers benchmark (issue 19) in one command:
#   bash benchmarks/llm_run.sh [--work /work/bench] [--venvs /work/bench] [--tiny] [llm_paired.py options: --rounds N, ...]
# 1. creates/updates VENVS/venv (requirements-llm.txt; llama-cpp-python compiled here for this CPU, which
#    takes half an hour on two cores) and VENVS/builder-venv (requirements-llm-builder.txt: onnxruntime-genai's
#    model builder); VENVS is separate from WORK so a smoke test in another WORK reuses them,
# 2. builds the random-weight models, their Q4_0 GGUFs, onnxruntime-genai int4 models and Fanyi's int4 packs
#    (llm_prepare.py; Fanyi's export runs in the repository's .venv, which `make test` makes, or in
#    $FANYI_PYTHON),
# 3. measures the memory bandwidth, runs the paired workers and writes benchmarks/RESULTS-llm.md
#    (--tiny: the tiny smoke-test models, the report in WORK/RESULTS-llm-tiny.md).
# Everything built stays in WORK, outside the repository.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work=/work/bench
venvs=/work/bench
models="hy-mt1.5-1.8b,qwen3-1.7b"
report="$here/RESULTS-llm.md"
args=()
while (($#)); do
  case "$1" in
    --work) work="$2"; shift 2 ;;
    --venvs) venvs="$2"; shift 2 ;;
    --tiny) models="hy-mt1.5-1.8b-tiny,qwen3-1.7b-tiny"; tiny=1; shift ;;
    *) args+=("$1"); shift ;;
  esac
done
[[ -n "${tiny:-}" ]] && report="$work/RESULTS-llm-tiny.md"

venv() {  # venv folder, requirements file
  local folder="$1" requirements="$2" stamp want
  [[ -x "$folder/bin/python" ]] || python3 -m venv "$folder"
  stamp="$folder/.requirements.sha256"
  want="$(sha256sum "$requirements" | cut -d' ' -f1)"
  if [[ "$(cat "$stamp" 2>/dev/null)" != "$want" ]]; then
    # llama-cpp-python builds llama.cpp from source: native SIMD, OpenMP threads, no BLAS, no curl.
    local log
    log="$(mktemp)"
    if ! CMAKE_ARGS="-DGGML_NATIVE=ON -DGGML_OPENMP=ON -DGGML_BLAS=OFF -DLLAMA_CURL=OFF" \
        CMAKE_BUILD_PARALLEL_LEVEL="$(nproc)" "$folder/bin/pip" install -q -r "$requirements" >"$log" 2>&1; then
      grep -v "is ignored" "$log" >&2
      rm -f "$log"
      return 1
    fi
    rm -f "$log"
    echo "$want" > "$stamp"
  fi
}
mkdir -p "$work/results"
venv "$venvs/venv" "$here/requirements-llm.txt"
venv "$venvs/builder-venv" "$here/requirements-llm-builder.txt"
cd "$here"
# Fanyi's engine is imported from this checkout (its runtime needs only what the venv has: onnxruntime,
# numpy, tokenizers, jinja2)
export PYTHONWARNINGS=ignore TOKENIZERS_PARALLELISM=false PYTHONPATH="$here/../app"
py="$venvs/venv/bin/python"
"$py" llm_prepare.py --work "$work" --models "$models" --builder-python "$venvs/builder-venv/bin/python" \
  --fanyi-python "${FANYI_PYTHON:-$here/../.venv/bin/python}"
"$py" llm_bandwidth.py --out "$work/results/bandwidth.json"
"$py" llm_paired.py --work "$work" --models "$models" "${args[@]}"
"$py" llm_report.py --work "$work" --models "$models" --out "$report"
