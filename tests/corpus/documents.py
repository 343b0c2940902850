"""The corpus documents unpacked: shared by the corpus test (run.py) and the gateway's
(tests/e2e/gateway/corpus.py)."""

import gzip
import shutil
import tarfile


def unpack(corpus, into):
    """(name, entry document) for every corpus document, unpacked into `into`."""
    docs = []
    for path in sorted(corpus.iterdir()):
        if path.name.endswith(".tree.tar.gz"):
            stem = path.name[: -len(".tree.tar.gz")]
            with tarfile.open(path) as tar:
                tar.extractall(into / stem, filter="data")
            docs.append((stem, find_entry(into / stem)))
        elif path.name.endswith(".gz"):
            target = into / path.name[: -len(".gz")]
            with gzip.open(path) as src, open(target, "wb") as dst:
                shutil.copyfileobj(src, dst)
            docs.append((target.name, target))
    return docs


def find_entry(tree):
    """The top-level document of a multi-file description's `specification/` folder."""
    for spec in sorted(p for p in tree.rglob("specification") if p.is_dir()):
        for doc in sorted(spec.iterdir()):
            if doc.is_file() and any(l.startswith("openapi:") for l in doc.read_text(errors="replace").splitlines()):
                return doc
    raise SystemExit(f"{tree}: no entry document")
