#!/usr/bin/env bash
# Runs Triton's own language tests (pinned in ../shared/conformance/, run from a
# copy outside the project) on the MTIA backend and on Triton's interpreter, the
# oracle, and prints the backend's results: test/conformance/run.py --help.
source "$(dirname "$0")/bootstrap.sh"
python test/conformance/run.py "$@"
