#!/usr/bin/env bash
# Every shell block of README.md and docs/*.md runs as written, in order, from a copy of the
# clone's root (a git repository of its own, so `git:HEAD:…` reads), with the `stitchgen` that
# `cargo install --path cli` would put on the PATH first on it. A block whose info string
# says `no-run` is skipped: the README's two commands (CI runs them as its test step and in
# tests/e2e/cli.sh), and blocks that need the network, a server left running, or a build of
# their own (tests/e2e/surfaces.sh and gateway.sh run those surfaces with real clients).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"

cargo build --locked -q -p stitchgen-cli
bin="$(cd "${CARGO_TARGET_DIR:-target}" && pwd)/debug/stitchgen"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin" "$work/blocks" "$work/clone"
ln -s "$bin" "$work/bin/stitchgen"
git ls-files -z --cached --others --exclude-standard | tar --null -T - -cf - 2>/dev/null | tar -xf - -C "$work/clone"
(cd "$work/clone" && git init -q && git add -A && git -c user.name=readme -c user.email=readme@localhost commit -qm readme)

# Each runnable block as its own script, named FILE:LINE.
python3 - "$work/blocks" README.md docs/*.md <<'PY'
import sys, pathlib
out = pathlib.Path(sys.argv[1])
n = 0
for name in sys.argv[2:]:
    lines = pathlib.Path(name).read_text().split("\n")
    i = 0
    while i < len(lines):
        info = lines[i].strip()
        if info.startswith("```") and info[3:].split()[:1] == ["sh"]:
            start, body = i + 1, []
            i += 1
            while not lines[i].startswith("```"):
                body.append(lines[i]); i += 1
            if "no-run" not in info.split():
                n += 1
                (out / f"{n:03}").write_text(f"# {name}:{start}\n" + "\n".join(body) + "\n")
        i += 1
print(f"{n} shell blocks to run")
PY

pass=0 fail=0
for block in "$work/blocks"/*; do
  where=$(head -1 "$block" | cut -c3-)
  if (cd "$work/clone" && PATH="$work/bin:$PATH" bash -euo pipefail "$block") >"$block.out" 2>&1; then
    pass=$((pass + 1))
  else
    echo "FAIL: the block at $where:"; sed 's/^/    /' "$block"; echo "  printed:"; sed 's/^/    /' "$block.out" | tail -20
    fail=$((fail + 1))
  fi
done
echo "README and docs shell blocks: $pass ran as written, $fail failed"
[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
