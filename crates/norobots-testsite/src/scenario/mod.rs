//! The sites the robot's tests crawl, each with what a correct robot does
//! there.
//!
//! A correct robot, here, is `norobots crawl` with product token
//! `norobots`, allowed onto every origin of the site (all are on
//! 127.0.0.1, on different ports) and with enough depth; it:
//! - fetches the start URL without consulting robots.txt (as wget does);
//! - fetches an origin's robots.txt lazily, once, when a URL found there
//!   by recursion is about to be requested, and never for an origin it has
//!   no such URL for;
//! - checks every URL found by recursion, and every redirect target,
//!   against its own origin's robots.txt before requesting it, using the
//!   `norobots` group where there is one (longest match in rfc9309, first
//!   match in draft1996, `*` and `$` only in rfc9309);
//! - keeps its `Crawl-delay` (and its own `--wait`) between requests to
//!   one origin;
//! - obeys META robots and `X-Robots-Tag` addressed to `robots` or
//!   `norobots` (`noindex`: fetched, not saved; `nofollow`: links not
//!   followed; `none`: both), ignores those addressed to other robots, and
//!   does not follow `rel="nofollow"` links;
//! - reads sitemaps only when asked (`--sitemaps`).

mod expect;
mod generated;
#[cfg(test)]
mod model;
mod standard;
mod standard_expect;

pub use expect::{Expectations, Fate, Key, RobotsFetch};
pub use generated::{
    generated, generated_allowed, generated_links, generated_origins, generated_path,
    GENERATED_ORIGIN, GENERATED_START,
};
pub use standard::{long_name, MANY};

use crate::Site;

/// The standard site: ten origins that between them hold every case the
/// robot must get right. Start the robot on `a:/index.html`.
///
/// Fates (see [`Fate`]) under rfc9309 (and google), with draft1996 (and
/// norobots1994) where it differs; "via" says which page links there.
///
/// | origin | robots.txt | robots.txt requests |
/// |---|---|---|
/// | a | 200: groups for `otherbot` (`Disallow: /`), `norobots` (below), `*` (`Disallow: /star-only/`); two `Sitemap` lines | once |
/// | b | 404: allow all | once |
/// | c | 403: rfc allow all; draft disallow all | once |
/// | i | 401: as c | once |
/// | d | 503 with `Retry-After: 1`: rfc disallow all; draft defer | once; draft: retried |
/// | e | 301 to `f:/robots-for-e.txt` (`Disallow: /e-private/`, applies to e) | once (and f's file once) |
/// | f | only the target of e's redirect | never |
/// | g | never answers: rfc disallow all; draft defer | once; draft: retried |
/// | h | 200, but nothing links to h | never |
/// | m | 200, allow all, no delay | once |
///
/// a's `norobots` group: `Disallow: /private/`, `Allow: /private/open.html`,
/// `Disallow: /*.pdf$`, `Disallow: /search?`, `Crawl-delay: 0.2`.
///
/// | URL (via) | fate |
/// |---|---|
/// | a `/index.html` (start) | Saved |
/// | a `/allowed.html` (index) | Saved |
/// | a `/private/secret.html` (index) | Disallowed |
/// | a `/private/open.html` (index) | Saved (longest match); draft: Disallowed (first match) |
/// | a `/doc.pdf` (index) | Disallowed (`/*.pdf$`); draft: Saved (`*` is literal) |
/// | a `/doc.pdf?download=1` (index) | Saved (`$` anchors) |
/// | a `/search?q=1` (index) | Disallowed |
/// | a `/search` (index) | Saved (`/search?` does not match) |
/// | a `/star-only/page.html` (index) | Saved (only `*` disallows it) |
/// | a `/meta/noindex.html` (index) → `/meta/after-noindex.html` | NoIndex → Saved |
/// | a `/meta/nofollow.html` (index) → `/meta/only-via-nofollow.html` | NoFollow → NotLinked |
/// | a `/meta/none.html` (index) → `/meta/only-via-none.html` | NoIndexNoFollow → NotLinked |
/// | a `/meta/otherbot.html` (`<meta name="otherbot" content="noindex,nofollow">`) → `/meta/after-otherbot.html` | Saved → Saved |
/// | a `/meta/norobots.html` (`<meta name="norobots" content="nofollow">`) → `/meta/only-via-norobots.html` | NoFollow → NotLinked |
/// | a `/xrt/noindex.html` (`X-Robots-Tag: noindex`) → `/xrt/after-noindex.html` | NoIndex → Saved |
/// | a `/xrt/otherbot.html` (`otherbot: nofollow`) → `/xrt/after-otherbot.html` | Saved → Saved |
/// | a `/xrt/norobots.html` (`norobots: nofollow`) → `/xrt/only-via-norobots.html` | NoFollow → NotLinked |
/// | a `/relnofollow.html` → `rel=nofollow` `/only-via-relnofollow.html`, plain `/after-relnofollow.html` | Saved → NotLinked, Saved |
/// | a `/go/in` → 301 `/redirected-in.html` | Redirect → Saved |
/// | a `/go/other` → 302 `b:/from-redirect.html` | Redirect → Saved |
/// | a `/go/private` → 302 `/private/secret2.html` | Redirect → Disallowed (checked before following) |
/// | a `/go/loop-1` ⇄ `/go/loop-2` | Redirect, Redirect (once each) |
/// | a `/cycle/1.html#top` → `2.html` → `3.html` → `1.html` | Saved ×3 (once each) |
/// | a `/missing.html` | Missing |
/// | a `/slow.html` (answers after 1.5 s) | Saved |
/// | a `/retry/503.html`, `/retry/429.html` (`Retry-After: 1`, then 200) | Retried |
/// | a `/broken.html` (cut after 300 bytes) | Broken |
/// | a `/files/image.png`, `/files/data.bin` (octet-stream holding `<a href="/from-binary.html">`) | Saved; `/from-binary.html`: NotLinked |
/// | a `/no-type` (HTML without Content-Type) → `/from-sniffed.html` | Saved → Saved |
/// | a `/base/page.html` (`<base href="a/base/deeper/">`) → `/base/deeper/target.html`, `/base/up.html` | Saved → Saved; `/base/target.html` (base ignored): NotLinked |
/// | a `/embeds.html`: `img`, `srcset`, `picture source`, `video source`, `script`, `link`, `iframe`, `area` → `/embed/*` (11 files) | Saved, all |
/// | a `/frames.html` → `frame` `/embed/frame.html` | Saved → Saved |
/// | a `/frag.html#one`, `#two` | Saved (once) |
/// | a `/danger.html` → `/..%2F..%2Fescape.html`, `/nul%00byte.html`, `/with%20space.html`, `/` + [`long_name`] (300 characters), `/dir/` → `/dir/sub.html`, `/q?x=1&y=2` (written `&amp;`) | Saved, all (the mirror must keep them inside its directory) |
/// | a `/%2e%2e/%2e%2e/escape2.html` (danger) | a URL parser makes it `/escape2.html`: Saved; the raw form: NotLinked |
/// | a `/from-b.html` (b landing) | Saved |
/// | a `/sitemap.xml`, `/sitemap-index.xml` → `/sitemap-more.xml.gz` (gzip), `/only-in-sitemap.html`, `/only-in-gz-sitemap.html` | SitemapOnly; with `--sitemaps`: Saved |
/// | a `/private/in-sitemap.html` (sitemap.xml only) | NotLinked; with `--sitemaps`: Disallowed |
/// | b `/landing.html` (index) → `/b-page.html`; `b:/from-redirect.html` (a `/go/other`) | Saved |
/// | c `/index.html` (b) → `/c-page.html`; same on i (`/i-page.html`) | Saved, Saved; draft: Blocked, NotLinked |
/// | d `/index.html` (b) | Blocked; draft: Deferred |
/// | e `/index.html` (b) → `/e-private/x.html`, `/e-public.html` | Saved → Disallowed, Saved |
/// | g `/index.html` (b) | Blocked; draft: Deferred |
/// | h `/index.html` | NotLinked |
/// | m `/many.html` (index) → `/many/0.html` … `/many/4999.html` | Saved, all |
///
/// Every route the site has that is not in [`standard_expect`] is a
/// robots.txt file; everything else answers 404.
///
/// ```
/// let site = norobots_testsite::scenario::standard();
/// let names: Vec<&str> = site.origins().map(|o| o.name()).collect();
/// assert_eq!(names, ["a", "b", "c", "d", "e", "f", "g", "h", "i", "m"]);
/// ```
pub fn standard() -> Site {
    standard::site()
}

/// What a correct robot does on [`standard`], for one dialect: `rfc9309`
/// (the default), `google`, `draft1996` or `norobots1994`.
///
/// # Panics
///
/// For any other dialect name.
///
/// ```
/// use norobots_testsite::scenario::{standard_expect, Fate, RobotsFetch};
///
/// let rfc = standard_expect("rfc9309");
/// assert_eq!(rfc.fate("d", "/index.html"), Some(Fate::Blocked));
/// assert_eq!(rfc.robots["d"], RobotsFetch::Once);
/// assert_eq!(rfc.crawl_delay["a"], std::time::Duration::from_millis(200));
///
/// let draft = standard_expect("draft1996");
/// assert_eq!(draft.fate("d", "/index.html"), Some(Fate::Deferred));
/// assert_eq!(draft.fate("a", "/doc.pdf"), Some(Fate::Saved));
/// ```
pub fn standard_expect(dialect: &str) -> Expectations {
    standard_expect::expect(dialect)
}

#[cfg(test)]
mod tests {
    use super::*;

    const DIALECTS: [&str; 4] = ["rfc9309", "google", "draft1996", "norobots1994"];

    #[test]
    fn every_expected_url_is_served() {
        let site = standard();
        for dialect in DIALECTS {
            let e = standard_expect(dialect).with_sitemaps();
            for (origin, path) in e.urls.keys().chain(&e.robots_elsewhere) {
                assert!(
                    site.lookup(origin, path).is_some(),
                    "{dialect}: {origin} {path} has no route"
                );
            }
        }
    }

    #[test]
    fn every_route_is_expected_or_a_robots_file() {
        let site = standard();
        let e = standard_expect("rfc9309");
        for origin in site.origins() {
            for path in origin.paths() {
                let key = (origin.name().to_owned(), path.to_owned());
                assert!(
                    path == "/robots.txt"
                        || e.urls.contains_key(&key)
                        || e.robots_elsewhere.contains(&key),
                    "{key:?} is served but has no expectation"
                );
            }
        }
    }

    #[test]
    fn statuses_match_fates() {
        let site = standard();
        let e = standard_expect("rfc9309").with_sitemaps();
        for ((origin, path), fate) in &e.urls {
            let r = site.lookup(origin, path).unwrap();
            let want = match fate {
                Fate::Redirect => 300..=399,
                Fate::Missing => 404..=404,
                Fate::Retried => 429..=503,
                _ => 200..=200,
            };
            assert!(
                want.contains(&r.status()),
                "{origin} {path}: {fate:?} but {}",
                r.status()
            );
            assert_eq!(
                *fate == Fate::Broken,
                r.breaks_after().is_some(),
                "{origin} {path}"
            );
        }
    }

    #[test]
    fn every_origin_has_a_robots_expectation() {
        let site = standard();
        for dialect in DIALECTS {
            let e = standard_expect(dialect);
            let names: Vec<&str> = site.origins().map(|o| o.name()).collect();
            let robots: Vec<&str> = e.robots.keys().map(String::as_str).collect();
            assert_eq!(names.len(), robots.len());
            assert!(names.iter().all(|n| robots.contains(n)));
        }
    }

    #[test]
    fn dialects_differ_only_where_the_table_says() {
        let rfc = standard_expect("rfc9309");
        let draft = standard_expect("draft1996");
        let differ: Vec<(&str, &str)> = rfc
            .urls
            .iter()
            .filter(|(k, f)| draft.urls[*k] != **f)
            .map(|((o, p), _)| (o.as_str(), p.as_str()))
            .collect();
        assert_eq!(
            differ,
            [
                ("a", "/doc.pdf"),
                ("a", "/private/open.html"),
                ("c", "/c-page.html"),
                ("c", "/index.html"),
                ("d", "/index.html"),
                ("g", "/index.html"),
                ("i", "/i-page.html"),
                ("i", "/index.html"),
            ]
        );
        assert_eq!(
            standard_expect("google"),
            Expectations {
                dialect: "google".into(),
                ..rfc
            }
        );
        assert_eq!(
            standard_expect("norobots1994"),
            Expectations {
                dialect: "norobots1994".into(),
                ..draft
            }
        );
    }

    #[test]
    fn the_counts_are_as_documented() {
        let e = standard_expect("rfc9309");
        assert_eq!(
            e.fetched().iter().filter(|(o, _)| o == "m").count(),
            MANY + 1
        );
        assert_eq!(
            e.fetched()
                .iter()
                .filter(|(o, p)| o == "a" && p.starts_with("/embed/"))
                .count(),
            12
        );
        assert_eq!(e.having(Fate::SitemapOnly).len(), 5);
        assert_eq!(long_name().len(), 300);
    }

    #[test]
    #[should_panic(expected = "no expectations for dialect \"rfc\"")]
    fn an_unknown_dialect_panics() {
        let _ = standard_expect("rfc");
    }
}
