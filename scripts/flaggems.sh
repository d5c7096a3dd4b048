#!/usr/bin/env bash
# Runs FlagGems 5.0.2's own tests on the MTIA backend, with no launcher shim
# (test/flaggems/README.md; options: test/flaggems/run.py --help).
#
# Needs the project's environment (.venv, made by scripts/bootstrap.sh). Makes
# once, under build/ (git-ignored):
#   build/flaggems-venv  a virtual environment that sees the project's one
#                        (torch, triton, mtia_compiler) through a .pth file and
#                        holds flag-gems==5.0.2 (--no-deps) and its small
#                        pure-Python dependencies;
#   build/flaggems-src   FlagGems' source at tag v5.0.2, for its tests/ (the
#                        wheel ships none and PyPI has no sdist of 5.0.2),
#                        cloned from $FLAGGEMS_REPO (a URL or a local clone).
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
project_python=$root/.venv/bin/python
venv=$root/build/flaggems-venv
source_dir=$root/build/flaggems-src
repository=${FLAGGEMS_REPO:-https://github.com/flagos-ai/FlagGems.git}

if [[ ! -x $project_python ]]; then
    echo "flaggems.sh: $project_python is missing: run scripts/bootstrap.sh first" >&2
    exit 1
fi

if [[ ! -x $venv/bin/python ]]; then
    # The same base interpreter as the project's environment, whose packages
    # (site.addsitedir also runs their .pth files: the editable install)
    # come after the new environment's own.
    base=$("$project_python" -c 'import sys; print(sys._base_executable)')
    "$base" -m venv "$venv"
    project_site=$("$project_python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    own_site=$("$venv/bin/python" -c 'import sysconfig; print(sysconfig.get_paths()["purelib"])')
    echo "import site; site.addsitedir('$project_site')" > "$own_site/mtia-project-env.pth"
fi
if ! "$venv/bin/python" -c 'import importlib.metadata as m, sys
sys.exit(m.version("flag_gems") != "5.0.2")' 2>/dev/null; then
    # FlagGems pins torch, numpy and packaging versions the project's
    # environment does not have; it runs with the project's own, so only
    # the packages it imports that the project lacks are installed.
    "$venv/bin/python" -m pip install --quiet --no-deps flag-gems==5.0.2 PyYAML==6.0.3 \
        sqlalchemy==2.0.48
fi

if [[ ! -d $source_dir/tests ]]; then
    rm -rf "$source_dir"
    git clone --quiet --depth 1 --branch v5.0.2 "$repository" "$source_dir"
fi

exec nice "$venv/bin/python" test/flaggems/run.py --tests "$source_dir/tests" "$@"
