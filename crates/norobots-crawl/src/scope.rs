//! Which URLs the crawl asks for, by wget's options: depth (`-l`), hosts
//! (`-H`, `-D`), `--no-parent`, and names and patterns (`-A`, `-R`,
//! `--accept-regex`, `--reject-regex`). Pure: a URL and its depth in, a
//! verdict out.

use regex::Regex;
use url::Url;

/// What the scope says of a URL.
///
/// ```
/// use norobots_crawl::scope::{Scope, ScopeOptions, Verdict};
/// use url::Url;
///
/// let start = Url::parse("http://a.test/docs/").unwrap();
/// let scope = Scope::new(&ScopeOptions { no_parent: true, ..ScopeOptions::default() }, [&start]).unwrap();
/// assert_eq!(scope.check(&Url::parse("http://a.test/docs/x.html").unwrap(), 1), Verdict::Fetch);
/// assert!(matches!(scope.check(&Url::parse("http://a.test/other").unwrap(), 1), Verdict::Out(_)));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Fetch it, follow its links, save it.
    Fetch,
    /// Fetch it and follow its links, but do not save it: an HTML page
    /// that `-A`/`-R` reject, fetched for its links as wget does.
    FetchForLinks(String),
    /// Leave it: the string names the option that said so.
    Out(String),
}

/// The scope options, as the command line gives them.
///
/// ```
/// let opts = norobots_crawl::scope::ScopeOptions::default();
/// assert_eq!(opts.level, Some(5));
/// ```
#[derive(Clone, Debug)]
pub struct ScopeOptions {
    /// `-l`: the deepest level followed (the start URLs are level 0);
    /// `None` for no limit.
    pub level: Option<u32>,
    /// `-np`: only below each start URL's directory, on its host.
    pub no_parent: bool,
    /// `-H`: go to hosts other than the start URLs'.
    pub span_hosts: bool,
    /// `-D`: with `-H`, only these domains (and their subdomains).
    pub domains: Vec<String>,
    /// `-A`: only file names with these suffixes or matching these globs.
    pub accept: Vec<String>,
    /// `-R`: not file names with these suffixes or matching these globs.
    pub reject: Vec<String>,
    /// `--accept-regex`: only URLs this matches.
    pub accept_regex: Option<String>,
    /// `--reject-regex`: not URLs this matches.
    pub reject_regex: Option<String>,
}

impl Default for ScopeOptions {
    fn default() -> ScopeOptions {
        ScopeOptions {
            level: Some(5),
            no_parent: false,
            span_hosts: false,
            domains: Vec::new(),
            accept: Vec::new(),
            reject: Vec::new(),
            accept_regex: None,
            reject_regex: None,
        }
    }
}

/// A `-A`/`-R` entry: wget reads one with a wildcard (`*`, `?`, `[`) as a
/// glob on the file name, any other as a suffix of it.
#[derive(Clone, Debug)]
enum NamePattern {
    Suffix(String),
    Glob(glob::Pattern),
}

impl NamePattern {
    fn new(text: &str) -> Result<NamePattern, String> {
        if text.contains(['*', '?', '[']) {
            glob::Pattern::new(text)
                .map(NamePattern::Glob)
                .map_err(|e| format!("`{text}` is not a valid pattern: {e}"))
        } else {
            Ok(NamePattern::Suffix(text.to_owned()))
        }
    }

    fn matches(&self, name: &str) -> bool {
        match self {
            NamePattern::Suffix(s) => name.ends_with(s.as_str()),
            NamePattern::Glob(g) => g.matches(name),
        }
    }
}

/// The scope of one crawl, built from its options and its start URLs.
#[derive(Clone, Debug)]
pub struct Scope {
    level: Option<u32>,
    span_hosts: bool,
    domains: Vec<String>,
    /// The start URLs' hosts (without port: wget stays on a host name).
    hosts: Vec<String>,
    /// With `-np`: (origin, directory) of each start URL.
    parents: Vec<(String, String)>,
    accept: Vec<NamePattern>,
    reject: Vec<NamePattern>,
    accept_regex: Option<Regex>,
    reject_regex: Option<Regex>,
}

impl Scope {
    /// The scope of a crawl from `starts`; an error names a bad pattern.
    ///
    /// ```
    /// use norobots_crawl::scope::{Scope, ScopeOptions};
    ///
    /// let bad = ScopeOptions { accept_regex: Some("(".into()), ..ScopeOptions::default() };
    /// assert!(Scope::new(&bad, []).unwrap_err().starts_with("--accept-regex"));
    /// ```
    pub fn new<'u>(
        options: &ScopeOptions,
        starts: impl IntoIterator<Item = &'u Url>,
    ) -> Result<Scope, String> {
        let regex = |flag: &str, r: &Option<String>| {
            r.as_deref()
                .map(|r| Regex::new(r).map_err(|e| format!("{flag} `{r}`: {e}")))
                .transpose()
        };
        let patterns = |list: &[String]| {
            list.iter()
                .flat_map(|l| l.split(','))
                .filter(|p| !p.is_empty())
                .map(NamePattern::new)
                .collect::<Result<Vec<_>, _>>()
        };
        let mut scope = Scope {
            level: options.level,
            span_hosts: options.span_hosts,
            domains: options
                .domains
                .iter()
                .flat_map(|d| d.split(','))
                .map(|d| d.trim().trim_start_matches('.').to_ascii_lowercase())
                .filter(|d| !d.is_empty())
                .collect(),
            hosts: Vec::new(),
            parents: Vec::new(),
            accept: patterns(&options.accept).map_err(|e| format!("--accept: {e}"))?,
            reject: patterns(&options.reject).map_err(|e| format!("--reject: {e}"))?,
            accept_regex: regex("--accept-regex", &options.accept_regex)?,
            reject_regex: regex("--reject-regex", &options.reject_regex)?,
        };
        for start in starts {
            scope.add_start(start, options.no_parent);
        }
        Ok(scope)
    }

    /// Adds a start URL: its host is in scope, and with `-np` so is what
    /// is below its directory.
    pub fn add_start(&mut self, start: &Url, no_parent: bool) {
        if let Some(host) = start.host_str() {
            if !self.hosts.iter().any(|h| h == host) {
                self.hosts.push(host.to_owned());
            }
        }
        if no_parent {
            let path = start.path();
            let dir = &path[..path.rfind('/').map_or(0, |i| i + 1)];
            self.parents
                .push((start.origin().ascii_serialization(), dir.to_owned()));
        }
    }

    /// What the scope says of `url`, found at `depth` (a start URL is at
    /// 0). Start URLs themselves are not checked: the user named them.
    pub fn check(&self, url: &Url, depth: u32) -> Verdict {
        if let Some(level) = self.level {
            if depth > level {
                return Verdict::Out(format!("-l {level}: depth {depth}"));
            }
        }
        let host = url.host_str().unwrap_or("");
        if !self.hosts.iter().any(|h| h == host) {
            if !self.span_hosts {
                return Verdict::Out(format!("host {host}: another host, and no -H"));
            }
            if !self.domains.is_empty() && !self.domains.iter().any(|d| in_domain(host, d)) {
                return Verdict::Out(format!("-D: host {host} is in none of the domains"));
            }
        }
        if !self.parents.is_empty() {
            let origin = url.origin().ascii_serialization();
            let mut same_origin = self.parents.iter().filter(|(o, _)| *o == origin).peekable();
            if same_origin.peek().is_some()
                && !same_origin.any(|(_, dir)| url.path().starts_with(dir.as_str()))
            {
                return Verdict::Out("--no-parent: above the start directory".into());
            }
        }
        if let Some(r) = &self.reject_regex {
            if r.is_match(url.as_str()) {
                return Verdict::Out(format!("--reject-regex {}", r.as_str()));
            }
        }
        if let Some(r) = &self.accept_regex {
            if !r.is_match(url.as_str()) {
                return Verdict::Out(format!("--accept-regex {}: no match", r.as_str()));
            }
        }
        let name = file_name(url);
        let refused = if let Some(p) = self.reject.iter().find(|p| p.matches(&name)) {
            Some(format!("--reject {}", pattern_text(p)))
        } else if !self.accept.is_empty() && !self.accept.iter().any(|p| p.matches(&name)) {
            Some("--accept: the name matches none".to_owned())
        } else {
            None
        };
        match refused {
            None => Verdict::Fetch,
            // wget: "these two options do not affect the downloading of
            // HTML files"; they are fetched for their links, then removed.
            Some(why) if looks_like_html_by_name(&name) => Verdict::FetchForLinks(why),
            Some(why) => Verdict::Out(why),
        }
    }
}

fn pattern_text(p: &NamePattern) -> &str {
    match p {
        NamePattern::Suffix(s) => s,
        NamePattern::Glob(g) => g.as_str(),
    }
}

/// The last segment of the path, decoded as far as it is UTF-8: what wget
/// matches `-A`/`-R` against.
fn file_name(url: &Url) -> String {
    let last = url.path().rsplit('/').next().unwrap_or("");
    percent_encoding::percent_decode_str(last)
        .decode_utf8_lossy()
        .into_owned()
}

fn looks_like_html_by_name(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    name.is_empty() || lower.ends_with(".html") || lower.ends_with(".htm")
}

fn in_domain(host: &str, domain: &str) -> bool {
    let host = host.to_ascii_lowercase();
    host == domain || host.ends_with(&format!(".{domain}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn url(s: &str) -> Url {
        Url::parse(s).unwrap()
    }

    fn scope(opts: ScopeOptions, starts: &[&str]) -> Scope {
        let starts: Vec<Url> = starts.iter().map(|s| url(s)).collect();
        Scope::new(&opts, &starts).unwrap()
    }

    #[test]
    fn depth_is_limited_by_level_and_unlimited_without() {
        let s = scope(ScopeOptions::default(), &["http://a.test/"]);
        assert_eq!(s.check(&url("http://a.test/x"), 5), Verdict::Fetch);
        assert_eq!(
            s.check(&url("http://a.test/x"), 6),
            Verdict::Out("-l 5: depth 6".into())
        );
        let s = scope(
            ScopeOptions {
                level: None,
                ..Default::default()
            },
            &["http://a.test/"],
        );
        assert_eq!(s.check(&url("http://a.test/x"), 1000), Verdict::Fetch);
    }

    // wget stays on the start URL's host name; its other ports are that
    // host too.
    #[test]
    fn other_hosts_need_span_hosts_and_match_domains() {
        let s = scope(ScopeOptions::default(), &["http://a.test/"]);
        assert_eq!(s.check(&url("http://a.test:8080/x"), 1), Verdict::Fetch);
        assert!(matches!(
            s.check(&url("http://b.test/x"), 1),
            Verdict::Out(_)
        ));
        let s = scope(
            ScopeOptions {
                span_hosts: true,
                domains: vec!["example.org,.b.test".into()],
                ..Default::default()
            },
            &["http://a.test/"],
        );
        assert_eq!(s.check(&url("http://www.b.test/x"), 1), Verdict::Fetch);
        assert_eq!(s.check(&url("http://b.test/x"), 1), Verdict::Fetch);
        assert!(matches!(
            s.check(&url("http://notb.test/x"), 1),
            Verdict::Out(_)
        ));
        let s = scope(
            ScopeOptions {
                span_hosts: true,
                ..Default::default()
            },
            &["http://a.test/"],
        );
        assert_eq!(s.check(&url("http://c.test/"), 1), Verdict::Fetch);
    }

    #[test]
    fn no_parent_keeps_below_the_start_directory_of_that_origin() {
        let s = scope(
            ScopeOptions {
                no_parent: true,
                span_hosts: true,
                ..Default::default()
            },
            &["http://a.test/docs/guide/index.html"],
        );
        assert_eq!(
            s.check(&url("http://a.test/docs/guide/p2.html"), 1),
            Verdict::Fetch
        );
        assert!(matches!(
            s.check(&url("http://a.test/docs/"), 1),
            Verdict::Out(_)
        ));
        assert!(matches!(
            s.check(&url("http://a.test/docs/guidebook"), 1),
            Verdict::Out(_)
        ));
        // Another origin has no start directory to stay under.
        assert_eq!(s.check(&url("http://b.test/x"), 1), Verdict::Fetch);
    }

    #[test]
    fn accept_and_reject_by_suffix_or_glob_spare_html_pages() {
        let s = scope(
            ScopeOptions {
                reject: vec!["*.png,.zip".into()],
                ..Default::default()
            },
            &["http://a.test/"],
        );
        assert_eq!(
            s.check(&url("http://a.test/i/a.png"), 1),
            Verdict::Out("--reject *.png".into())
        );
        assert_eq!(
            s.check(&url("http://a.test/f.zip"), 1),
            Verdict::Out("--reject .zip".into())
        );
        assert_eq!(s.check(&url("http://a.test/f.zip.txt"), 1), Verdict::Fetch);
        let s = scope(
            ScopeOptions {
                accept: vec!["pdf".into()],
                ..Default::default()
            },
            &["http://a.test/"],
        );
        assert_eq!(s.check(&url("http://a.test/doc.pdf"), 1), Verdict::Fetch);
        assert!(matches!(
            s.check(&url("http://a.test/pages/"), 1),
            Verdict::FetchForLinks(_)
        ));
        assert!(matches!(
            s.check(&url("http://a.test/p.HTML"), 1),
            Verdict::FetchForLinks(_)
        ));
        assert!(matches!(
            s.check(&url("http://a.test/img.png"), 1),
            Verdict::Out(_)
        ));
    }

    #[test]
    fn regexes_see_the_whole_url_and_bad_ones_are_named() {
        let s = scope(
            ScopeOptions {
                accept_regex: Some("/keep/".into()),
                reject_regex: Some(r"\?sort=".into()),
                ..Default::default()
            },
            &["http://a.test/"],
        );
        assert_eq!(s.check(&url("http://a.test/keep/x"), 1), Verdict::Fetch);
        assert!(matches!(
            s.check(&url("http://a.test/keep/x?sort=1"), 1),
            Verdict::Out(_)
        ));
        assert!(matches!(
            s.check(&url("http://a.test/other"), 1),
            Verdict::Out(_)
        ));
        let bad = ScopeOptions {
            reject: vec!["[".into()],
            ..Default::default()
        };
        assert!(Scope::new(&bad, [])
            .unwrap_err()
            .starts_with("--reject: `[`"));
    }
}
