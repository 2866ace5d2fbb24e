//! Which bytes of a Linux-mode BBR flow one step of the cold benchmark's scripts (an ACK
//! and the sends it clocks out, or with `--ack-only` the ACK alone) reads and writes:
//! run under valgrind's lackey by `scripts/cold-lines-bbr.sh`. `--cc bbr` (the default)
//! traces `linux::Bbr`, `--cc bbr3` `linux::Bbr3`. For each script (steady, recovery)
//! places its 64 starting flows in a 64-byte-aligned array, prints the array's address
//! and element size to stderr, loads `MARK[0]`, runs step `p` on flow `p`, and loads
//! `MARK[1]`. With `--where` it only prints `MARK`'s address (valgrind loads the program
//! at the same address every time, so the script learns it from a quick first run).
use congestion::linux::bbr::Sent;
use congestion_perf::cold::bbr::{
    ColdBbr, ColdBbr3, PHASES, Part, Script, ScriptFlow, Stack, TcpAckIn, TcpSendIn, TcpStack,
};

static MARK: [u64; 8] = [0; 8];

/// One 8-byte load of `MARK[k]` the trace is split at.
fn mark(k: usize) {
    // SAFETY: k < 8, a plain read of a static.
    let v = unsafe { core::ptr::read_volatile(MARK.as_ptr().add(k)) };
    std::hint::black_box(v);
}

#[repr(C, align(64))]
#[derive(Clone)]
struct Slot<F>(F);

fn trace<F>(ack_only: bool)
where
    F: ScriptFlow<AckIn = TcpAckIn, SendIn = TcpSendIn, SendOut = Sent> + Clone,
    TcpStack: Stack<F>,
{
    for (name, part) in [("steady", Part::Steady), ("recovery", Part::Recovery)] {
        let script = Script::<F>::record::<TcpStack>(part, PHASES + 2);
        let mut flows: Vec<Slot<F>> = script.phases.iter().cloned().map(Slot).collect();
        let base = flows.as_ptr() as usize;
        eprintln!(
            "LAB {name} {base:#x} {} {} {:#x}",
            size_of::<Slot<F>>(),
            flows.len(),
            MARK.as_ptr() as usize
        );
        mark(0);
        for (p, f) in flows.iter_mut().enumerate() {
            if ack_only {
                std::hint::black_box(&mut f.0).ack(&script.shared, &script.acks[p]);
            } else {
                script.step(std::hint::black_box(&mut f.0), p);
            }
        }
        mark(1);
        std::hint::black_box(&flows);
        std::mem::forget(flows);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if args.iter().any(|a| a == "--where") {
        println!("{:08x}", MARK.as_ptr() as usize);
        return;
    }
    let ack_only = args.iter().any(|a| a == "--ack-only");
    let cc = args
        .iter()
        .position(|a| a == "--cc")
        .and_then(|i| args.get(i + 1))
        .map_or("bbr", String::as_str);
    match cc {
        "bbr" => trace::<ColdBbr>(ack_only),
        "bbr3" => trace::<ColdBbr3>(ack_only),
        other => {
            eprintln!("bbr_lines: --cc {other}: expected bbr or bbr3");
            std::process::exit(2);
        }
    }
}
