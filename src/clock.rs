//! What time it is for a blog: the moment scheduled posts are judged by. The
//! wall clock, or a moment fixed by a test or by `HANJI_NOW` (for tests of
//! the command and the app, and for exports that must come out the same).

use jiff::Timestamp;

/// The environment variable that fixes the time for the command and the app:
/// `HANJI_NOW=2026-12-24T09:00:00+09:00`.
pub const NOW_VARIABLE: &str = "HANJI_NOW";

/// Where the time comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Clock {
    /// The computer's clock, asked each time.
    #[default]
    Wall,
    /// Always this moment.
    Fixed(Timestamp),
}

impl Clock {
    pub fn now(self) -> Timestamp {
        match self {
            Clock::Wall => Timestamp::now(),
            Clock::Fixed(moment) => moment,
        }
    }

    /// `HANJI_NOW` if it is set (an RFC 3339 time with its offset,
    /// `2026-12-24T09:00:00+09:00`), else the wall clock. A value that is not
    /// such a time is an error that says so.
    pub fn from_env() -> Result<Clock, String> {
        match std::env::var(NOW_VARIABLE) {
            Ok(text) => Clock::parse(&text),
            Err(_) => Ok(Clock::Wall),
        }
    }

    fn parse(text: &str) -> Result<Clock, String> {
        text.trim().parse::<Timestamp>().map(Clock::Fixed).map_err(|_| {
            format!("{NOW_VARIABLE}=`{text}` is not a time: write one with its offset, e.g. 2026-12-24T09:00:00+09:00")
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fixed_clock_stays_and_the_variable_must_be_a_time() {
        let moment: Timestamp = "2026-12-24T00:00:00Z".parse().unwrap();
        assert_eq!(Clock::Fixed(moment).now(), moment);
        assert_eq!(Clock::parse(" 2026-12-24T09:00:00+09:00 "), Ok(Clock::Fixed(moment)));
        let error = Clock::parse("tomorrow").unwrap_err();
        assert!(error.contains("`tomorrow` is not a time"), "{error}");
        assert!(Clock::parse("2026-12-24").is_err(), "a day is not a moment");
    }
}
