//! A site of N pages made on the fly, for scale: a 10-ary tree with a few
//! cross links and one disallowed subtree.

use std::collections::BTreeSet;
use std::fmt::Write;

use crate::{OriginSpec, Response, Site};

/// The generated site's only origin.
pub const GENERATED_ORIGIN: &str = "gen";

/// Where a robot starts on the generated site: page 0.
pub const GENERATED_START: &str = "/p/0.html";

/// The root of the subtree that lives under `/private/`, which the site's
/// robots.txt disallows: about one page in a hundred for large sites.
const PRIVATE_ROOT: usize = 17;

/// Text to pad pages with, so each is 2–4 KB as real pages are.
const FILLER: &str = "The quick brown robot reads robots.txt before it asks for a page, \
waits between requests to one host, keeps what it is allowed to keep and follows what it \
is allowed to follow. ";

/// Whether page `i` is in the disallowed subtree.
fn private(mut i: usize) -> bool {
    while i > PRIVATE_ROOT {
        i = (i - 1) / 10;
    }
    i == PRIVATE_ROOT
}

/// The path and query of page `i`.
///
/// ```
/// use norobots_testsite::scenario::generated_path;
///
/// assert_eq!(generated_path(5), "/p/5.html");
/// assert_eq!(generated_path(17), "/private/17.html");
/// assert_eq!(generated_path(175), "/private/175.html");
/// ```
pub fn generated_path(i: usize) -> String {
    let dir = if private(i) { "private" } else { "p" };
    format!("/{dir}/{i}.html")
}

/// The pages page `i` of an `n`-page site links to, in page order: its
/// children `10i+1..=10i+10`, its parent, and two cross links.
///
/// ```
/// use norobots_testsite::scenario::generated_links;
///
/// assert_eq!(generated_links(0, 5), [1, 2, 3, 4, 3, 0]);
/// assert_eq!(generated_links(12, 1000)[..10], [121, 122, 123, 124, 125, 126, 127, 128, 129, 130]);
/// ```
pub fn generated_links(i: usize, n: usize) -> Vec<usize> {
    let mut links: Vec<usize> = (10 * i + 1..=10 * i + 10).filter(|&c| c < n).collect();
    if i > 0 {
        links.push((i - 1) / 10);
    }
    if n > 0 {
        links.push((i * 7 + 3) % n);
        links.push((i * 13 + 5) % n);
    }
    links
}

fn page_number(path: &str) -> Option<usize> {
    let rest = path
        .strip_prefix("/p/")
        .or_else(|| path.strip_prefix("/private/"))?;
    let i: usize = rest.strip_suffix(".html")?.parse().ok()?;
    // One spelling per page: `/p/017.html` and the wrong directory are 404s.
    (generated_path(i) == path).then_some(i)
}

fn render(i: usize, n: usize) -> String {
    let mut html = String::with_capacity(4096);
    let _ = write!(
        html,
        "<!doctype html>\n<html><head><title>Page {i}</title></head>\n<body>\n<h1>Page {i} of {n}</h1>\n<ul>\n"
    );
    for link in generated_links(i, n) {
        let _ = writeln!(
            html,
            "<li><a href=\"{}\">page {link}</a>",
            generated_path(link)
        );
    }
    html.push_str("</ul>\n<p>");
    // 2 to 3.9 KB in all, varying by page.
    let want = 2000 + (i * 37) % 1700;
    while html.len() < want {
        html.push_str(FILLER);
    }
    html.push_str("</p>\n</body></html>\n");
    html
}

/// The generated site: one origin, [`GENERATED_ORIGIN`], with `pages`
/// pages made per request (nothing is stored per page, so 100,000 pages
/// cost no memory and little time).
///
/// | URL | what it is |
/// |---|---|
/// | `/robots.txt` | `User-agent: *` / `Disallow: /private/` |
/// | `/p/I.html` | page I: links to [`generated_links`] |
/// | `/private/I.html` | page I, when I is 17 or below it in the tree (171–180, 1711–1810, …) |
/// | anything else | 404 |
///
/// A correct robot started on [`GENERATED_START`] requests exactly
/// [`generated_allowed`] and robots.txt once; a tree of 100,000 pages is 5
/// levels deep below page 0, within wget's default depth.
///
/// ```
/// use norobots_testsite::scenario::{generated, GENERATED_ORIGIN, GENERATED_START};
///
/// let site = generated(1000);
/// let start = site.lookup(GENERATED_ORIGIN, GENERATED_START).unwrap();
/// let html = String::from_utf8(start.body().to_vec()).unwrap();
/// assert!(html.contains("<a href=\"/p/1.html\">"));
/// assert!(site.lookup(GENERATED_ORIGIN, "/p/1000.html").is_none());
/// assert!(site.lookup(GENERATED_ORIGIN, "/private/17.html").is_some());
/// ```
pub fn generated(pages: usize) -> Site {
    Site::new().origin(generated_origin(GENERATED_ORIGIN, pages))
}

/// The generated site on `origins` origins at once, named `g0`, `g1`, …
/// (each with its own port), each of `pages` pages and the same
/// robots.txt: for crawls that share work out by host.
///
/// A correct robot started on [`GENERATED_START`] of each origin requests
/// exactly [`generated_allowed`]`(pages)` on each, and robots.txt once per
/// origin.
///
/// ```
/// use norobots_testsite::scenario::{generated_origins, GENERATED_START};
///
/// let site = generated_origins(3, 100);
/// let names: Vec<&str> = site.origins().map(|o| o.name()).collect();
/// assert_eq!(names, ["g0", "g1", "g2"]);
/// assert!(site.lookup("g2", GENERATED_START).is_some());
/// assert!(site.lookup("g2", "/p/100.html").is_none());
/// ```
pub fn generated_origins(origins: usize, pages: usize) -> Site {
    let mut site = Site::new();
    for n in 0..origins {
        site = site.origin(generated_origin(&format!("g{n}"), pages));
    }
    site
}

fn generated_origin(name: &str, pages: usize) -> OriginSpec {
    OriginSpec::new(name)
        .route(
            "/robots.txt",
            Response::text("User-agent: *\nDisallow: /private/\n"),
        )
        .generate(move |path| {
            let i = page_number(path).filter(|&i| i < pages)?;
            Some(Response::html(render(i, pages)))
        })
}

/// The paths a correct robot requests on an `n`-page generated site
/// (robots.txt aside), found by walking the links from page 0 and never
/// stepping into `/private/`.
///
/// ```
/// use norobots_testsite::scenario::generated_allowed;
///
/// let allowed = generated_allowed(100_000);
/// assert_eq!(allowed.len(), 100_000 - 1_111);
/// assert!(allowed.contains("/p/0.html"));
/// assert!(!allowed.contains("/private/17.html"));
/// ```
pub fn generated_allowed(n: usize) -> BTreeSet<String> {
    let mut seen = vec![false; n];
    let mut queue = std::collections::VecDeque::new();
    if n > 0 {
        seen[0] = true;
        queue.push_back(0);
    }
    while let Some(i) = queue.pop_front() {
        for link in generated_links(i, n) {
            if !seen[link] && !private(link) {
                seen[link] = true;
                queue.push_back(link);
            }
        }
    }
    (0..n).filter(|&i| seen[i]).map(generated_path).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_private_subtree_is_17_and_below() {
        let private: Vec<usize> = (0..2000).filter(|&i| private(i)).collect();
        let mut want = vec![17];
        want.extend(171..=180);
        want.extend(1711..=1810);
        assert_eq!(private, want);
    }

    #[test]
    fn pages_are_two_to_four_kilobytes() {
        for i in [0, 1, 17, 99, 12_345, 99_999] {
            let len = render(i, 100_000).len();
            assert!((2000..=4096).contains(&len), "page {i}: {len} bytes");
        }
    }

    #[test]
    fn each_page_has_one_spelling() {
        assert_eq!(page_number("/p/12.html"), Some(12));
        assert_eq!(page_number("/private/171.html"), Some(171));
        assert_eq!(page_number("/p/171.html"), None);
        assert_eq!(page_number("/private/12.html"), None);
        assert_eq!(page_number("/p/012.html"), None);
        assert_eq!(page_number("/p/+1.html"), None);
        assert_eq!(page_number("/p/1.htm"), None);
    }

    #[test]
    fn the_site_serves_what_the_walk_finds() {
        let n = 3000;
        let site = generated(n);
        for path in generated_allowed(n) {
            assert_eq!(
                site.lookup(GENERATED_ORIGIN, &path).unwrap().status(),
                200,
                "{path}"
            );
        }
        assert!(site.lookup(GENERATED_ORIGIN, "/p/3000.html").is_none());
        assert!(site.lookup(GENERATED_ORIGIN, "/").is_none());
    }

    #[test]
    fn every_page_outside_the_subtree_is_reachable() {
        // The tree edges alone reach every page whose ancestors are
        // public, so the walk finds exactly the public pages.
        for n in [0, 1, 17, 18, 200, 5000] {
            let public = (0..n).filter(|&i| !private(i)).map(generated_path);
            assert_eq!(generated_allowed(n), public.collect(), "n = {n}");
        }
    }

    #[test]
    fn links_point_inside_the_site() {
        for i in 0..500 {
            assert!(generated_links(i, 500).iter().all(|&l| l < 500));
        }
    }
}
