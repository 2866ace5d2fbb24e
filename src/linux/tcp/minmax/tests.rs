use super::{Minmax, MinmaxSample};

const fn s(t: u32, v: u32) -> MinmaxSample {
    MinmaxSample { t, v }
}

#[test]
fn a_new_max_forgets_everything_else() {
    let mut m = Minmax::new(0, 10);
    assert_eq!(m.running_max(10, 1, 11), 11);
    assert_eq!(m.s, [s(1, 11); 3]);
}

#[test]
fn a_lower_sample_becomes_second_choice_after_a_quarter_window() {
    // win 8: at t=3 (dt 3 > 8/4 = 2) with s[1].t == s[0].t, 7 becomes 2nd and 3rd.
    let mut m = Minmax::new(0, 10);
    assert_eq!(m.running_max(8, 3, 7), 10);
    assert_eq!(m.s, [s(0, 10), s(3, 7), s(3, 7)]);
    // At t=5 (dt 5 > 4), 6 is a third choice from the second half.
    assert_eq!(m.running_max(8, 5, 6), 10);
    assert_eq!(m.s, [s(0, 10), s(3, 7), s(5, 6)]);
    // At t=9 (dt 9 > 8) the best ages out: 7 is the max, 6 second, 5 third.
    assert_eq!(m.running_max(8, 9, 5), 7);
    assert_eq!(m.s, [s(3, 7), s(5, 6), s(9, 5)]);
}

#[test]
fn the_second_shift_runs_when_the_promoted_choice_is_also_old() {
    // s = [(0,10), (1,9), (7,8)], win 8: at t=10 (s[2] is 3 old, in the window),
    // 4 < 8 keeps the slots; dt 10 > 8 promotes (1,9), whose age 9 > 8 promotes
    // again: [(7,8), (10,4), (10,4)].
    let mut m = Minmax {
        s: [s(0, 10), s(1, 9), s(7, 8)],
    };
    assert_eq!(m.running_max(8, 10, 4), 8);
    assert_eq!(m.s, [s(7, 8), s(10, 4), s(10, 4)]);
}

#[test]
fn the_running_min_replaces_its_second_and_third_choices() {
    // win 300: best 5 at t=0, 2nd/3rd 9 at t=100 (dt 100 > 75).
    let mut m = Minmax::new(0, 5);
    assert_eq!(m.running_min(300, 100, 9), 5);
    assert_eq!(m.s, [s(0, 5), s(100, 9), s(100, 9)]);
    // 8 <= 9 replaces the second (and third) choice.
    assert_eq!(m.running_min(300, 120, 8), 5);
    assert_eq!(m.s, [s(0, 5), s(120, 8), s(120, 8)]);
    // 8 > 7 is not a second choice, 7 <= 8 replaces the third.
    let mut m2 = Minmax {
        s: [s(0, 5), s(120, 6), s(130, 8)],
    };
    assert_eq!(m2.running_min(300, 140, 7), 5);
    assert_eq!(m2.s, [s(0, 5), s(120, 6), s(140, 7)]);
}

#[test]
fn nothing_left_in_the_window_resets() {
    let mut m = Minmax::new(0, 5);
    // t - s[2].t = 301 > 300: reset to the new sample even though it is larger.
    assert_eq!(m.running_min(300, 301, 50), 50);
    assert_eq!(m.s, [s(301, 50); 3]);
    // Times wrap: t = 3 after u32::MAX - 1 is 5 later.
    let mut w = Minmax::new(u32::MAX - 1, 9);
    assert_eq!(w.running_max(4, 3, 1), 1);
}
