//! Reading and writing a post's date as the author wrote it: a calendar date,
//! and the time of day when one is given. Offsets are read past and dropped,
//! never applied: `2026-07-17T23:30:00-05:00` is the 17th, whatever the zone.

use std::fmt;

use jiff::civil::{Date, Time};

use super::PostDate;

impl PostDate {
    /// Reads the forms Hugo, Zola, Jekyll and the Next.js starter accept:
    /// `2026-07-17`, `2026-07-17T09:30`, `2026-07-17T09:30:00.5Z`,
    /// `2026-07-17 09:30:00 +0900`, `2026-07-17T09:30:00+09:00`, …
    /// `None` when `text` is not one of them or names no real day.
    pub fn parse(text: &str) -> Option<PostDate> {
        let mut scan = Scanner { rest: text.trim() };
        let year = scan.digits(4, 4)?;
        scan.expect('-')?;
        let month = scan.digits(1, 2)?;
        scan.expect('-')?;
        let day = scan.digits(1, 2)?;
        let date = Date::new(i16::try_from(year).ok()?, month as i8, day as i8).ok()?;
        if scan.rest.is_empty() {
            return Some(PostDate { date, time: None });
        }

        // Date and time are joined by `T` (RFC 3339) or by spaces (YAML, Jekyll).
        let joined = scan.eat('T') || scan.eat('t') || scan.spaces();
        if !joined {
            return None;
        }
        let hour = scan.digits(1, 2)?;
        scan.expect(':')?;
        let minute = scan.digits(2, 2)?;
        let mut second = 0;
        let mut nanosecond = 0;
        if scan.eat(':') {
            second = scan.digits(2, 2)?;
            if scan.eat('.') || scan.eat(',') {
                nanosecond = scan.fraction()?;
            }
        }
        // `T24:00` is midnight at the end of the day, the next day's
        // `00:00`: ISO 8601's end of day, which JavaScript's `new Date`
        // reads so (ECMAScript's Date Time String Format, `HH` "00 to 24"),
        // and with it Hexo's `toDate` and the Next.js starter, and Ruby's
        // `Time.parse` that Jekyll uses. Hugo and Zola refuse it and stop.
        let (date, hour) = match (hour, minute, second, nanosecond) {
            (24, 0, 0, 0) => (date.tomorrow().ok()?, 0),
            _ => (date, hour),
        };
        let time = Time::new(hour as i8, minute as i8, second as i8, nanosecond as i32).ok()?;

        scan.spaces();
        scan.offset()?;
        scan.rest.is_empty().then_some(PostDate { date, time: Some(time) })
    }
}

/// `2026-07-17`, or `2026-07-17T09:30:00` when the time is known: the form
/// that is written back into front matter and that [`PostDate::parse`] reads.
impl fmt::Display for PostDate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.date)?;
        if let Some(time) = self.time {
            write!(f, "T{time}")?;
        }
        Ok(())
    }
}

/// A cursor over the date text; every step either consumes what it expects or
/// leaves the text as it was.
struct Scanner<'a> {
    rest: &'a str,
}

impl Scanner<'_> {
    /// Between `min` and `max` ASCII digits as a number (at most 4 digits, so no overflow).
    fn digits(&mut self, min: usize, max: usize) -> Option<u32> {
        let count = self.rest.bytes().take(max).take_while(u8::is_ascii_digit).count();
        if count < min {
            return None;
        }
        let (number, rest) = self.rest.split_at(count);
        self.rest = rest;
        number.parse().ok()
    }

    /// Fractional seconds as nanoseconds; digits past the ninth are dropped.
    fn fraction(&mut self) -> Option<u32> {
        let count = self.rest.bytes().take_while(u8::is_ascii_digit).count();
        if count == 0 {
            return None;
        }
        let (digits, rest) = self.rest.split_at(count);
        self.rest = rest;
        let kept = &digits[..count.min(9)];
        let value: u32 = kept.parse().ok()?;
        Some(value * 10u32.pow(9 - kept.len() as u32))
    }

    fn eat(&mut self, c: char) -> bool {
        match self.rest.strip_prefix(c) {
            Some(rest) => {
                self.rest = rest;
                true
            }
            None => false,
        }
    }

    fn expect(&mut self, c: char) -> Option<()> {
        self.eat(c).then_some(())
    }

    /// Skips spaces and tabs; true if there were any.
    fn spaces(&mut self) -> bool {
        let rest = self.rest.trim_start_matches([' ', '\t']);
        let skipped = rest.len() != self.rest.len();
        self.rest = rest;
        skipped
    }

    /// An optional `Z`, `+09:00`, `+0900` or `+09`, checked and then ignored.
    fn offset(&mut self) -> Option<()> {
        if self.eat('Z') || self.eat('z') {
            return Some(());
        }
        if !(self.eat('+') || self.eat('-')) {
            return Some(());
        }
        let hours = self.digits(2, 2)?;
        let colon = self.eat(':');
        let minutes = match self.digits(2, 2) {
            Some(minutes) => minutes,
            None if colon => return None,
            None => 0,
        };
        (hours <= 23 && minutes <= 59).then_some(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn date(y: i16, m: i8, d: i8) -> Date {
        Date::new(y, m, d).unwrap()
    }

    fn at(y: i16, m: i8, d: i8, h: i8, min: i8, s: i8, ns: i32) -> PostDate {
        PostDate { date: date(y, m, d), time: Some(Time::new(h, min, s, ns).unwrap()) }
    }

    #[test]
    fn reads_a_plain_date() {
        assert_eq!(PostDate::parse("2026-07-17"), Some(PostDate { date: date(2026, 7, 17), time: None }));
        assert_eq!(PostDate::parse(" 2026-7-1 "), Some(PostDate { date: date(2026, 7, 1), time: None }));
    }

    #[test]
    fn reads_rfc3339_with_and_without_offset() {
        let expected = Some(at(2026, 7, 17, 9, 30, 0, 0));
        assert_eq!(PostDate::parse("2026-07-17T09:30:00+09:00"), expected);
        assert_eq!(PostDate::parse("2026-07-17T09:30:00Z"), expected);
        assert_eq!(PostDate::parse("2026-07-17T09:30:00"), expected);
        assert_eq!(PostDate::parse("2026-07-17t09:30:00z"), expected);
    }

    #[test]
    fn reads_space_separated_with_or_without_seconds_and_fractions() {
        assert_eq!(PostDate::parse("2026-07-17 09:30:00"), Some(at(2026, 7, 17, 9, 30, 0, 0)));
        assert_eq!(PostDate::parse("2026-07-17 09:30"), Some(at(2026, 7, 17, 9, 30, 0, 0)));
        assert_eq!(PostDate::parse("2026-07-17T09:30"), Some(at(2026, 7, 17, 9, 30, 0, 0)));
        assert_eq!(PostDate::parse("2026-07-17T09:30:05.25"), Some(at(2026, 7, 17, 9, 30, 5, 250_000_000)));
        assert_eq!(
            PostDate::parse("2026-07-17 09:30:05.1234567891234 +0900"),
            Some(at(2026, 7, 17, 9, 30, 5, 123_456_789))
        );
        // Jekyll's own documented form.
        assert_eq!(PostDate::parse("2015-01-13 15:21:00 -0800"), Some(at(2015, 1, 13, 15, 21, 0, 0)));
    }

    #[test]
    fn keeps_the_written_day_whatever_the_offset() {
        assert_eq!(PostDate::parse("2026-07-17T23:30:00-05:00"), Some(at(2026, 7, 17, 23, 30, 0, 0)));
        assert_eq!(PostDate::parse("2026-07-17T00:10:00+14:00"), Some(at(2026, 7, 17, 0, 10, 0, 0)));
    }

    #[test]
    fn refuses_what_is_not_a_date() {
        for text in [
            "",
            "17/07/2026",
            "2026-13-01",
            "2026-02-30",
            "2026-07-17T25:00",
            "2026-07-17T24:01",
            "2026-07-17T24:00:01",
            "9999-12-31T24:00",
            "2026-07-17T09",
            "2026-07-17T09:30:00+9",
            "2026-07-17T09:30:00+09:",
            "2026-07-17 tomorrow",
            "20260717",
            "July 17, 2026",
            "2026-07-17T09:30:00.",
        ] {
            assert_eq!(PostDate::parse(text), None, "{text:?}");
        }
    }

    #[test]
    fn the_end_of_a_day_is_the_next_day_s_midnight() {
        assert_eq!(PostDate::parse("2024-09-02T24:00+09:00"), Some(at(2024, 9, 3, 0, 0, 0, 0)));
        assert_eq!(PostDate::parse("2024-12-31 24:00:00"), Some(at(2025, 1, 1, 0, 0, 0, 0)));
    }

    #[test]
    fn writes_what_it_reads() {
        for text in ["2026-07-17", "2026-07-17T09:30:00", "2026-07-17T09:30:05.25"] {
            let parsed = PostDate::parse(text).unwrap();
            assert_eq!(parsed.to_string(), text);
            assert_eq!(PostDate::parse(&parsed.to_string()), Some(parsed));
        }
    }

    #[test]
    fn orders_by_day_then_time() {
        let morning = PostDate::parse("2026-07-17T09:00").unwrap();
        let evening = PostDate::parse("2026-07-17T21:00").unwrap();
        let day = PostDate::parse("2026-07-17").unwrap();
        let next_day = PostDate::parse("2026-07-18").unwrap();
        assert!(day < morning && morning < evening && evening < next_day);
    }
}
