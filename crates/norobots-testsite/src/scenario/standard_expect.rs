//! The standard site's expectations, written out by hand from the rules on
//! [`standard`](super::standard) (and checked in `model.rs` against a
//! reference walk that uses the core library's verdicts).

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

use super::expect::{Expectations, Fate, RobotsFetch};
use super::standard::{long_name, MANY};

use Fate::*;

/// Origin, path, fate under rfc9309 (and google), fate under draft1996 (and
/// norobots1994, which reads this site's robots.txt files the same way).
const URLS: &[(&str, &str, Fate, Fate)] = &[
    ("a", "/index.html", Saved, Saved),
    // robots.txt rules.
    ("a", "/allowed.html", Saved, Saved),
    ("a", "/private/secret.html", Disallowed, Disallowed),
    ("a", "/private/secret2.html", Disallowed, Disallowed),
    ("a", "/private/open.html", Saved, Disallowed),
    ("a", "/private/in-sitemap.html", NotLinked, NotLinked),
    ("a", "/doc.pdf", Disallowed, Saved),
    ("a", "/doc.pdf?download=1", Saved, Saved),
    ("a", "/search?q=1", Disallowed, Disallowed),
    ("a", "/search", Saved, Saved),
    ("a", "/star-only/page.html", Saved, Saved),
    // META robots, X-Robots-Tag, rel=nofollow.
    ("a", "/meta/noindex.html", NoIndex, NoIndex),
    ("a", "/meta/after-noindex.html", Saved, Saved),
    ("a", "/meta/nofollow.html", NoFollow, NoFollow),
    ("a", "/meta/only-via-nofollow.html", NotLinked, NotLinked),
    ("a", "/meta/none.html", NoIndexNoFollow, NoIndexNoFollow),
    ("a", "/meta/only-via-none.html", NotLinked, NotLinked),
    ("a", "/meta/otherbot.html", Saved, Saved),
    ("a", "/meta/after-otherbot.html", Saved, Saved),
    ("a", "/meta/norobots.html", NoFollow, NoFollow),
    ("a", "/meta/only-via-norobots.html", NotLinked, NotLinked),
    ("a", "/xrt/noindex.html", NoIndex, NoIndex),
    ("a", "/xrt/after-noindex.html", Saved, Saved),
    ("a", "/xrt/otherbot.html", Saved, Saved),
    ("a", "/xrt/after-otherbot.html", Saved, Saved),
    ("a", "/xrt/norobots.html", NoFollow, NoFollow),
    ("a", "/xrt/only-via-norobots.html", NotLinked, NotLinked),
    ("a", "/relnofollow.html", Saved, Saved),
    ("a", "/only-via-relnofollow.html", NotLinked, NotLinked),
    ("a", "/after-relnofollow.html", Saved, Saved),
    // Redirects, cycles, errors.
    ("a", "/go/in", Redirect, Redirect),
    ("a", "/redirected-in.html", Saved, Saved),
    ("a", "/go/other", Redirect, Redirect),
    ("a", "/go/private", Redirect, Redirect),
    ("a", "/go/loop-1", Redirect, Redirect),
    ("a", "/go/loop-2", Redirect, Redirect),
    ("a", "/cycle/1.html", Saved, Saved),
    ("a", "/cycle/2.html", Saved, Saved),
    ("a", "/cycle/3.html", Saved, Saved),
    ("a", "/missing.html", Missing, Missing),
    ("a", "/slow.html", Saved, Saved),
    ("a", "/retry/503.html", Retried, Retried),
    ("a", "/retry/429.html", Retried, Retried),
    ("a", "/broken.html", Broken, Broken),
    // Content.
    ("a", "/files/image.png", Saved, Saved),
    ("a", "/files/data.bin", Saved, Saved),
    ("a", "/from-binary.html", NotLinked, NotLinked),
    ("a", "/no-type", Saved, Saved),
    ("a", "/from-sniffed.html", Saved, Saved),
    ("a", "/base/page.html", Saved, Saved),
    ("a", "/base/deeper/target.html", Saved, Saved),
    ("a", "/base/up.html", Saved, Saved),
    ("a", "/base/target.html", NotLinked, NotLinked),
    ("a", "/embeds.html", Saved, Saved),
    ("a", "/embed/img.png", Saved, Saved),
    ("a", "/embed/small.png", Saved, Saved),
    ("a", "/embed/large.png", Saved, Saved),
    ("a", "/embed/fallback.png", Saved, Saved),
    ("a", "/embed/pic.webp", Saved, Saved),
    ("a", "/embed/pic.png", Saved, Saved),
    ("a", "/embed/clip.webm", Saved, Saved),
    ("a", "/embed/app.js", Saved, Saved),
    ("a", "/embed/style.css", Saved, Saved),
    ("a", "/embed/iframe.html", Saved, Saved),
    ("a", "/embed/area.html", Saved, Saved),
    ("a", "/frames.html", Saved, Saved),
    ("a", "/embed/frame.html", Saved, Saved),
    ("a", "/frag.html", Saved, Saved),
    ("a", "/danger.html", Saved, Saved),
    ("a", "/..%2F..%2Fescape.html", Saved, Saved),
    ("a", "/escape2.html", Saved, Saved),
    ("a", "/%2e%2e/%2e%2e/escape2.html", NotLinked, NotLinked),
    ("a", "/nul%00byte.html", Saved, Saved),
    ("a", "/with%20space.html", Saved, Saved),
    ("a", "/dir/", Saved, Saved),
    ("a", "/dir/sub.html", Saved, Saved),
    ("a", "/q?x=1&y=2", Saved, Saved),
    ("a", "/from-b.html", Saved, Saved),
    // Sitemaps (see SITEMAPS for --sitemaps).
    ("a", "/sitemap.xml", SitemapOnly, SitemapOnly),
    ("a", "/sitemap-index.xml", SitemapOnly, SitemapOnly),
    ("a", "/sitemap-more.xml.gz", SitemapOnly, SitemapOnly),
    ("a", "/only-in-sitemap.html", SitemapOnly, SitemapOnly),
    ("a", "/only-in-gz-sitemap.html", SitemapOnly, SitemapOnly),
    // b: robots.txt 404, so everything is allowed.
    ("b", "/landing.html", Saved, Saved),
    ("b", "/b-page.html", Saved, Saved),
    ("b", "/from-redirect.html", Saved, Saved),
    // c: 403, i: 401. rfc9309: allow all. draft1996: disallow all.
    ("c", "/index.html", Saved, Blocked),
    ("c", "/c-page.html", Saved, NotLinked),
    ("i", "/index.html", Saved, Blocked),
    ("i", "/i-page.html", Saved, NotLinked),
    // d: 503, g: no answer. rfc9309: disallow all. draft1996: defer.
    ("d", "/index.html", Blocked, Deferred),
    ("g", "/index.html", Blocked, Deferred),
    // e: robots.txt redirected to f's file, which disallows /e-private/.
    ("e", "/index.html", Saved, Saved),
    ("e", "/e-private/x.html", Disallowed, Disallowed),
    ("e", "/e-public.html", Saved, Saved),
    // h: nothing links here.
    ("h", "/index.html", NotLinked, NotLinked),
    ("m", "/many.html", Saved, Saved),
];

/// The fates that `--sitemaps` changes.
const SITEMAPS: &[(&str, &str, Fate)] = &[
    ("a", "/sitemap.xml", Saved),
    ("a", "/sitemap-index.xml", Saved),
    ("a", "/sitemap-more.xml.gz", Saved),
    ("a", "/only-in-sitemap.html", Saved),
    ("a", "/only-in-gz-sitemap.html", Saved),
    ("a", "/private/in-sitemap.html", Disallowed),
];

/// Origin, robots.txt fetches under rfc9309, under draft1996.
const ROBOTS: &[(&str, RobotsFetch, RobotsFetch)] = &[
    ("a", RobotsFetch::Once, RobotsFetch::Once),
    ("b", RobotsFetch::Once, RobotsFetch::Once),
    ("c", RobotsFetch::Once, RobotsFetch::Once),
    ("d", RobotsFetch::Once, RobotsFetch::Retried),
    ("e", RobotsFetch::Once, RobotsFetch::Once),
    ("f", RobotsFetch::Never, RobotsFetch::Never),
    ("g", RobotsFetch::Once, RobotsFetch::Retried),
    ("h", RobotsFetch::Never, RobotsFetch::Never),
    ("i", RobotsFetch::Once, RobotsFetch::Once),
    ("m", RobotsFetch::Once, RobotsFetch::Once),
];

fn key(origin: &str, path: &str) -> (String, String) {
    (origin.to_owned(), path.to_owned())
}

pub(crate) fn expect(dialect: &str) -> Expectations {
    let legacy = match dialect {
        "rfc9309" | "google" => false,
        "draft1996" | "norobots1994" => true,
        other => panic!(
            "no expectations for dialect {other:?} (rfc9309, google, draft1996, norobots1994)"
        ),
    };
    let pick = |rfc: Fate, draft: Fate| if legacy { draft } else { rfc };
    let mut urls: BTreeMap<_, _> = URLS
        .iter()
        .map(|&(o, p, rfc, draft)| (key(o, p), pick(rfc, draft)))
        .collect();
    urls.insert(key("a", &format!("/{}", long_name())), Saved);
    for n in 0..MANY {
        urls.insert(key("m", &format!("/many/{n}.html")), Saved);
    }
    Expectations {
        dialect: dialect.to_owned(),
        start: key("a", "/index.html"),
        urls,
        robots: ROBOTS
            .iter()
            .map(|&(o, rfc, draft)| (o.to_owned(), if legacy { draft } else { rfc }))
            .collect(),
        robots_elsewhere: BTreeSet::from([key("f", "/robots-for-e.txt")]),
        crawl_delay: BTreeMap::from([("a".to_owned(), Duration::from_millis(200))]),
        sitemaps: SITEMAPS
            .iter()
            .map(|&(o, p, fate)| (key(o, p), fate))
            .collect(),
    }
}
