# Sourced by the bench scripts that measure this tree beside a base revision (bench/ring.sh,
# bench/module.sh). The caller sets `root` and `work` and defines `say`.

# build_revisions BASE BASE_TARGET: release stitchgen of this tree into $work/head and, when BASE
# is not empty, of BASE into $work/base, built in a worktree ($work/base-tree) with its own
# target directory BASE_TARGET. Sets head_label (the commit, with "+N modified" when tracked
# files have changes) and base_label.
build_revisions() {
  local base_rev=$1 base_target=$2 dirty
  say "building release stitchgen (this tree)"
  (cd "$root" && cargo build --release -p stitchgen-cli --locked -q)
  cp "${CARGO_TARGET_DIR:-$root/target}/release/stitchgen" "$work/head"
  head_label=$(git -C "$root" rev-parse --short HEAD)
  dirty=$(git -C "$root" status --porcelain --untracked-files=no | wc -l)
  if [ "$dirty" -gt 0 ]; then head_label="$head_label +$dirty modified"; fi
  base_label=
  if [ -z "$base_rev" ]; then return 0; fi
  base_label=$(git -C "$root" rev-parse --short "$base_rev")
  say "building release stitchgen at $base_label (a worktree, its own target directory)"
  git -C "$root" worktree add --detach "$work/base-tree" "$base_label" >/dev/null 2>&1
  # The binary is package stitchgen-cli's since it has one; stitchgen's before.
  local package=stitchgen-cli
  [ -d "$work/base-tree/cli" ] || package=stitchgen
  (cd "$work/base-tree" && CARGO_TARGET_DIR="$base_target" cargo build --release -p "$package" --locked -q)
  cp "$base_target/release/stitchgen" "$work/base"
}

# remove_revisions: the EXIT trap, removing the base worktree and the scratch directory.
remove_revisions() {
  git -C "$root" worktree remove --force "$work/base-tree" >/dev/null 2>&1 || true
  rm -rf "$work"
}
