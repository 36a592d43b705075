//! Every duration setting reads through [`parse`]: humantime's forms (`500ms`, `30s`, `2m`, `1h`,
//! `1h 30m`, `1.5s`, `1d`), more than zero.

use std::time::Duration;

/// A duration as humantime reads it, more than zero.
pub fn parse(text: &str) -> Result<Duration, String> {
    let duration = humantime::parse_duration(text.trim())
        .map_err(|error| format!("{error} (write e.g. 500ms, 30s, 2m or 1h 30m)"))?;
    if duration.is_zero() {
        return Err("the duration must be more than 0".to_owned());
    }
    Ok(duration)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_have_a_unit_and_are_positive() {
        assert_eq!(parse("30s"), Ok(Duration::from_secs(30)));
        assert_eq!(parse("250ms"), Ok(Duration::from_millis(250)));
        assert_eq!(parse("2m"), Ok(Duration::from_secs(120)));
        assert_eq!(parse("1h"), Ok(Duration::from_secs(3600)));
        // Compound forms, as every duration setting takes them.
        assert_eq!(parse("1m 30s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse(" 1h 30m "), Ok(Duration::from_secs(5400)));
        assert_eq!(parse("1d"), Ok(Duration::from_secs(86_400)));
        assert_eq!(parse("1.5s"), Ok(Duration::from_millis(1500)));
        for bad in ["", "30", "s", "0s", "0ms", "-1s", "1 fortnight"] {
            assert!(parse(bad).is_err(), "{bad}");
        }
    }
}
