#!/usr/bin/env bash
# Builds and installs the project, then runs every test: ruff, mypy, lit,
# pytest. mypy checks the installed package (which holds the generated op
# bindings), then the tests and benchmarks (pyproject.toml), then the FlagGems
# runner on its own (its run.py would clash with the conformance runner's).
source "$(dirname "$0")/bootstrap.sh"
ruff check .
mypy -p mtia_compiler -p mtia
mypy
mypy test/flaggems
lit -sv test/lit
pytest -q test/python "$@"
