#!/usr/bin/env bash
# Builds the simulator (sim/: the machine model, the program loader, the
# target loader and the nanobind module) with AddressSanitizer and
# UndefinedBehaviorSanitizer in its own build directory, then runs the
# simulator's tests against that module instead of the installed one. Any
# report fails the run (UBSan does not recover). Not part of scripts/test.sh:
# the instrumented build and run take several minutes.
#
#   bash scripts/sanitize.sh                 # test/python/sim
#   bash scripts/sanitize.sh test/python -k run_arguments   # other tests
source "$(dirname "$0")/bootstrap.sh"
BUILD=${MTIA_SANITIZE_BUILD:-$MTIA_ROOT/build/sanitize}
SITE=$("$MTIA_VENV/bin/python" -c "import sysconfig; print(sysconfig.get_paths()['purelib'])")
# vptr checks need the type information of LLVM's classes, which the LLVM
# wheel is built without.
FLAGS="-fsanitize=address,undefined -fno-sanitize=vptr -fno-sanitize-recover=undefined -fno-omit-frame-pointer -g"
cmake -G Ninja -S "$MTIA_ROOT/sim" -B "$BUILD" \
  -DPython_EXECUTABLE="$MTIA_VENV/bin/python" \
  -DLLVM_DIR="$SITE/llvm/lib/cmake/llvm" \
  -DCMAKE_BUILD_TYPE=RelWithDebInfo \
  -DCMAKE_CXX_FLAGS="$FLAGS" \
  -DCMAKE_SHARED_LINKER_FLAGS="-fsanitize=address,undefined" >/dev/null
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
# Python itself is not instrumented: the ASan runtime is preloaded (with
# libstdc++, whose exceptions ASan intercepts), and leaks (the
# interpreter's own, at exit) are not reported.
export LD_PRELOAD="$(g++ -print-file-name=libasan.so) $(g++ -print-file-name=libstdc++.so)"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
export PYTHONPATH="$SHIM${PYTHONPATH:+:$PYTHONPATH}"
if [ $# -eq 0 ]; then
  set -- test/python/sim
fi
pytest -q -p no:cacheprovider "$@"
