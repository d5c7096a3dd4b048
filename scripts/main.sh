#!/usr/bin/env bash
# The main job: builds and installs the project, then parses, verifies and
# pretty-prints a bundled Triton kernel (fused softmax, TTIR from Triton 3.9).
source "$(dirname "$0")/bootstrap.sh"
kernel=test/corpus/cases/02_fused_softmax/kernel.ttir
echo "== mtia-opt $kernel --pass-pipeline='builtin.module(mtia-drop-assumes,canonicalize,cse)'"
mtia-opt "$kernel" --pass-pipeline='builtin.module(mtia-drop-assumes,canonicalize,cse)'
