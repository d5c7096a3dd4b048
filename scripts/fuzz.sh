#!/usr/bin/env bash
# Runs the mutation fuzzer (test/python/fuzz_ttir.py) at length: N mutated
# TTIR kernels through `mtia-opt --stage all`, N/10 through compile + run and
# N/10 mutated launches through the Triton backend, from SEED. Prints the counts of each outcome; exits 1 when an input killed
# a process, raised a traceback, got an unlocated error or wrote outside a
# buffer (the inputs are kept in the directory it names).
#
#   bash scripts/fuzz.sh [N=10000] [SEED=1]
source "$(dirname "$0")/bootstrap.sh"
N=${1:-10000}
SEED=${2:-1}
python test/python/fuzz_ttir.py --opt "$N" --run "$((N / 10))" --launch "$((N / 10))" --seed "$SEED"
