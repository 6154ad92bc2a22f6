//! What a correct robot does with each URL of a scenario, as data a test
//! can assert against the request log.

use std::collections::{BTreeMap, BTreeSet};
use std::time::Duration;

/// An origin's name and a path and query, as the log records them.
pub type Key = (String, String);

/// The fate of one URL under a correct robot.
///
/// ```
/// use norobots_testsite::scenario::Fate;
///
/// assert!(Fate::NoIndex.is_requested() && !Fate::NoIndex.is_saved());
/// assert!(!Fate::Disallowed.is_requested());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fate {
    /// Requested once, saved, links followed.
    Saved,
    /// Requested once, not saved (META robots or `X-Robots-Tag`
    /// `noindex`); links followed.
    NoIndex,
    /// Requested once and saved; links not followed (`nofollow`).
    NoFollow,
    /// Requested once; neither saved nor followed (`none`).
    NoIndexNoFollow,
    /// Requested once; answers 3xx, and the target has its own entry.
    Redirect,
    /// Requested once; answers 404; nothing saved.
    Missing,
    /// Answers 503 or 429 with `Retry-After: 1` the first time: requested
    /// exactly twice, at least a second apart; saved.
    Retried,
    /// The connection breaks mid-body: requested at least once (a robot
    /// may retry), never saved.
    Broken,
    /// Never requested: the origin's robots.txt disallows it for
    /// `norobots`.
    Disallowed,
    /// Never requested: how the origin's robots.txt fetch ended closes the
    /// whole origin (rfc9309: 5xx or timeout; draft1996: 401 or 403).
    Blocked,
    /// Never requested: the robots.txt fetch failed for now (draft1996:
    /// 5xx or timeout); the robot reports the URL as deferred.
    Deferred,
    /// Never requested: no link a robot should follow leads to it (only
    /// linked under `nofollow`, `rel="nofollow"`, inside a binary file,
    /// against the wrong base, from pages never fetched, or not at all).
    NotLinked,
    /// Never requested unless sitemaps are read (`--sitemaps`); see
    /// [`Expectations::with_sitemaps`].
    SitemapOnly,
}

impl Fate {
    /// Whether a correct robot requests the URL at all.
    ///
    /// ```
    /// use norobots_testsite::scenario::Fate;
    /// assert!(Fate::Broken.is_requested());
    /// assert!(!Fate::SitemapOnly.is_requested());
    /// ```
    pub fn is_requested(self) -> bool {
        use Fate::*;
        matches!(
            self,
            Saved | NoIndex | NoFollow | NoIndexNoFollow | Redirect | Missing | Retried | Broken
        )
    }

    /// Whether a mirror keeps what the robot got.
    ///
    /// ```
    /// use norobots_testsite::scenario::Fate;
    /// assert!(Fate::NoFollow.is_saved() && Fate::Retried.is_saved());
    /// assert!(!Fate::Missing.is_saved() && !Fate::Redirect.is_saved());
    /// ```
    pub fn is_saved(self) -> bool {
        matches!(self, Fate::Saved | Fate::NoFollow | Fate::Retried)
    }
}

/// How often a correct robot requests an origin's `/robots.txt`.
///
/// ```
/// use norobots_testsite::scenario::RobotsFetch;
/// assert_ne!(RobotsFetch::Once, RobotsFetch::Never);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum RobotsFetch {
    /// Exactly once: robots.txt is cached for the robot's lifetime.
    Once,
    /// At least once, and again as the robot retries a temporary failure.
    Retried,
    /// Never: the robot found nothing worth fetching on the origin.
    Never,
}

/// What a correct robot does on a scenario's site, URL by URL.
///
/// ```
/// use norobots_testsite::scenario::{standard_expect, Fate, RobotsFetch};
///
/// let rfc = standard_expect("rfc9309");
/// assert_eq!(rfc.fate("a", "/private/open.html"), Some(Fate::Saved));
/// assert_eq!(rfc.robots["h"], RobotsFetch::Never);
/// let draft = standard_expect("draft1996");
/// assert_eq!(draft.fate("a", "/private/open.html"), Some(Fate::Disallowed));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Expectations {
    /// The dialect these are for.
    pub dialect: String,
    /// The URL the robot is started on (fetched without a robots.txt
    /// check, as wget does).
    pub start: Key,
    /// Every URL of the site with its fate. Requested URLs not in here
    /// are mistakes too.
    pub urls: BTreeMap<Key, Fate>,
    /// How often each origin's `/robots.txt` is requested.
    pub robots: BTreeMap<String, RobotsFetch>,
    /// Files requested once as part of another origin's robots.txt fetch
    /// (a redirect target), not as pages: never saved, never checked
    /// against robots.txt.
    pub robots_elsewhere: BTreeSet<Key>,
    /// The least time between two requests to an origin that its
    /// robots.txt asks for (`Crawl-delay`); a robot's own `--wait` may be
    /// longer.
    pub crawl_delay: BTreeMap<String, Duration>,
    /// The fates that change when the robot reads sitemaps.
    pub sitemaps: BTreeMap<Key, Fate>,
}

impl Expectations {
    /// The fate of `path` on `origin`, if the scenario has that URL.
    ///
    /// ```
    /// let e = norobots_testsite::scenario::standard_expect("rfc9309");
    /// assert!(e.fate("a", "/index.html").unwrap().is_requested());
    /// assert_eq!(e.fate("a", "/not-a-page"), None);
    /// ```
    pub fn fate(&self, origin: &str, path: &str) -> Option<Fate> {
        self.urls
            .get(&(origin.to_owned(), path.to_owned()))
            .copied()
    }

    /// The URLs with this fate.
    ///
    /// ```
    /// use norobots_testsite::scenario::{standard_expect, Fate};
    ///
    /// let retried = standard_expect("rfc9309").having(Fate::Retried);
    /// assert!(retried.contains(&("a".to_owned(), "/retry/503.html".to_owned())));
    /// ```
    pub fn having(&self, fate: Fate) -> BTreeSet<Key> {
        self.keys(|f| f == fate)
    }

    /// The URLs a correct robot requests (robots.txt files aside).
    ///
    /// ```
    /// let e = norobots_testsite::scenario::standard_expect("rfc9309");
    /// assert!(e.fetched().contains(&e.start));
    /// ```
    pub fn fetched(&self) -> BTreeSet<Key> {
        self.keys(Fate::is_requested)
    }

    /// The URLs a correct robot never requests.
    ///
    /// ```
    /// let e = norobots_testsite::scenario::standard_expect("rfc9309");
    /// assert!(e.never().contains(&("a".to_owned(), "/private/secret.html".to_owned())));
    /// assert!(e.never().is_disjoint(&e.fetched()));
    /// ```
    pub fn never(&self) -> BTreeSet<Key> {
        self.keys(|f| !f.is_requested())
    }

    /// The URLs a mirror keeps.
    ///
    /// ```
    /// let e = norobots_testsite::scenario::standard_expect("rfc9309");
    /// assert!(!e.saved().contains(&("a".to_owned(), "/meta/noindex.html".to_owned())));
    /// ```
    pub fn saved(&self) -> BTreeSet<Key> {
        self.keys(Fate::is_saved)
    }

    /// The expectations for a robot that reads the sitemaps named in
    /// robots.txt: the [`Fate::SitemapOnly`] URLs become requested (the
    /// sitemap files and the pages only they list), and disallowed URLs
    /// they list become [`Fate::Disallowed`].
    ///
    /// ```
    /// use norobots_testsite::scenario::{standard_expect, Fate};
    ///
    /// let plain = standard_expect("rfc9309");
    /// let with = plain.clone().with_sitemaps();
    /// assert_eq!(plain.fate("a", "/only-in-sitemap.html"), Some(Fate::SitemapOnly));
    /// assert_eq!(with.fate("a", "/only-in-sitemap.html"), Some(Fate::Saved));
    /// assert!(with.having(Fate::SitemapOnly).is_empty());
    /// ```
    pub fn with_sitemaps(mut self) -> Expectations {
        for (key, fate) in std::mem::take(&mut self.sitemaps) {
            self.urls.insert(key, fate);
        }
        self
    }

    fn keys(&self, keep: impl Fn(Fate) -> bool) -> BTreeSet<Key> {
        self.urls
            .iter()
            .filter(|(_, f)| keep(**f))
            .map(|(k, _)| k.clone())
            .collect()
    }
}
