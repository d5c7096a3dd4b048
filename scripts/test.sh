#!/usr/bin/env bash
# Builds and installs the project, then runs every test: ruff, lit, pytest.
source "$(dirname "$0")/bootstrap.sh"
ruff check .
lit -sv test/lit
pytest -q test/python "$@"
