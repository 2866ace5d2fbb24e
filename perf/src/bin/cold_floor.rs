//! The floor under the cold benchmarks: the same array and random order as
//! `cold_bbr` (10^6 elements of 192 bytes, page-aligned, the permutation of
//! `cold::permutation`), but each step only reads (and optionally writes back) one
//! word in some of the element's 64-byte lines, and the next element's index depends
//! on the data read (a chain), so each step pays a full cold access: the TLB walk and
//! DRAM latency, with the lines of one element fetched in parallel. ns per step,
//! minimum of 5 runs.
//!
//! ```text
//! cargo run --release --manifest-path perf/Cargo.toml --bin cold_floor
//! ```

use congestion_perf::cold::arena::Arena;
use congestion_perf::cold::permutation;
use std::hint::black_box;
use std::time::Instant;

/// 24 words: one `linux::Bbr`.
type Elem = [u64; 24];

/// Four passes over `perm`, touching `lines` of each element and writing the first
/// `writes` of them; ns per step.
#[inline(never)]
fn run(flows: &mut [Elem], perm: &[u32], lines: &[usize], writes: usize) -> f64 {
    let t = Instant::now();
    let mut steps = 0u64;
    // Always 0, but the compiler cannot know: makes each index depend on the last step.
    let z = black_box(0u64);
    let mut chain = 0u64;
    for _ in 0..4 {
        for &i in perm {
            let f = &mut flows[i as usize ^ (chain & z) as usize];
            let mut acc = 0u64;
            for (j, &l) in lines.iter().enumerate() {
                let v = f[l * 8];
                acc ^= v;
                if j < writes {
                    f[l * 8] = v.wrapping_add(1);
                }
            }
            chain = acc;
            steps += 1;
        }
    }
    black_box(&flows);
    t.elapsed().as_nanos() as f64 / steps as f64
}

fn main() {
    let n = 1_000_000;
    let perm = permutation(n, 27 ^ n as u64);
    let mut arena = Arena::new(n * size_of::<Elem>(), false);
    let sets: [(&[usize], usize); 6] = [
        (&[0], 1),
        (&[0, 1], 2),
        (&[0, 1, 2], 3),
        (&[0], 0),
        (&[0, 1, 2], 1),
        (&[0, 1, 2], 0),
    ];
    let mut best = [f64::INFINITY; 6];
    for _ in 0..5 {
        let flows = arena.fill(n, &[[0u64; 24]]);
        for (k, s) in sets.iter().enumerate() {
            best[k] = best[k].min(run(flows.flows, &perm, s.0, s.1));
        }
    }
    println!("| lines read | of them written | ns per step |\n|---|---|---|");
    for (k, s) in sets.iter().enumerate() {
        println!("| {:?} | {} | {:.1} |", s.0, s.1, best[k]);
    }
}
