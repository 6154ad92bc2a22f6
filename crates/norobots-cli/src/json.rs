//! JSON documents written as they are walked, for the outputs that can be
//! large: a tree of `serde_json::Value`s for two million rules or links
//! takes gigabytes, the walk only what one element needs.

use serde::ser::{Serialize, Serializer};

/// A JSON array written element by element from the iterator that `.0`
/// makes (called once per serialization).
pub struct Each<F>(pub F);

impl<F, I> Serialize for Each<F>
where
    F: Fn() -> I,
    I: IntoIterator,
    I::Item: Serialize,
{
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_seq((self.0)())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_array_is_written_as_its_elements_come() {
        let each = Each(|| (1..=3).map(|n| n * n));
        assert_eq!(serde_json::to_string(&each).unwrap(), "[1,4,9]");
        assert_eq!(
            serde_json::to_string_pretty(&Each(std::iter::empty::<u8>)).unwrap(),
            "[]"
        );
    }
}

/// A time as RFC 3339 in UTC, to the second: the one spelling of a date
/// in every JSON document the CLI writes.
pub fn rfc3339(t: std::time::SystemTime) -> String {
    let t = time::OffsetDateTime::from(t);
    let t = t.replace_nanosecond(0).unwrap_or(t);
    t.format(&time::format_description::well_known::Rfc3339)
        .unwrap_or_default()
}

#[cfg(test)]
mod time_tests {
    #[test]
    fn dates_are_rfc3339_in_utc() {
        let t = std::time::UNIX_EPOCH + std::time::Duration::from_millis(784_111_777_250);
        assert_eq!(super::rfc3339(t), "1994-11-06T08:49:37Z");
    }
}
