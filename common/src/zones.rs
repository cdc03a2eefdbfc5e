//! Days in a campaign group's time zone: Apple's reports count days there, so what "today"
//! is for a rule, and which day an attributed install belongs to, are read in it.

use time::{Date, OffsetDateTime, UtcOffset};

/// The date at `unix` seconds in time zone `time_zone` (an IANA name, as Apple gives a
/// campaign group's); an unknown or missing zone counts as UTC.
pub fn today(unix: i64, time_zone: Option<&str>) -> Date {
    let at = OffsetDateTime::from_unix_timestamp(unix).unwrap_or(OffsetDateTime::UNIX_EPOCH);
    let offset = time_zone
        .and_then(|name| jiff::tz::TimeZone::get(name).ok())
        .and_then(|zone| {
            let ts = jiff::Timestamp::from_second(unix).ok()?;
            UtcOffset::from_whole_seconds(zone.to_offset(ts).seconds()).ok()
        })
        .unwrap_or(UtcOffset::UTC);
    at.to_offset(offset).date()
}
