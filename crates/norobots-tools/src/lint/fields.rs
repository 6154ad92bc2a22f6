//! Field names: the ones the dialects and common extensions know, and how
//! close a name as written is to one of them.

use norobots::Key;

/// A field the linter knows: the core's keys, and Yandex's `Clean-param`,
/// which no dialect acts on but which is no misspelling either.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Field {
    Key(Key),
    CleanParam,
}

impl Field {
    /// Known fields, the ones that change matching first: on a tie of edit
    /// distance the first wins.
    const ALL: [Field; 9] = [
        Field::Key(Key::Disallow),
        Field::Key(Key::Allow),
        Field::Key(Key::UserAgent),
        Field::Key(Key::Sitemap),
        Field::Key(Key::CrawlDelay),
        Field::Key(Key::Host),
        Field::Key(Key::RequestRate),
        Field::Key(Key::VisitTime),
        Field::CleanParam,
    ];

    /// The spelling the texts use.
    pub(crate) fn name(self) -> &'static str {
        match self {
            Field::Key(key) => key.name(),
            Field::CleanParam => "Clean-param",
        }
    }

    pub(crate) fn is_rule(self) -> bool {
        matches!(self, Field::Key(Key::Allow | Key::Disallow))
    }
}

/// How a field name as written relates to the known ones.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Class {
    /// Spelled right (any case).
    Exact(Field),
    /// Close to a known name: a misspelling of it.
    Near(Field),
    /// Nothing like a known name.
    Unknown,
}

/// Longer names are not compared: no field is longer than 12 letters, and
/// the edit distance is quadratic.
const MAX_KEY: usize = 32;

pub(crate) fn classify(key: &[u8]) -> Class {
    if let Some(f) = Field::ALL
        .into_iter()
        .find(|f| key.eq_ignore_ascii_case(f.name().as_bytes()))
    {
        return Class::Exact(f);
    }
    if key.len() > MAX_KEY {
        return Class::Unknown;
    }
    // Compare letters only, lower-cased: `User agent`, `User_agent`,
    // `useragent`, `Crawl_delay` and `Site-map` differ from the right
    // spelling only in separators.
    let letters: Vec<u8> = key
        .iter()
        .filter(|b| b.is_ascii_alphabetic())
        .map(u8::to_ascii_lowercase)
        .collect();
    if letters.len() < 4 {
        return Class::Unknown;
    }
    let mut best: Option<(usize, Field)> = None;
    for f in Field::ALL {
        let want = letters_of(f.name());
        let d = if letters == want {
            0
        } else if letters.starts_with(&want) && want.len() >= 5 {
            // `Disallowed`, `Sitemaps`, `allowance`: the reference library
            // reads keys by prefix.
            1
        } else {
            osa_distance(&letters, &want)
        };
        if d <= allowed_distance(want.len()) && best.is_none_or(|(b, _)| d < b) {
            best = Some((d, f));
        }
    }
    best.map_or(Class::Unknown, |(_, f)| Class::Near(f))
}

/// How many edits still count as a misspelling: none for short names
/// (`Host` against `Post` would be a guess), one up to eight letters
/// (`Alow`, `Disalow`), two beyond (`Useragnet`).
fn allowed_distance(len: usize) -> usize {
    match len {
        0..=4 => 0,
        5..=8 => 1,
        _ => 2,
    }
}

fn letters_of(name: &str) -> Vec<u8> {
    name.bytes()
        .filter(u8::is_ascii_alphabetic)
        .map(|b| b.to_ascii_lowercase())
        .collect()
}

/// Edit distance with adjacent transpositions (optimal string alignment):
/// `Diasllow` is one edit from `Disallow`.
fn osa_distance(a: &[u8], b: &[u8]) -> usize {
    let (n, m) = (a.len(), b.len());
    let mut rows = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in rows[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut d = (rows[i - 1][j] + 1)
                .min(rows[i][j - 1] + 1)
                .min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                d = d.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = d;
        }
    }
    rows[n][m]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn misspellings_map_to_the_right_field() {
        let cases: [(&[u8], Field); 14] = [
            (b"Dissallow", Field::Key(Key::Disallow)),
            (b"Disalow", Field::Key(Key::Disallow)),
            (b"diasllow", Field::Key(Key::Disallow)),
            (b"Disallowed", Field::Key(Key::Disallow)),
            (b"User agent", Field::Key(Key::UserAgent)),
            (b"Useragent", Field::Key(Key::UserAgent)),
            (b"User_agent", Field::Key(Key::UserAgent)),
            (b"User-agnet", Field::Key(Key::UserAgent)),
            (b"Alow", Field::Key(Key::Allow)),
            (b"Allows", Field::Key(Key::Allow)),
            (b"Crawl_delay", Field::Key(Key::CrawlDelay)),
            (b"Crawldelay", Field::Key(Key::CrawlDelay)),
            (b"Site-map", Field::Key(Key::Sitemap)),
            (b"Sitemaps", Field::Key(Key::Sitemap)),
        ];
        for (key, field) in cases {
            assert_eq!(
                classify(key),
                Class::Near(field),
                "{}",
                String::from_utf8_lossy(key)
            );
        }
    }

    #[test]
    fn exact_names_any_case_and_strangers() {
        assert_eq!(
            classify(b"USER-AGENT"),
            Class::Exact(Field::Key(Key::UserAgent))
        );
        assert_eq!(
            classify(b"crawl-delay"),
            Class::Exact(Field::Key(Key::CrawlDelay))
        );
        for key in [&b"Noindex"[..], b"Post", b"Hots", b"X", b"Content-type"] {
            assert_eq!(classify(key), Class::Unknown);
        }
    }

    #[test]
    fn distance_counts_transpositions_once() {
        assert_eq!(osa_distance(b"abcd", b"abdc"), 1);
        assert_eq!(osa_distance(b"", b"abc"), 3);
        assert_eq!(osa_distance(b"kitten", b"sitting"), 3);
    }
}
