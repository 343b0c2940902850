# Sourced from the repository root: the independent validators, pinned in requirements.txt,
# installed into .tools/conformance-venv (ignored by git) when missing or out of date. Sets $venv.
venv="$PWD/.tools/conformance-venv"
if [ ! -x "$venv/bin/python" ] || ! cmp -s tests/conformance/requirements.txt "$venv/requirements.txt"; then
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check -r tests/conformance/requirements.txt
  cp tests/conformance/requirements.txt "$venv/requirements.txt"
fi
