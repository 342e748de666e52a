//! The pure steps of a split run and the seats' checks.

use super::*;

fn note(next: u64, events: u64, last: u64) -> Seen {
    Seen { next, out_min: u64::MAX, events, last, flags: 0 }
}

const LIMIT: SimTime = SimTime::from_ps(1_000_000);

#[test]
fn decide_goes_on_at_the_earliest_event_or_packet_of_any_part() {
    let mut a = note(700, 10, 300);
    let b = note(500, 10, 400);
    assert_eq!(decide(&[a, b], 0, 5, true, 100, LIMIT), Ok(500));
    // A packet handed over arrives before any part's own next event.
    a.out_min = 450;
    assert_eq!(decide(&[a, b], 0, 5, true, 100, LIMIT), Ok(450));
}

#[test]
fn decide_stops_in_one_threads_order() {
    let idle = note(u64::MAX, 10, 300);
    let busy = note(500, 10, 400);
    // Nothing left anywhere: idle, at the last event of any part, even
    // with every flow settled and the limits passed.
    assert_eq!(decide(&[idle, idle], 5, 5, true, 1, LIMIT), Err((StopReason::Idle, 300)));
    assert_eq!(decide(&[], 0, 0, true, 1, LIMIT), Err((StopReason::Idle, 0)));
    // A packet in flight keeps the run going.
    let handed = Seen { out_min: 900, ..idle };
    assert_eq!(decide(&[handed, idle], 0, 5, true, 100, LIMIT), Ok(900));
    // Every flow settled: only once the arrivals are done.
    assert_eq!(decide(&[idle, busy], 5, 5, true, 100, LIMIT), Err((StopReason::AllFlowsDone, 400)));
    assert_eq!(decide(&[idle, busy], 5, 5, false, 100, LIMIT), Ok(500));
    assert_eq!(decide(&[idle, busy], 4, 5, true, 100, LIMIT), Ok(500));
    // Settled comes before the event limit, which comes before time.
    assert_eq!(decide(&[idle, busy], 5, 5, true, 1, SimTime::from_ps(1)), Err((StopReason::AllFlowsDone, 400)));
    assert_eq!(decide(&[idle, busy], 0, 5, true, 1, SimTime::from_ps(1)), Err((StopReason::EventLimit, 400)));
}

#[test]
fn decide_counts_the_event_limit_over_every_part() {
    let (a, b) = (note(500, 60, 100), note(600, 40, 200));
    assert_eq!(decide(&[a, b], 0, 5, true, 101, LIMIT), Ok(500));
    assert_eq!(decide(&[a, b], 0, 5, true, 100, LIMIT), Err((StopReason::EventLimit, 200)));
    // A part that ran away inside the cell stops the run below the
    // limit.
    let runaway = Seen { flags: flag::RUNAWAY, ..b };
    assert_eq!(decide(&[a, runaway], 0, 5, true, 1_000, LIMIT), Err((StopReason::EventLimit, 200)));
    // Other flags do not.
    let other = Seen { flags: flag::OUT | flag::SETTLED | flag::FOLD, ..b };
    assert_eq!(decide(&[a, other], 0, 5, true, 1_000, LIMIT), Ok(500));
}

#[test]
fn decide_stops_at_the_time_limit_only_past_it() {
    let at = |t| note(t, 0, 10);
    assert_eq!(decide(&[at(LIMIT.ps())], 0, 5, true, 100, LIMIT), Ok(LIMIT.ps()));
    assert_eq!(decide(&[at(LIMIT.ps() + 1)], 0, 5, true, 100, LIMIT), Err((StopReason::TimeLimit, LIMIT.ps())));
}

#[test]
fn flags_say_each_thing_in_its_own_bit() {
    assert_eq!(flags(true, false, u64::MAX, false), 0);
    assert_eq!(flags(false, false, u64::MAX, false), flag::RUNAWAY);
    assert_eq!(flags(true, true, u64::MAX, false), flag::FOLD);
    assert_eq!(flags(true, false, 0, false), flag::OUT);
    assert_eq!(flags(true, false, u64::MAX - 1, false), flag::OUT);
    assert_eq!(flags(true, false, u64::MAX, true), flag::SETTLED);
    assert_eq!(flags(false, true, 7, true), flag::RUNAWAY | flag::FOLD | flag::OUT | flag::SETTLED);
}

#[test]
fn cells_are_multiples_of_their_length_and_end_just_past_the_limit() {
    assert_eq!(cell_start(0, 208), 0);
    assert_eq!(cell_start(207, 208), 0);
    assert_eq!(cell_start(208, 208), 208);
    assert_eq!(cell_start(1000, 208), 832);
    assert_eq!(cell_end(0, 208, 10_000), 208);
    assert_eq!(cell_end(9_900, 208, 10_000), 10_001);
    // No overflow at the ends of time.
    assert_eq!(cell_end(u64::MAX - 5, 208, u64::MAX), u64::MAX);
    assert_eq!(cell_end(u64::MAX - 5, 208, 10), 11);
}

#[test]
fn a_window_is_slow_only_past_the_margin_and_two_in_a_row_fold() {
    let mut w = Window::default();
    // 1.1 times the busy time exactly is not slow; a little more is.
    assert!(!w.close(110, 100));
    assert_eq!(w, Window { start_ns: 110, busy_ns: 100, slow: 0 });
    assert!(!w.close(110 + 111, 200));
    assert_eq!(w.slow, 1);
    // A fast window resets the count.
    assert!(!w.close(221 + 50, 300));
    assert_eq!(w.slow, 0);
    // Two slow windows in a row fold; the busy time is the window's,
    // not the total.
    assert!(!w.close(271 + 1_000, 1_200));
    assert!(w.close(1_271 + 1_000, 1_210));
    assert_eq!(w.slow, 2);
    // No busy time at all (nothing simulated): any wall time is slow.
    let mut idle = Window::default();
    assert!(!idle.close(1, 0));
    assert!(idle.close(2, 0));
    // Busy time across the window counts, not since the start of the
    // run: 1,000 ns busy in a 1,050 ns window is fine.
    let mut w = Window { start_ns: 0, busy_ns: 5_000, slow: 1 };
    assert!(!w.close(1_050, 6_000));
    assert_eq!(w.slow, 0);
}

#[test]
fn a_seat_posts_its_parts_once_a_cell_and_reads_them_after_the_wait() {
    let board = Board::new(3, 0);
    let mut seats = board.seats(2);
    let mut b = seats.pop().unwrap();
    let mut a = seats.pop().unwrap();
    for c in 1..=3u64 {
        assert_eq!((a.begin(), b.begin()), (c, c));
        for part in 0..3 {
            let seat = if part == 1 { &mut b } else { &mut a };
            seat.post(part, |p| {
                // The post of two cells ago (same parity), or none.
                let before = p.settled.first().map(|f| f.idx() as u64);
                assert_eq!(before, (c > 2).then(|| (c - 2) * 10 + part as u64));
                p.settled = vec![FlowId((c * 10 + part as u64) as u32)];
                Seen { events: c, ..Seen::default() }
            });
        }
        for seat in [&mut a, &mut b] {
            let round = seat.wait();
            assert!(round.seen().iter().all(|s| s.events == c));
            for j in 0..3 {
                assert_eq!(round.read(j, |p| p.settled[0].idx() as u64), c * 10 + j as u64);
            }
        }
    }
    // The fold: one seat takes the other's parts.
    a.absorb(b);
    a.begin();
    a.post(1, |_| Seen::default());
}

#[test]
#[should_panic(expected = "posted out of turn")]
fn a_seat_cannot_post_a_part_it_does_not_own() {
    let board = Board::new(2, 0);
    let mut seats = board.seats(2);
    seats[0].begin();
    seats[0].post(1, |_| Seen::default());
}

/// The one seat of a one-part board.
fn only_seat(board: &Board) -> Seat<'_> {
    board.seats(1).pop().unwrap()
}

#[test]
#[should_panic(expected = "posted out of turn")]
fn a_seat_cannot_post_a_part_twice_in_a_cell() {
    let board = Board::new(1, 0);
    let mut seat = only_seat(&board);
    seat.begin();
    seat.post(0, |_| Seen::default());
    seat.post(0, |_| Seen::default());
}

#[test]
#[should_panic(expected = "posted out of turn")]
fn a_seat_cannot_post_before_it_begins_a_cell() {
    let board = Board::new(1, 0);
    let mut seat = only_seat(&board);
    seat.post(0, |_| Seen::default());
}

#[test]
#[should_panic(expected = "before the last one was waited for")]
fn a_seat_cannot_begin_a_cell_before_it_waited_for_the_last() {
    let board = Board::new(1, 0);
    let mut seat = only_seat(&board);
    seat.begin();
    seat.post(0, |_| Seen::default());
    seat.begin();
}

#[test]
#[should_panic(expected = "handed out twice")]
fn a_board_hands_out_its_seats_once() {
    let board = Board::new(2, 0);
    let _first = board.seats(2);
    let _second = board.seats(2);
}

#[test]
#[should_panic(expected = "seats for")]
fn every_seat_owns_a_part() {
    Board::new(2, 0).seats(3);
}
