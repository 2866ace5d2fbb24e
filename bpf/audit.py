#!/usr/bin/env python3
"""Prints rcubic's ssthresh audit counters (see the audit in rcubic.bpf.c) as seven
numbers: produced-by-rcubic, kernel-undo-or-reset, kernel-raise, unexplained,
reduction-without-ssthresh-call, state-change-without-set_state-call, repaired. Reads the
newest map named rcubic.bss (the object registered last; maps of an object
unregistered a moment ago can linger). Prints nothing when there is no such map or
it has no audit (an object built before the audit existed)."""
import json
import subprocess
import sys

AUDIT = "rcubic_ssthresh_audit"


def bpftool(*args):
    out = subprocess.run(["bpftool", "-j", *args], capture_output=True, text=True)
    return json.loads(out.stdout) if out.returncode == 0 and out.stdout.strip() else None


def main():
    maps = bpftool("map", "show") or []
    ids = [m["id"] for m in maps if m.get("name") == "rcubic.bss"]
    if not ids:
        return
    dump = bpftool("map", "dump", "id", str(max(ids))) or []
    for element in dump:
        for section in element.get("formatted", {}).get("value", {}).get(".bss", []):
            counts = section.get(AUDIT)
            if isinstance(counts, list) and len(counts) == 7:
                print(" ".join(str(int(c)) for c in counts))
                return


if __name__ == "__main__":
    sys.exit(main())
