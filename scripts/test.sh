#!/usr/bin/env bash
# Builds and installs the project, then runs every test: ruff, mypy, lit,
# pytest. mypy checks the installed package (which holds the generated op
# bindings), then the tests and benchmarks (pyproject.toml).
source "$(dirname "$0")/bootstrap.sh"
ruff check .
mypy -p mtia_compiler
mypy
lit -sv test/lit
pytest -q test/python "$@"
