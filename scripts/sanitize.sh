#!/usr/bin/env bash
# Builds the simulator (sim/: the machine model, the program loader, the
# target loader and the nanobind module) with AddressSanitizer and
# UndefinedBehaviorSanitizer in its own build directory, then runs the
# simulator's tests against that module instead of the installed one. Any
# report fails the run (UBSan does not recover). Not part of scripts/test.sh:
# the instrumented build and run take several minutes.
# With MTIA_SANITIZE=thread it builds with ThreadSanitizer instead, for the
# simulator's kernel thread (sim/lib/machine/KernelQueue.h).
#
#   bash scripts/sanitize.sh                 # test/python/sim
#   bash scripts/sanitize.sh test/python -k run_arguments   # other tests
#   MTIA_SANITIZE=thread bash scripts/sanitize.sh
source "$(dirname "$0")/bootstrap.sh"
SANITIZE=${MTIA_SANITIZE:-address}
BUILD=${MTIA_SANITIZE_BUILD:-$MTIA_ROOT/build/sanitize-$SANITIZE}
SITE=$("$MTIA_VENV/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
if [ "$SANITIZE" = thread ]; then
  SANITIZERS=thread
  FLAGS="-fsanitize=thread -g"
else
  SANITIZERS=address,undefined
  # vptr checks need the type information of LLVM's classes, which the LLVM
  # wheel is built without.
  FLAGS="-fsanitize=address,undefined -fno-sanitize=vptr -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g"
fi
cmake -G Ninja -S "$MTIA_ROOT/sim" -B "$BUILD" \
  -DPython_EXECUTABLE="$MTIA_VENV/bin/python" \
  -DLLVM_DIR="$SITE/llvm/lib/cmake/llvm" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="$FLAGS" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=$SANITIZERS" >/dev/null
cmake --build "$BUILD" --target _sim -j "${CMAKE_BUILD_PARALLEL_LEVEL:-2}"
MODULE=$(ls "$BUILD"/_sim*.so)

# The instrumented module takes the place of mtia_compiler._sim before the
# package imports it (sitecustomize runs at interpreter start, in the test
# process and in the children it starts).
SHIM=$(mktemp -d)
trap 'rm -rf "$SHIM"' EXIT
cat >"$SHIM/sitecustomize.py" <<EOF
import importlib.util, sys
spec = importlib.util.spec_from_file_location("mtia_compiler._sim", "$MODULE")
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
sys.modules["mtia_compiler._sim"] = module
EOF
# Python itself is not instrumented: the sanitizer's runtime is preloaded
# (with libstdc++, whose exceptions the sanitizers intercept), and leaks
# (the interpreter's own, at exit) are not reported.
if [ "$SANITIZE" = thread ]; then
  export LD_PRELOAD="$(g++ -print-file-name=libtsan.so) $(g++ -print-file-name=libstdc++.so)"
  # OpenBLAS's threads synchronise in code TSan does not see: numpy's
  # products run on the test's thread.
  export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1
  # Reports go to files, which are printed at the end: pytest captures the
  # test process's stderr and loses it when the sanitizer ends the process.
  export TSAN_OPTIONS=halt_on_error=1:report_signal_unsafe=0:log_path=$SHIM/report
else
  export LD_PRELOAD="$(g++ -print-file-name=libasan.so) $(g++ -print-file-name=libstdc++.so)"
  export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
  export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
fi
export PYTHONPATH="$SHIM${PYTHONPATH:+:$PYTHONPATH}"
if [ $# -eq 0 ]; then
  set -- test/python/sim
fi
status=0
pytest -q -p no:cacheprovider "$@" || status=$?
for report in "$SHIM"/report.*; do
  [ -e "$report" ] || continue
  cat "$report"
  status=1
done
exit "$status"
