#!/usr/bin/env bash
# Which 64-byte lines of a flow one congestion-avoidance ACK and the send after it
# touch, for every column of the cold-state benchmark (perf/src/bin/cold.rs): runs
# `cold lines` under valgrind's lackey, which traces every load and store, and keeps
# the accesses between the markers perf/src/cold/lines.rs emits. Each flow type is
# measured in 64 flows laid out as a plain array (every offset a flow of that size takes
# in one); the table gives the distinct lines per ACK + send (mean, min-max over the 64)
# and, for the flow that starts on a line boundary, the byte ranges read and written.
#
#   scripts/cold-lines.sh                      # every column
#   ONLY=linux,rfc scripts/cold-lines.sh       # some
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --manifest-path perf/Cargo.toml --bin cold >&2
target=${CARGO_TARGET_DIR:-perf/target}
bin="$target/release/cold"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
args=(lines)
if [ -n "${ONLY:-}" ]; then args+=(--only "$ONLY"); fi
cat >"$out/lines.py" <<'PY'
import sys

lab = None
recent = []
regions = []  # per marked step: {"ack": [(kind, addr, size)], "send": [...]}
cur = None
part = None
for line in sys.stdin:
    if len(line) < 4 or line[0] != ' ':
        continue
    kind = line[1]
    try:
        a, sz = line[3:].strip().split(',')
        addr = int(a, 16)
        size = int(sz)
    except ValueError:
        continue
    if lab is None:
        # Only 8-byte loads at those page offsets: black_box's own stack traffic
        # lies between the four.
        if kind == 'L' and size == 8 and addr % 4096 in (0, 56, 24, 40):
            recent = (recent + [addr])[-4:]
            if len(recent) == 4:
                b = recent[0]
                if b % 4096 == 0 and recent[1:] == [b + 56, b + 24, b + 40]:
                    lab = b
        continue
    off = addr - lab
    if kind == 'L' and size == 8 and off in (64, 128, 192):
        if off == 64:
            cur = {"ack": [], "send": []}
            part = "ack"
        elif off == 128 and cur is not None:
            part = "send"
        elif off == 192 and cur is not None:
            regions.append(cur)
            cur = None
        continue
    if cur is not None and 4096 <= off < 4096 + 65536:
        cur[part].append((kind, off - 4096, size))

if lab is None:
    sys.exit("no calibration pattern found in the trace")
# Read after the trace has ended: the program writes it as it goes.
listing = [l.rsplit(maxsplit=2) for l in open(sys.argv[1]) if l.strip()]
if len(regions) != len(listing):
    sys.exit(f"{len(regions)} marked steps traced, {len(listing)} listed")

by_name = {}
for (name, idx, size), reg in zip(listing, regions):
    idx, size = int(idx), int(size)
    start = idx * size
    def lines_of(accs):
        s = set()
        for kind, off, sz in accs:
            r = off - start
            if 0 <= r < size or 0 <= r + sz - 1 < size:
                for l in range(off // 64, (off + sz - 1) // 64 + 1):
                    s.add(l)
        return s
    ack, send = lines_of(reg["ack"]), lines_of(reg["send"])
    by_name.setdefault(name, []).append((idx, size, start, ack, send, reg))

def ranges(accs, start, size, kinds):
    """Merged byte ranges (relative to the flow) of the accesses of these kinds."""
    spans = sorted((off - start, off - start + sz) for k, off, sz in accs
                   if k in kinds and 0 <= off - start < size)
    merged = []
    for a, b in spans:
        if merged and a <= merged[-1][1]:
            merged[-1][1] = max(merged[-1][1], b)
        else:
            merged.append([a, b])
    return " ".join(f"{a}-{b - 1}" for a, b in merged) or "-"

print("| column | size_of | lines per ACK + send: mean (min-max) over 64 offsets | ACK part | send part | ACK+send at a line-aligned start |")
print("|---|---|---|---|---|---|")
for name, rows in by_name.items():
    both = [len(a | s) for _, _, _, a, s, _ in rows]
    acks = [len(a) for _, _, _, a, _, _ in rows]
    sends = [len(s) for _, _, _, _, s, _ in rows]
    aligned = [len(a | s) for i, sz, st, a, s, _ in rows if st % 64 == 0]
    m = lambda v: f"{sum(v) / len(v):.2f} ({min(v)}-{max(v)})"
    print(f"| {name} | {rows[0][1]} | {m(both)} | {m(acks)} | {m(sends)} | {min(aligned)}-{max(aligned)} |")

print()
print("Byte ranges touched in the flow at index 0 (offset 0, line-aligned), by part; R = loads, W = stores (lackey's M, a modify, counts as both):")
print()
print("| column | part | lines | read | written |")
print("|---|---|---|---|---|")
for name, rows in by_name.items():
    idx, size, start, ack, send, reg = rows[0]
    for part, ls in (("ACK", ack), ("send", send)):
        accs = reg["ack" if part == "ACK" else "send"]
        rel = sorted(l - start // 64 for l in ls)
        print(f"| {name} | {part} | {' '.join(map(str, rel)) or '-'} | {ranges(accs, start, size, 'LM')} | {ranges(accs, start, size, 'SM')} |")
PY
echo "tracing (valgrind lackey; the warm-ups are traced too: about five minutes) ..." >&2
valgrind --tool=lackey --trace-mem=yes --log-fd=3 "$bin" "${args[@]}" 3>&1 1>"$out/list" 2>"$out/stderr" \
  | grep -v '^I' | python3 "$out/lines.py" "$out/list"
