//! Per-packet cost of the send path (`benches/common/send_path.rs`): the EDT pacer's
//! stamp, the TSQ check, TSO autosizing, and the whole `SendPath` round a stack makes
//! per burst (poll, on_send, on_tx_completion), for the Linux-mode flow of the
//! benchmark stream.
//!
//! ```text
//! cargo bench -p congestion-benches --bench send_path
//! ```
#![expect(
    missing_docs,
    reason = "criterion_group! generates undocumented functions"
)]

mod common;

use common::send_path::{SendPiece, SendStream};
use criterion::{Criterion, criterion_group, criterion_main};
use std::hint::black_box;
use std::time::Duration;

fn send_path(c: &mut Criterion) {
    let pieces = [
        ("send/loop_alone", SendPiece::Nothing),
        ("send/pacer_per_packet", SendPiece::Pacer),
        ("send/tsq_check", SendPiece::TsqCheck),
        ("send/tso_autosize", SendPiece::TsoAutosize),
        ("send/whole_send_path", SendPiece::WholeSendPath),
    ];
    for (name, piece) in pieces {
        let mut s = SendStream::new();
        c.bench_function(name, |b| b.iter(|| s.packet(black_box(piece))));
    }
}

criterion_group! {
    name = benches;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(500))
        .measurement_time(Duration::from_secs(2));
    targets = send_path
}
criterion_main!(benches);
