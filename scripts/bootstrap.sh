# Sourced by the other scripts: creates the project's virtual environment if
# needed, installs the pinned dependencies and (re)builds and installs the
# project into it, then puts it first on PATH.
set -euo pipefail
MTIA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
MTIA_VENV=${MTIA_VENV:-$MTIA_ROOT/.venv}
if [ ! -x "$MTIA_VENV/bin/python" ]; then
  python3 -m venv "$MTIA_VENV"
fi
pip_install() {
  "$MTIA_VENV/bin/python" -m pip install --quiet --disable-pip-version-check "$@"
}
pip_install -r "$MTIA_ROOT/requirements-dev.txt"
# The build dependencies are the pinned wheels above, so no isolated build
# environment (which would download them again) is needed. The build
# directory persists under build/, so rebuilds are incremental.
pip_install --no-build-isolation "$MTIA_ROOT"
export PATH="$MTIA_VENV/bin:$PATH"
cd "$MTIA_ROOT"
