"""The public API of both crates, as `cargo doc` shows it, against the committed lists here.

Reads rustdoc's own index of every item a crate documents (`target/doc/CRATE/all.html`, written
by the CI's `cargo doc --workspace --no-deps` step, all features on) and compares it with
`CRATE.txt`: an item that appears or disappears is a change of what users may depend on, to be
reviewed like a snapshot. `--update` rewrites the lists.

usage: python3 tests/public-api/check.py [--update] DOC_DIR
"""
import pathlib
import re
import sys

HERE = pathlib.Path(__file__).parent
CRATES = ["stitchgen", "stitchgen_runtime"]


def items(doc_dir, crate):
    page = (doc_dir / crate / "all.html").read_text()
    # Each item is one link: `struct.Config.html`, `axum/fn.router.html`.
    found = re.findall(r'<li><a href="([^"]+)\.html">', page)
    return sorted(f"{crate}::{href.replace('/', '::')}" for href in found)


def main():
    args = sys.argv[1:]
    update = "--update" in args
    doc_dir = pathlib.Path([a for a in args if a != "--update"][0])
    failed = 0
    for crate in CRATES:
        now = items(doc_dir, crate)
        listed = HERE / f"{crate}.txt"
        if update:
            listed.write_text("".join(f"{i}\n" for i in now))
            print(f"{crate}: {len(now)} public items written to {listed.name}")
            continue
        want = listed.read_text().split() if listed.exists() else []
        added, gone = sorted(set(now) - set(want)), sorted(set(want) - set(now))
        for i in added:
            print(f"FAIL {i}: public, and not in {listed.name}")
        for i in gone:
            print(f"FAIL {i}: in {listed.name}, and no longer public")
        failed += len(added) + len(gone)
        print(f"{crate}: {len(now)} public items{'' if added or gone else ', as listed'}")
    if failed:
        print("review the change; `python3 tests/public-api/check.py --update DOC_DIR` accepts it")
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
