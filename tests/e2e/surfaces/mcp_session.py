"""What the MCP checkers share: the ok/FAIL reporting, the wire form of SDK models, and running
one checking session against a server command, reporting a session that fails as a failure."""
import json
import sys

import anyio

failures = []


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def wire(model):
    return model.model_dump(by_alias=True, exclude_none=True, exclude_unset=True, mode="json")


def run_checks(name, session, args):
    """Runs `session(manifest, server)` with `args` = MCP_TOOLS_JSON -- SERVER_CMD [ARG...], then
    exits 0 if every check passed."""
    i = args.index("--")
    with open(args[0]) as f:
        manifest = json.load(f)
    try:
        anyio.run(session, manifest, args[i + 1 :])
    except BaseException as e:  # noqa: BLE001 - report, then fail
        while isinstance(e, BaseExceptionGroup) and len(e.exceptions) == 1:
            e = e.exceptions[0]
        failures.append(f"the session failed: {type(e).__name__}: {e}")
        print(f"FAIL {failures[-1]}")
    print(f"{name}: {'all passed' if not failures else f'{len(failures)} failed'}")
    sys.exit(1 if failures else 0)
