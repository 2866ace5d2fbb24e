#!/usr/bin/env bash
# Which bytes and 64-byte lines of a `linux::Bbr` flow one step of the BBR cold
# benchmark (perf/src/cold/bbr/: an ACK and the sends it clocks out) reads and writes,
# in the steady and the recovery script, and after how many instructions from the
# step's first access to the flow each line is first touched: runs
# perf/src/bin/bbr_lines.rs under valgrind's lackey. With FIELDS=file (tokens
# `name:first_byte:end_byte`, offsets in the flow) it also says which flows touch each field.
# BBR_CC=bbr3 traces `linux::Bbr3` instead; ACK_ONLY=1 traces the ACK without its sends.
# Takes about fifteen minutes on the 2-core machine (the scripts' warm-ups are traced).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --manifest-path perf/Cargo.toml --bin bbr_lines >&2
target=${CARGO_TARGET_DIR:-perf/target}
bin="$target/release/bbr_lines"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
mark=$(valgrind --tool=none -q "$bin" --where)
end=$(printf '%08x' $((16#$mark + 8)))
echo "tracing (valgrind lackey, about fifteen minutes) ..." >&2
args=(--cc "${BBR_CC:-bbr}")
[ "${ACK_ONLY:-0}" = 1 ] && args+=(--ack-only)
valgrind --tool=lackey --trace-mem=yes --log-fd=3 "$bin" "${args[@]}" 3>&1 1>/dev/null 2>"$out/lab" \
  | awk -v a=" L $mark," -v b=" L $end," \
      'index($0, a) == 1 { on = 1 } on { print } index($0, b) == 1 { on = 0 }' >"$out/trace"
python3 - "$out/trace" "$out/lab" "${FIELDS:-}" <<'PY'
import collections, sys

labs = [l.split() for l in open(sys.argv[2]) if l.startswith("LAB")]
fields = []
if sys.argv[3]:
    for tok in open(sys.argv[3]).read().split():
        name, a, b = tok.split(":")
        fields.append((name, int(a), int(b)))
res, cur, icount, li = {}, None, 0, 0
for line in open(sys.argv[1]):
    if line.startswith("I"):
        icount += 1
        continue
    if len(line) < 4 or line[0] != " ":
        continue
    kind = line[1]
    a, sz = line[3:].strip().split(",")
    addr, sz = int(a, 16), int(sz)
    if cur is None:
        _, name, base, size, n, mark = labs[li]
        base, size, n = int(base, 16), int(size), int(n)
        cur = collections.defaultdict(lambda: {"R": set(), "W": set(), "first": {}})
        continue
    if kind == "L" and addr == int(labs[li][5], 16) + 8:
        res[labs[li][1]] = (cur, size)
        cur, li = None, li + 1
        continue
    if base <= addr < base + size * n:
        fl = cur[(addr - base) // size]
        off = (addr - base) % size
        if "t0" not in fl:
            fl["t0"] = icount
        for b in range(off, off + sz):
            if kind in "LM":
                fl["R"].add(b)
            if kind in "SM":
                fl["W"].add(b)
        fl["first"].setdefault(off // 64, icount - fl["t0"])
for name, (flows, size) in res.items():
    print(f"## {name}: {len(flows)} flows of {size} bytes, each at a 64-byte boundary\n")
    touched = collections.Counter(tuple(sorted(f["first"])) for f in flows.values())
    written = collections.Counter(tuple(sorted({b // 64 for b in f["W"]})) for f in flows.values())
    print(f"lines touched (flows): {dict(touched)}; lines written: {dict(written)}\n")
    print("| line | first touched after (instructions from the first access: min / median / max) |\n|---|---|")
    firsts = collections.defaultdict(list)
    for f in flows.values():
        for l, t in f["first"].items():
            firsts[l].append(t)
    for l in sorted(firsts):
        v = sorted(firsts[l])
        print(f"| {l} | {v[0]} / {v[len(v) // 2]} / {v[-1]} |")
    hot = sum(1 for b in range(size) if any(b in f["R"] or b in f["W"] for f in flows.values()))
    print(f"\nbytes any flow touched: {hot} of {size}\n")
    if fields:
        print("| bytes | field | flows reading | flows writing |\n|---|---|---|---|")
        for fname, a, b in fields:
            r = sum(1 for f in flows.values() if any(x in f["R"] for x in range(a, b)))
            w = sum(1 for f in flows.values() if any(x in f["W"] for x in range(a, b)))
            print(f"| {a}-{b - 1} | {fname} | {r} | {w} |")
        print()
PY
