//! Which bytes of a `linux::Bbr` flow one step of the cold benchmark's scripts (an ACK
//! and the sends it clocks out) reads and writes: run under valgrind's lackey by
//! `scripts/cold-lines-bbr.sh`. For each script (steady, recovery) places its 64
//! starting flows in a 64-byte-aligned array, prints the array's address and element
//! size to stderr, loads `MARK[0]`, runs step `p` on flow `p`, and loads `MARK[1]`.
//! With `--where` it only prints `MARK`'s address (valgrind loads the program at the
//! same address every time, so the script learns it from a quick first run).
use congestion_perf::cold::bbr::{ColdBbr, PHASES, Part, Script, TcpStack};

static MARK: [u64; 8] = [0; 8];

/// One 8-byte load of `MARK[k]` the trace is split at.
fn mark(k: usize) {
    // SAFETY: k < 8, a plain read of a static.
    let v = unsafe { core::ptr::read_volatile(MARK.as_ptr().add(k)) };
    std::hint::black_box(v);
}

#[repr(C, align(64))]
#[derive(Clone)]
struct Slot(ColdBbr);

fn main() {
    if std::env::args().nth(1).as_deref() == Some("--where") {
        println!("{:08x}", MARK.as_ptr() as usize);
        return;
    }
    for (name, part) in [("steady", Part::Steady), ("recovery", Part::Recovery)] {
        let script = Script::<ColdBbr>::record::<TcpStack>(part, PHASES + 2);
        let mut flows: Vec<Slot> = script.phases.iter().cloned().map(Slot).collect();
        let base = flows.as_ptr() as usize;
        eprintln!(
            "LAB {name} {base:#x} {} {} {:#x}",
            size_of::<Slot>(),
            flows.len(),
            MARK.as_ptr() as usize
        );
        mark(0);
        for (p, f) in flows.iter_mut().enumerate() {
            script.step(std::hint::black_box(&mut f.0), p);
        }
        mark(1);
        std::hint::black_box(&flows);
        std::mem::forget(flows);
    }
}
