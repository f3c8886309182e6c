//! The watch's burst policy: how the stream of debounced batches is grouped
//! into updates, and when each update is due. Pure: the caller says when each
//! batch arrived and what time it is now; nothing here reads the clock.

use std::time::{Duration, Instant};

use super::changes::Batch;
use super::tick;

/// A batch of at least this many paths is a burst (a branch switch, a copy):
/// it is held until the events stop.
const BURST: usize = 64;

/// A burst is applied once it has been quiet for this many debounces: the
/// debouncer's thread may hand over the next batch late on a busy machine.
const QUIET: u32 = 4;

/// Groups the batches the debouncer hands over into the batch to apply.
///
/// The debouncer hands over events as each one ripens, so a burst comes as a
/// stream of batches a tick apart. A batch waits two ticks for the next; once
/// the paths show a burst, or a rescan is asked, or the batch began soon after
/// the last update (a stream that a busy machine hands over slowly), it is
/// held until it has been quiet for four debounces, and applied as one.
#[derive(Debug)]
pub struct Batcher {
    debounce: Duration,
    pending: Option<Pending>,
    /// When the last batch handed over was applied.
    last_applied: Option<Instant>,
}

#[derive(Debug)]
struct Pending {
    batch: Batch,
    /// The batch began soon after an update: held as a burst, whatever its size.
    streaming: bool,
    due: Instant,
}

impl Batcher {
    pub fn new(debounce: Duration) -> Self {
        Self { debounce, pending: None, last_applied: None }
    }

    /// One batch from the debouncer, handed over at `at`: it begins the batch
    /// to apply or joins it, and moves when that is due. An empty batch counts
    /// too (its events may have been errors, which the caller keeps).
    pub fn add(&mut self, batch: Batch, at: Instant) {
        // Events still coming soon after an update mean a stream (a branch
        // switch, a copy) that a busy machine hands over slowly.
        let streaming =
            self.last_applied.is_some_and(|applied| at.saturating_duration_since(applied) < self.debounce / 2);
        let pending = self.pending.get_or_insert_with(|| Pending { batch: Batch::default(), streaming, due: at });
        pending.batch.paths.extend(batch.paths);
        pending.batch.rescan |= batch.rescan;
        let burst = pending.batch.paths.len() >= BURST || pending.batch.rescan || pending.streaming;
        let wait = if burst { self.debounce * QUIET } else { tick(self.debounce) * 2 };
        pending.due = at + wait;
    }

    /// When the batch gathered so far is to be applied; `None` when nothing came.
    pub fn due(&self) -> Option<Instant> {
        self.pending.as_ref().map(|pending| pending.due)
    }

    /// The batch to apply, once it is due at `now`; the next `add` begins another.
    pub fn take(&mut self, now: Instant) -> Option<Batch> {
        if self.due()? > now {
            return None;
        }
        self.pending.take().map(|pending| pending.batch)
    }

    /// The batch handed over was applied, and that ended at `at`: a batch
    /// beginning right after it is part of the same stream.
    pub fn applied(&mut self, at: Instant) {
        self.last_applied = Some(at);
    }
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    const DEBOUNCE: Duration = Duration::from_millis(50);

    fn ms(start: Instant, n: u64) -> Instant {
        start + Duration::from_millis(n)
    }

    fn paths(names: impl IntoIterator<Item = String>) -> Batch {
        Batch { paths: names.into_iter().map(PathBuf::from).collect(), rescan: false }
    }

    fn posts(range: std::ops::Range<usize>) -> Batch {
        paths(range.map(|i| format!("posts/p{i}.md")))
    }

    #[test]
    fn nothing_is_due_when_nothing_came() {
        let start = Instant::now();
        let mut batcher = Batcher::new(DEBOUNCE);
        assert_eq!(batcher.due(), None);
        assert!(batcher.take(ms(start, 10_000)).is_none());
        batcher.applied(start);
        assert_eq!(batcher.due(), None, "an update applied is not a batch to apply");
    }

    #[test]
    fn a_small_batch_is_due_after_two_ticks_and_not_before() {
        let start = Instant::now();
        let mut batcher = Batcher::new(DEBOUNCE);
        batcher.add(posts(0..3), start);
        // A tick of a 50 ms debounce is 50/16 ms.
        let due = start + Duration::from_micros(6_250);
        assert_eq!(batcher.due(), Some(due));
        assert!(batcher.take(due - Duration::from_micros(1)).is_none());
        assert_eq!(batcher.due(), Some(due), "asked too early, the batch stays");
        let batch = batcher.take(due).expect("due after two ticks");
        assert_eq!(batch.paths, posts(0..3).paths);
        assert!(!batch.rescan);
        assert_eq!(batcher.due(), None, "handed over once");
        assert!(batcher.take(ms(start, 1_000)).is_none());
    }

    #[test]
    fn a_batch_within_the_wait_joins_the_first() {
        let start = Instant::now();
        let mut batcher = Batcher::new(DEBOUNCE);
        batcher.add(posts(0..2), start);
        batcher.add(posts(2..4), ms(start, 5));
        // The wait starts again from the second batch.
        assert!(batcher.take(ms(start, 7)).is_none(), "two ticks after the first, not after the second");
        assert_eq!(batcher.due(), Some(ms(start, 5) + Duration::from_micros(6_250)));
        let batch = batcher.take(ms(start, 12)).expect("due two ticks after the second");
        assert_eq!(batch.paths, posts(0..4).paths);
        // Once handed over, the next batch begins another.
        batcher.applied(ms(start, 12));
        batcher.add(posts(4..5), ms(start, 100));
        assert_eq!(batcher.take(ms(start, 107)).expect("the next batch").paths, posts(4..5).paths);
    }

    #[test]
    fn a_burst_is_held_until_quiet_for_four_debounces() {
        let start = Instant::now();
        let mut batcher = Batcher::new(DEBOUNCE);
        batcher.add(posts(0..BURST - 1), start);
        assert_eq!(batcher.due(), Some(start + Duration::from_micros(6_250)), "one path short of a burst");
        batcher.add(posts(BURST - 1..BURST), ms(start, 5));
        assert_eq!(batcher.due(), Some(ms(start, 205)), "a burst waits four debounces");
        assert!(batcher.take(ms(start, 20)).is_none());
        // A late batch within the hold extends it, and stays a burst however small.
        batcher.add(posts(BURST..BURST + 1), ms(start, 150));
        assert_eq!(batcher.due(), Some(ms(start, 350)));
        assert!(batcher.take(ms(start, 349)).is_none());
        let batch = batcher.take(ms(start, 350)).expect("quiet for four debounces");
        assert_eq!(batch.paths, posts(0..BURST + 1).paths);
    }

    #[test]
    fn a_burst_in_one_batch_is_held() {
        let start = Instant::now();
        let mut batcher = Batcher::new(DEBOUNCE);
        batcher.add(posts(0..1_000), start);
        assert_eq!(batcher.due(), Some(ms(start, 200)));
    }

    #[test]
    fn a_rescan_is_held_like_a_burst() {
        let start = Instant::now();
        let mut batcher = Batcher::new(DEBOUNCE);
        batcher.add(posts(0..1), start);
        batcher.add(Batch { paths: Default::default(), rescan: true }, ms(start, 3));
        assert_eq!(batcher.due(), Some(ms(start, 203)));
        assert!(batcher.take(ms(start, 202)).is_none());
        let batch = batcher.take(ms(start, 203)).expect("quiet for four debounces");
        assert!(batch.rescan, "the rescan is carried in the batch");
        assert_eq!(batch.paths, posts(0..1).paths);
    }

    #[test]
    fn an_empty_batch_counts_as_one() {
        // What a batch of errors only, or of reads only, leaves: still a
        // batch to apply (the caller adds the errors' rescan).
        let start = Instant::now();
        let mut batcher = Batcher::new(DEBOUNCE);
        batcher.add(Batch::default(), start);
        let batch = batcher.take(ms(start, 7)).expect("due after two ticks");
        assert!(batch.paths.is_empty() && !batch.rescan);
    }

    #[test]
    fn events_streaming_right_after_an_update_are_held_as_a_burst() {
        let start = Instant::now();
        let mut batcher = Batcher::new(DEBOUNCE);
        batcher.add(posts(0..1), start);
        batcher.take(ms(start, 7)).expect("a small batch");
        batcher.applied(ms(start, 40));
        // Within half a debounce of the update: the stream goes on.
        batcher.add(posts(1..2), ms(start, 64));
        assert_eq!(batcher.due(), Some(ms(start, 264)));
        assert!(batcher.take(ms(start, 100)).is_none());
        // A small batch that joins it is held too.
        batcher.add(posts(2..3), ms(start, 100));
        assert_eq!(batcher.due(), Some(ms(start, 300)));
        let batch = batcher.take(ms(start, 300)).expect("quiet for four debounces");
        assert_eq!(batch.paths, posts(1..3).paths);
    }

    #[test]
    fn events_after_half_a_debounce_of_quiet_are_not_a_stream() {
        let start = Instant::now();
        let mut batcher = Batcher::new(DEBOUNCE);
        batcher.applied(start);
        batcher.add(posts(0..1), ms(start, 25));
        assert_eq!(batcher.due(), Some(ms(start, 25) + Duration::from_micros(6_250)));
    }
}
