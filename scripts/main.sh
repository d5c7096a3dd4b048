#!/usr/bin/env bash
# The main job: builds and installs the project, then compiles the bundled
# Triton fused-softmax kernel (TTIR from Triton 3.9), runs it on the simulated
# MTIA-2i, checks it against numpy and prints the simulated cycles.
source "$(dirname "$0")/bootstrap.sh"
python -m mtia_compiler.demo "$@"
