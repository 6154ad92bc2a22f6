//! Values of options that clap does not read the way a person writes them.

use std::time::Duration;

/// The longest span of seconds an option takes: a day. Longer waits and
/// timeouts are typos (`--timeout 1e308`), and they would overflow the
/// clocks they are added to.
pub const MAX_SECONDS: f64 = 86_400.0;

/// A number of seconds, `0.5` or `30` or `1e2`, from 0 to [`MAX_SECONDS`].
/// The message names what was typed, not the number it parsed to (which,
/// for `1e308`, is 309 digits long).
pub fn seconds(text: &str) -> Result<Duration, String> {
    let value: f64 = text
        .trim()
        .parse()
        .map_err(|_| "not a number of seconds".to_string())?;
    if value.is_nan() || value < 0.0 {
        return Err("must be 0 or more seconds".into());
    }
    if value > MAX_SECONDS {
        return Err(format!("too large (at most {MAX_SECONDS} seconds, a day)"));
    }
    Ok(Duration::from_secs_f64(value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seconds_read_as_written_and_too_large_says_so() {
        assert_eq!(seconds("30"), Ok(Duration::from_secs(30)));
        assert_eq!(seconds("0.25"), Ok(Duration::from_millis(250)));
        assert_eq!(seconds("1e2"), Ok(Duration::from_secs(100)));
        assert_eq!(seconds("0"), Ok(Duration::ZERO));
        assert_eq!(
            seconds("1e308").unwrap_err(),
            "too large (at most 86400 seconds, a day)"
        );
        assert!(seconds("inf").unwrap_err().starts_with("too large"));
        assert_eq!(seconds("-1").unwrap_err(), "must be 0 or more seconds");
        assert_eq!(seconds("NaN").unwrap_err(), "must be 0 or more seconds");
        assert_eq!(seconds("soon").unwrap_err(), "not a number of seconds");
    }
}
