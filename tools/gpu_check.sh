#!/usr/bin/env bash
# numr GPU check: on a machine with an NVIDIA GPU and its own python3 (no network), build numr in
# place, precompile the CUDA kernels, run the whole test suite with CUDA required, then benchmark
# numr against CuPy and PyTorch and print one short table last. Every section is time-limited and
# fails soft; the whole run stays under 8 minutes. Logs go to $OUT (or /tmp/numr_gpu_check).
#
#   bash tools/gpu_check.sh            # PYTHON=/path/to/python3 to choose the interpreter
set -u
cd "$(dirname "$0")/.."
PY=${PYTHON:-python3}
LOG=${OUT:-/tmp/numr_gpu_check}
mkdir -p "$LOG"
START=$(date +%s)
SUMMARY="$LOG/summary.txt"
: > "$SUMMARY"
export NUMR_CUDA_CACHE_DIR="$LOG/nvrtc-cache"
export PYTHONDONTWRITEBYTECODE=1
unset NUMR_CUDA_EMULATE

note() { echo "$*" | tee -a "$SUMMARY"; }
elapsed() { echo $(( $(date +%s) - START )); }
# run NAME LIMIT_SECONDS CMD...: output to $LOG/NAME.log, one status line in the summary
run() {
  local name=$1 limit=$2; shift 2
  local t0=$(date +%s)
  timeout --kill-after=10 "$limit" "$@" > "$LOG/$name.log" 2>&1
  local rc=$?
  local dt=$(( $(date +%s) - t0 ))
  if [ $rc -eq 0 ]; then note "[ok]   $name (${dt}s)";
  elif [ $rc -eq 124 ] || [ $rc -eq 137 ]; then note "[TIME] $name: stopped after ${limit}s (log: $LOG/$name.log)";
  else note "[FAIL] $name: exit $rc (${dt}s, log: $LOG/$name.log)"; fi
  return $rc
}

note "== numr GPU check $(date -u +%FT%TZ) in $(pwd), logs in $LOG"
{ nvidia-smi --query-gpu=name,driver_version,memory.total --format=csv,noheader 2>&1 | head -4
  $PY -V 2>&1; } | tee -a "$SUMMARY"

# 0. what this Python has (no network: nothing is installed, only reported)
$PY - <<'PY' 2>&1 | tee -a "$SUMMARY"
import importlib
mods = ["numpy", "ml_dtypes", "Cython", "setuptools", "pytest", "hypothesis", "scipy", "cuda.bindings",
        "cuda.pathfinder", "cupy", "torch"]
have, missing = [], []
for m in mods:
    try:
        mod = importlib.import_module(m)
        have.append(f"{m} {getattr(mod, '__version__', '')}".strip())
    except Exception as e:
        missing.append(f"{m} ({type(e).__name__})")
print("have:", ", ".join(have))
print("MISSING:", ", ".join(missing) if missing else "nothing")
try:
    from cuda.bindings import nvrtc
    print("nvrtc", nvrtc.nvrtcVersion()[1:])
except Exception as e:
    print("nvrtc: unavailable", e)
PY

# 1. build the CPU extensions in place (needs Cython; numr's CUDA backend itself is pure Python + NVRTC)
JOBS=$(nproc 2>/dev/null || echo 4)
if $PY -c "import Cython" 2>/dev/null; then
  NUMR_BUILD_JOBS=$JOBS run build 200 $PY setup.py build_ext --inplace -j "$JOBS" \
    || note "       (the CPU extensions did not build: CPU tests will fail; CUDA tests still run)"
else
  note "[SKIP] build: Cython is missing here, the CPU kernels cannot be built (pip install Cython)"
fi
if ! $PY -c "import numr" > "$LOG/import.log" 2>&1; then
  note "[FAIL] import numr: $(tail -1 "$LOG/import.log")"
  note "       (numr needs numpy and ml_dtypes; nothing else can run)"
  cat "$SUMMARY"; exit 1
fi
$PY -c "
import numr as nr
rt = nr.runtime.get('cuda')
print('cuda available:', rt.is_available(), rt.unavailable_reason() or '')
if rt.is_available(): print(rt.device_info(rt.default_device()))
" 2>&1 | tee -a "$SUMMARY"

# 2. compile every kernel for this GPU's arch in parallel (later steps hit the disk cache)
run precompile 100 $PY -m numr._cuda.precompile --jobs "$JOBS"
tail -1 "$LOG/precompile.log" | tee -a "$SUMMARY"

# 3. the CUDA tests first (fast feedback), then the whole suite with cpu and cuda required
export NUMR_REQUIRE_BACKENDS=cpu,cuda
run tests_cuda 110 $PY -m pytest -q -x -p no:cacheprovider tests/cuda
tail -3 "$LOG/tests_cuda.log" | tee -a "$SUMMARY"
LEFT=$(( 400 - $(elapsed) )); [ $LEFT -lt 60 ] && LEFT=60
# pytest-xdist (in that machine's image) runs the suite in 6 processes, two OpenMP threads each
XDIST=(); $PY -c "import xdist" 2>/dev/null && XDIST=(-p xdist -n 6)
OMP_NUM_THREADS=$([ ${#XDIST[@]} -gt 0 ] && echo 2 || echo "$JOBS") \
  run tests_all "$LEFT" $PY -m pytest -q -p no:cacheprovider "${XDIST[@]}" -k "not wgpu" tests
grep -E "^(FAILED|ERROR)" "$LOG/tests_all.log" | head -25 | tee -a "$SUMMARY"
tail -1 "$LOG/tests_all.log" | tee -a "$SUMMARY"
unset NUMR_REQUIRE_BACKENDS

# 4. side-by-side benchmark (prints its table last)
LEFT=$(( 470 - $(elapsed) )); [ $LEFT -lt 30 ] && LEFT=30
run bench "$LEFT" $PY tools/gpu_bench.py --budget $(( LEFT - 10 ))
note "== done in $(elapsed)s"
echo
cat "$LOG/bench.log" | sed -n '/^== numr vs/,$p'
