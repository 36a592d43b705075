//! When the weekly digest is due: the owner's weekday and hour in their time zone, as a moment,
//! across daylight-saving changes (an hour the clocks skip is the first one after it; an hour
//! they repeat, its first time), and the week it covers: the seven local days before it.

use chrono::{DateTime, Datelike, Days, NaiveDate, NaiveDateTime, NaiveTime, TimeZone, Timelike};
use chrono_tz::Tz;

/// A moment the digest was due.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    /// The local date and hour, `2026-12-07T09:00`: the week's key.
    pub key: String,
    /// The same moment in Unix ms.
    pub at_ms: i64,
    /// The local date: the week it covers ends the day before.
    pub date: NaiveDate,
}

/// The moment of `hour` on `date` in `tz`: its first time when the clocks repeat it, and when
/// they skip it, the first moment after the gap.
pub fn local_moment(tz: Tz, date: NaiveDate, hour: u32) -> Option<DateTime<Tz>> {
    let start = date.and_time(NaiveTime::from_hms_opt(hour.min(23), 0, 0)?);
    // Gaps are at most a few hours long: step by minutes until the clocks show a time again.
    (0..=240).find_map(|minutes| {
        let naive = start.checked_add_signed(chrono::Duration::minutes(minutes))?;
        tz.from_local_datetime(&naive).earliest()
    })
}

/// Local midnight of `date` in `tz` (or the first moment of that day, where it starts late).
pub fn local_midnight(tz: Tz, date: NaiveDate) -> Option<DateTime<Tz>> {
    local_moment(tz, date, 0)
}

/// The latest moment at or before `now_ms` that is `weekday` (ISO, 1 for Monday) at `hour` in
/// `tz`.
pub fn latest_slot(tz: Tz, weekday: u32, hour: u32, now_ms: i64) -> Option<Slot> {
    let now = DateTime::from_timestamp_millis(now_ms)?.with_timezone(&tz);
    let today = now.date_naive();
    let back = (7 + today.weekday().number_from_monday() - weekday.clamp(1, 7)) % 7;
    let mut date = today.checked_sub_days(Days::new(u64::from(back)))?;
    let mut moment = local_moment(tz, date, hour)?;
    if moment > now {
        date = date.checked_sub_days(Days::new(7))?;
        moment = local_moment(tz, date, hour)?;
    }
    Some(Slot {
        key: format!("{}T{:02}:00", date.format("%Y-%m-%d"), hour.min(23)),
        at_ms: moment.timestamp_millis(),
        date,
    })
}

/// The next moment after `now_ms` that is `weekday` at `hour` in `tz`.
pub fn next_slot(tz: Tz, weekday: u32, hour: u32, now_ms: i64) -> Option<i64> {
    let latest = latest_slot(tz, weekday, hour, now_ms)?;
    let date = latest.date.checked_add_days(Days::new(7))?;
    Some(local_moment(tz, date, hour)?.timestamp_millis())
}

/// The local wall time of a moment, for a test's or a log's reading.
pub fn wall_time(tz: Tz, ms: i64) -> Option<NaiveDateTime> {
    let moment = DateTime::from_timestamp_millis(ms)?.with_timezone(&tz);
    moment.naive_local().with_nanosecond(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(text: &str) -> i64 {
        DateTime::parse_from_rfc3339(text)
            .unwrap()
            .timestamp_millis()
    }

    #[test]
    fn the_latest_slot_is_the_last_chosen_weekday_and_hour_passed() {
        let utc: Tz = "UTC".parse().unwrap();
        // Sunday 6 December 2026, noon: the last Monday at 9 was 30 November.
        let slot = latest_slot(utc, 1, 9, at("2026-12-06T12:00:00Z")).unwrap();
        assert_eq!(slot.key, "2026-11-30T09:00");
        assert_eq!(slot.at_ms, at("2026-11-30T09:00:00Z"));
        // On the day, before and at the hour.
        let monday = "2026-12-07T08:59:59Z";
        assert_eq!(
            latest_slot(utc, 1, 9, at(monday)).unwrap().key,
            "2026-11-30T09:00"
        );
        let nine = at("2026-12-07T09:00:00Z");
        assert_eq!(latest_slot(utc, 1, 9, nine).unwrap().at_ms, nine);
        assert_eq!(
            next_slot(utc, 1, 9, at(monday)).unwrap(),
            at("2026-12-07T09:00:00Z")
        );
        // Sundays at 23.
        assert_eq!(
            latest_slot(utc, 7, 23, at("2026-12-06T23:30:00Z"))
                .unwrap()
                .key,
            "2026-12-06T23:00"
        );
    }

    #[test]
    fn the_owners_hour_holds_across_daylight_saving_changes() {
        let berlin: Tz = "Europe/Berlin".parse().unwrap();
        // Mondays at 9 in Berlin: 8:00 UTC in winter, 7:00 UTC once the clocks went forward on
        // Sunday 28 March 2027, and 8:00 again after they went back on 31 October 2027.
        let before = latest_slot(berlin, 1, 9, at("2027-03-26T12:00:00Z")).unwrap();
        assert_eq!(before.at_ms, at("2027-03-22T08:00:00Z"));
        let after = latest_slot(berlin, 1, 9, at("2027-03-29T07:30:00Z")).unwrap();
        assert_eq!(after.key, "2027-03-29T09:00");
        assert_eq!(after.at_ms, at("2027-03-29T07:00:00Z"));
        assert_eq!(
            next_slot(berlin, 1, 9, at("2027-03-26T12:00:00Z")).unwrap(),
            after.at_ms,
            "a week on is six days and 23 hours on"
        );
        let autumn = latest_slot(berlin, 1, 9, at("2027-11-01T09:00:00Z")).unwrap();
        assert_eq!(autumn.at_ms, at("2027-11-01T08:00:00Z"));
        // An hour the clocks skip (2:00 on 28 March 2027) is 3:00 CEST; one they repeat (2:00
        // on 31 October 2027) is its first time, 2:00 CEST.
        let skipped = latest_slot(berlin, 7, 2, at("2027-03-28T12:00:00Z")).unwrap();
        assert_eq!(skipped.at_ms, at("2027-03-28T01:00:00Z"));
        assert_eq!(skipped.key, "2027-03-28T02:00");
        let repeated = latest_slot(berlin, 7, 2, at("2027-10-31T12:00:00Z")).unwrap();
        assert_eq!(repeated.at_ms, at("2027-10-31T00:00:00Z"));
        // New York, whose clocks change on other days.
        let new_york: Tz = "America/New_York".parse().unwrap();
        let march = latest_slot(new_york, 1, 9, at("2027-03-15T15:00:00Z")).unwrap();
        assert_eq!(march.at_ms, at("2027-03-15T13:00:00Z"));
        let february = latest_slot(new_york, 1, 9, at("2027-03-01T15:00:00Z")).unwrap();
        assert_eq!(february.at_ms, at("2027-03-01T14:00:00Z"));
        assert_eq!(
            wall_time(new_york, march.at_ms).unwrap().to_string(),
            "2027-03-15 09:00:00"
        );
    }

    #[test]
    fn a_week_starts_at_local_midnight() {
        let berlin: Tz = "Europe/Berlin".parse().unwrap();
        let date = NaiveDate::from_ymd_opt(2027, 3, 22).unwrap();
        assert_eq!(
            local_midnight(berlin, date).unwrap().timestamp_millis(),
            at("2027-03-21T23:00:00Z")
        );
    }
}
