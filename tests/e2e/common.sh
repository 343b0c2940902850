# Shared by the end-to-end scripts (sourced, from the repository root): the pinned Python clients
# in .tools/e2e-venv, and the ok/no/suite reporting.

tools="$root/.tools"
mkdir -p "$tools"

# The official MCP Python SDK and the HTTP checkers, pinned, in a venv of their own.
venv="$tools/e2e-venv"
requirements=tests/e2e/surfaces/requirements.txt
if [ ! -x "$venv/bin/python" ] || ! cmp -s "$requirements" "$venv/requirements.txt"; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r "$requirements"
  cp "$requirements" "$venv/requirements.txt"
fi

pass=0
fail=0
ok() { echo "ok   $*"; pass=$((pass + 1)); }
no() { echo "FAIL $*"; fail=$((fail + 1)); }
suite() { # suite NAME -- COMMAND...: a checker that prints its own lines and exits non-zero on failure
  local name=$1; shift 2
  if "$@"; then ok "$name"; else no "$name"; fi
}
