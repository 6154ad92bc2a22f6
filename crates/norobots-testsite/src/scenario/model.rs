//! A reference walk of the standard site, to check the hand-written
//! expectations: robots.txt verdicts and META parsing come from the core
//! library, URL resolution from the `url` crate, and the walk follows the
//! rules on [`super`]. It runs on `Site::lookup`, without a network, and
//! knows nothing of the expected fates; the test compares what it finds
//! with the table. It does not read sitemaps (their entries are checked by
//! hand in `mod.rs`).

use std::collections::{BTreeMap, BTreeSet, HashMap, HashSet, VecDeque};
use std::time::Duration;

use bytes::Bytes;
use norobots::meta::PageDirectives;
use norobots::{Dialect, ParseOptions, Robots};
use url::Url;

use super::{standard, standard_expect, Fate, Key, RobotsFetch};
use crate::placeholder::expand;
use crate::{Response, Site};

const AGENT: &str = "norobots";

enum Access {
    Rules(Box<Robots>),
    AllowAll,
    Blocked,
    Deferred,
}

struct Walk {
    site: Site,
    dialect: Dialect,
    urls: HashMap<String, String>,
    names: HashMap<u16, String>,
    access: HashMap<String, Access>,
    robots: BTreeMap<String, RobotsFetch>,
    elsewhere: BTreeSet<Key>,
    crawl_delay: BTreeMap<String, Duration>,
    fates: BTreeMap<Key, Fate>,
    unfollowed: BTreeSet<Key>,
    seen: HashSet<Url>,
    queue: VecDeque<Url>,
}

impl Walk {
    fn new(site: Site, dialect: Dialect) -> Walk {
        let names: HashMap<u16, String> = site
            .origins()
            .enumerate()
            .map(|(k, o)| (1000 + k as u16, o.name().to_owned()))
            .collect();
        let urls = names
            .iter()
            .map(|(port, name)| (name.clone(), format!("http://127.0.0.1:{port}")))
            .collect();
        Walk {
            site,
            dialect,
            urls,
            names,
            access: HashMap::new(),
            robots: BTreeMap::new(),
            elsewhere: BTreeSet::new(),
            crawl_delay: BTreeMap::new(),
            fates: BTreeMap::new(),
            unfollowed: BTreeSet::new(),
            seen: HashSet::new(),
            queue: VecDeque::new(),
        }
    }

    fn expand(&self, text: &[u8]) -> String {
        let bytes = expand(&Bytes::copy_from_slice(text), |n| {
            self.urls.get(n).map(String::as_str)
        })
        .unwrap();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    fn key(&self, url: &Url) -> Option<Key> {
        let name = self.names.get(&url.port()?)?;
        let mut path = url.path().to_owned();
        if let Some(q) = url.query() {
            path = format!("{path}?{q}");
        }
        Some((name.clone(), path))
    }

    /// The first answer and, for a route that fails first, the last.
    fn answers(&self, (origin, path): &Key) -> Option<(Response, Response)> {
        let spec = self.site.origins().find(|o| o.name() == origin)?;
        match spec.routes.get(path) {
            Some(list) => Some((list[0].clone(), list.last().unwrap().clone())),
            None => spec.lookup(path).map(|r| (r.clone(), r)),
        }
    }

    fn access(&mut self, origin: &str) -> &Access {
        if !self.access.contains_key(origin) {
            let access = self.fetch_robots(origin);
            let times = match access {
                Access::Deferred => RobotsFetch::Retried,
                _ => RobotsFetch::Once,
            };
            self.robots.insert(origin.to_owned(), times);
            self.access.insert(origin.to_owned(), access);
        }
        &self.access[origin]
    }

    fn fetch_robots(&mut self, origin: &str) -> Access {
        let legacy = matches!(self.dialect, Dialect::Draft1996 | Dialect::Norobots1994);
        let mut key = (origin.to_owned(), "/robots.txt".to_owned());
        for hop in 0..=5 {
            if hop > 0 {
                self.elsewhere.insert(key.clone());
            }
            let Some((response, _)) = self.answers(&key) else {
                return Access::AllowAll;
            };
            if response.hangs() {
                return if legacy {
                    Access::Deferred
                } else {
                    Access::Blocked
                };
            }
            match response.status() {
                200..=299 => {
                    let body = self.expand(response.body());
                    let robots =
                        Robots::parse_with(body.as_bytes(), &ParseOptions::new(self.dialect));
                    if let Some(delay) = robots
                        .groups_for(AGENT)
                        .iter()
                        .find_map(|g| g.crawl_delay())
                    {
                        self.crawl_delay.insert(origin.to_owned(), delay);
                    }
                    return Access::Rules(Box::new(robots));
                }
                300..=399 => {
                    let base = Url::parse(&format!("{}{}", self.urls[&key.0], key.1)).unwrap();
                    let location = self.expand(response.header("location").unwrap().as_bytes());
                    key = self.key(&base.join(&location).unwrap()).unwrap();
                }
                401 | 403 if legacy => return Access::Blocked,
                400..=499 => return Access::AllowAll,
                _ => {
                    return if legacy {
                        Access::Deferred
                    } else {
                        Access::Blocked
                    }
                }
            }
        }
        Access::AllowAll
    }

    fn discover(&mut self, base: &Url, href: &str) {
        let Ok(mut url) = base.join(href) else { return };
        url.set_fragment(None);
        if self.key(&url).is_some() && self.seen.insert(url.clone()) {
            self.queue.push_back(url);
        }
    }

    fn run(mut self) -> Walk {
        let start = Url::parse(&format!("{}/index.html", self.urls["a"])).unwrap();
        self.seen.insert(start.clone());
        self.visit(&start, false);
        while let Some(url) = self.queue.pop_front() {
            self.visit(&url, true);
        }
        for key in std::mem::take(&mut self.unfollowed) {
            self.fates.entry(key).or_insert(Fate::NotLinked);
        }
        self
    }

    fn visit(&mut self, url: &Url, check: bool) {
        let key = self.key(url).unwrap();
        if check {
            let verdict = match self.access(&key.0) {
                Access::Rules(robots) => {
                    (!robots.is_allowed(AGENT, url.as_str())).then_some(Fate::Disallowed)
                }
                Access::AllowAll => None,
                Access::Blocked => Some(Fate::Blocked),
                Access::Deferred => Some(Fate::Deferred),
            };
            if let Some(fate) = verdict {
                self.fates.insert(key, fate);
                return;
            }
        }
        let Some((first, last)) = self.answers(&key) else {
            self.fates.insert(key, Fate::Missing);
            return;
        };
        let fate = match first.status() {
            429 | 503 if last.status() == 200 => Fate::Retried,
            300..=399 => {
                let location = self.expand(first.header("location").unwrap().as_bytes());
                self.discover(url, &location);
                Fate::Redirect
            }
            404 => Fate::Missing,
            _ if first.breaks_after().is_some() => Fate::Broken,
            _ => self.read(url, &last),
        };
        self.fates.insert(key, fate);
    }

    /// The fate of a page that arrived whole, and its links followed.
    fn read(&mut self, url: &Url, response: &Response) -> Fate {
        let body = self.expand(response.body());
        let html = match response.header("content-type") {
            Some(t) => t.starts_with("text/html"),
            None => sniffs_html(body.as_bytes()),
        };
        if !html {
            return Fate::Saved;
        }
        let headers: Vec<&str> = response
            .headers()
            .filter(|(n, _)| n.eq_ignore_ascii_case("x-robots-tag"))
            .map(|(_, v)| v)
            .collect();
        let page = PageDirectives::from_headers(headers, AGENT)
            .combine(PageDirectives::from_html(body.as_bytes(), AGENT));
        let (base, links) = links(&body);
        let base = match base {
            Some(b) => url.join(&b).unwrap(),
            None => url.clone(),
        };
        for (href, nofollow) in links {
            if page.follow && !nofollow {
                self.discover(&base, &href);
            } else if let Some(k) = base.join(&href).ok().and_then(|u| self.key(&u)) {
                self.unfollowed.insert(k);
            }
        }
        match (page.index, page.follow) {
            (true, true) => Fate::Saved,
            (false, true) => Fate::NoIndex,
            (true, false) => Fate::NoFollow,
            (false, false) => Fate::NoIndexNoFollow,
        }
    }
}

/// A page without Content-Type is HTML if it starts like HTML.
fn sniffs_html(body: &[u8]) -> bool {
    let start = String::from_utf8_lossy(&body[..body.len().min(64)]).to_ascii_lowercase();
    start.trim_start().starts_with("<!doctype html") || start.trim_start().starts_with("<html")
}

/// The `<base href>` and every link-bearing attribute of a page: `(href,
/// rel=nofollow)`. A small scanner is enough: the site's HTML is ours.
fn links(html: &str) -> (Option<String>, Vec<(String, bool)>) {
    let mut base = None;
    let mut out = Vec::new();
    let mut rest = html;
    while let Some(lt) = rest.find('<') {
        rest = &rest[lt + 1..];
        let end = rest.find('>').unwrap_or(rest.len());
        let tag = &rest[..end];
        let name: String = tag
            .chars()
            .take_while(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_lowercase();
        let attrs = attributes(&tag[name.len()..]);
        let get = |a: &str| attrs.iter().find(|(n, _)| n == a).map(|(_, v)| v.clone());
        let nofollow = get("rel").is_some_and(|r| r.split_whitespace().any(|t| t == "nofollow"));
        match name.as_str() {
            "base" => base = base.or(get("href")),
            "a" | "area" | "link" => out.extend(get("href").map(|h| (h, nofollow))),
            "img" | "source" | "script" | "iframe" | "frame" => {
                out.extend(get("src").map(|s| (s, false)));
                for candidate in get("srcset").iter().flat_map(|s| s.split(',')) {
                    if let Some(u) = candidate.split_whitespace().next() {
                        out.push((u.to_owned(), false));
                    }
                }
            }
            _ => {}
        }
        rest = &rest[end..];
    }
    (base, out)
}

fn attributes(mut tag: &str) -> Vec<(String, String)> {
    let mut out = Vec::new();
    loop {
        tag = tag.trim_start();
        let name_len = tag
            .find(|c: char| c == '=' || c.is_whitespace() || c == '/')
            .unwrap_or(tag.len());
        if name_len == 0 {
            return out;
        }
        let name = tag[..name_len].to_ascii_lowercase();
        tag = &tag[name_len..];
        let Some(value) = tag.strip_prefix('=') else {
            out.push((name, String::new()));
            continue;
        };
        let quote = value.chars().next().filter(|c| *c == '"' || *c == '\'');
        let (raw, after) = match quote {
            Some(q) => {
                let close = value[1..].find(q).map_or(value.len(), |i| i + 1);
                (&value[1..close], &value[(close + 1).min(value.len())..])
            }
            None => {
                let stop = value.find(char::is_whitespace).unwrap_or(value.len());
                (&value[..stop], &value[stop..])
            }
        };
        out.push((name, raw.replace("&amp;", "&")));
        tag = after;
    }
}

fn walk(dialect: &str) -> Walk {
    Walk::new(standard(), dialect.parse().unwrap()).run()
}

#[test]
fn the_scanner_reads_the_site_s_markup() {
    let (base, links) = links(
        r#"<base href="/b/"><a rel="nofollow" href="x?a=1&amp;b=2">x</a>
<img srcset="/s.png 1x, /l.png 2x" src=/f.png><link rel="stylesheet" href='/c.css'>"#,
    );
    assert_eq!(base.as_deref(), Some("/b/"));
    let want = [
        ("x?a=1&b=2", true),
        ("/f.png", false),
        ("/s.png", false),
        ("/l.png", false),
        ("/c.css", false),
    ];
    let got: Vec<(&str, bool)> = links.iter().map(|(h, n)| (h.as_str(), *n)).collect();
    assert_eq!(got, want);
}

#[test]
fn the_walk_agrees_with_the_table() {
    for dialect in ["rfc9309", "google", "draft1996", "norobots1994"] {
        let walk = walk(dialect);
        let want = standard_expect(dialect);
        for (key, fate) in &want.urls {
            match walk.fates.get(key) {
                Some(found) => assert_eq!(found, fate, "{dialect}: {key:?}"),
                None => assert!(
                    matches!(fate, Fate::NotLinked | Fate::SitemapOnly),
                    "{dialect}: the walk never reached {key:?}, expected {fate:?}"
                ),
            }
        }
        for (key, fate) in &walk.fates {
            assert!(
                want.urls.contains_key(key),
                "{dialect}: {key:?} ({fate:?}) is not in the table"
            );
        }
        for (origin, times) in &want.robots {
            let found = walk
                .robots
                .get(origin)
                .copied()
                .unwrap_or(RobotsFetch::Never);
            assert_eq!(found, *times, "{dialect}: robots.txt of {origin}");
        }
        assert_eq!(walk.elsewhere, want.robots_elsewhere, "{dialect}");
        assert_eq!(walk.crawl_delay, want.crawl_delay, "{dialect}");
    }
}

#[test]
fn sitemap_entries_are_judged_by_robots_txt() {
    // The walk does not read sitemaps; check the fates --sitemaps gives
    // against a's rules directly.
    let walk = walk("rfc9309");
    let Access::Rules(robots) = &walk.access["a"] else {
        panic!("a has rules")
    };
    let want = standard_expect("rfc9309");
    for ((origin, path), fate) in &want.sitemaps {
        assert_eq!(origin, "a");
        let url = format!("{}{path}", walk.urls["a"]);
        assert_eq!(
            robots.is_allowed(AGENT, &url),
            *fate != Fate::Disallowed,
            "{path}"
        );
    }
    let sitemaps: Vec<String> = robots.sitemaps().map(|s| s.value().into_owned()).collect();
    assert_eq!(
        sitemaps,
        [
            format!("{}/sitemap.xml", walk.urls["a"]),
            format!("{}/sitemap-index.xml", walk.urls["a"])
        ]
    );
}
