//! Dates written for the site's locale from ICU's data: `ko-KR` →
//! `2026년 7월 17일`, `en-US` → `July 17, 2026`.

use icu_calendar::Gregorian;
use icu_datetime::FixedCalendarDateTimeFormatter;
use icu_datetime::fieldsets::YMD;
use icu_datetime::input::Date;
use icu_locale_core::Locale;

pub struct DateFormat(FixedCalendarDateTimeFormatter<Gregorian, YMD>);

impl DateFormat {
    /// A long date format for `locale`; a locale ICU does not know falls back
    /// to its language, then to English.
    pub fn new(locale: &str) -> Self {
        let locale = Locale::try_from_str(&locale.replace('_', "-")).unwrap_or(Locale::UNKNOWN);
        let formatter = FixedCalendarDateTimeFormatter::try_new((&locale).into(), YMD::long())
            .or_else(|_| FixedCalendarDateTimeFormatter::try_new((&Locale::UNKNOWN).into(), YMD::long()))
            .expect("ICU's compiled data has the root locale");
        Self(formatter)
    }

    pub fn format(&self, date: jiff::civil::Date) -> String {
        match Date::try_new_gregorian(i32::from(date.year()), date.month() as u8, date.day() as u8) {
            Ok(date) => self.0.format(&date).to_string(),
            Err(_) => date.to_string(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use jiff::civil::date;

    #[test]
    fn the_seed_pages_dates() {
        assert_eq!(DateFormat::new("ko-KR").format(date(2026, 7, 17)), "2026년 7월 17일");
        assert_eq!(DateFormat::new("ko-KR").format(date(2026, 3, 17)), "2026년 3월 17일");
    }

    #[test]
    fn other_locales() {
        assert_eq!(DateFormat::new("en-US").format(date(2026, 7, 17)), "July 17, 2026");
        assert_eq!(DateFormat::new("en-GB").format(date(2026, 7, 17)), "17 July 2026");
        assert_eq!(DateFormat::new("de").format(date(2026, 7, 17)), "17. Juli 2026");
        assert_eq!(DateFormat::new("ja-JP").format(date(2026, 7, 17)), "2026年7月17日");
        // Not a locale at all: still a readable date.
        assert!(DateFormat::new("??").format(date(2026, 7, 17)).contains("2026"));
    }
}
