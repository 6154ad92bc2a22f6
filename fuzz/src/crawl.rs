//! The robot's readers of strangers' bytes: sitemaps, the names a URL is
//! saved under, and a page's links as the crawl resolves them.

use std::path::Component;

use norobots::meta::{Links, PageDirectives};
use norobots_crawl::mirror::{Layout, MAX_PATH, NAME_MAX};
use norobots_crawl::normalize::resolve;
use norobots_crawl::sitemap::{self, MAX_URLS};
use url::Url;

/// A sitemap body: never a panic, never more than the cap, only http(s)
/// URLs.
pub fn sitemap(data: &[u8]) {
    let base = Url::parse("https://example.com/sitemap.xml").expect("a base");
    let map = sitemap::parse(data, &base);
    assert!(map.urls.len() <= MAX_URLS);
    for url in &map.urls {
        assert!(matches!(url.scheme(), "http" | "https"), "{url}");
    }
}

/// A URL from the input's text: where the mirror saves it is a relative
/// path of plain names, none `.`, `..` or empty, none with NUL or over
/// `NAME_MAX`, in every layout.
pub fn mirror_path(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let Ok(url) = Url::parse(&format!("http://h.example/{text}")) else {
        return;
    };
    for layout in [
        Layout::new(),
        Layout::new().host_directories(false),
        Layout::new().directories(false),
    ] {
        let path = layout.relative_path(&url);
        assert!(path.as_os_str().len() <= MAX_PATH + NAME_MAX, "{path:?}");
        for c in path.components() {
            let Component::Normal(name) = c else {
                panic!("{url}: {c:?} in {path:?}");
            };
            let name = name.as_encoded_bytes();
            assert!(!name.is_empty() && name.len() <= NAME_MAX, "{path:?}");
            assert!(!name.contains(&0) && name != b"." && name != b"..", "{path:?}");
        }
    }
}

/// A page: its links, read as the robot reads them (every kind, against
/// its base), resolve to http(s) URLs without fragments.
pub fn links(data: &[u8]) {
    let page = PageDirectives::read_html(data, "norobots", Links::All).expect("reading a slice");
    let url = Url::parse("http://h.example/dir/page.html").expect("a URL");
    let base = page
        .base
        .as_deref()
        .and_then(|b| url.join(b).ok())
        .unwrap_or_else(|| url.clone());
    for link in &page.links {
        if let Some(target) = resolve(&base, &link.href) {
            assert!(matches!(target.scheme(), "http" | "https"));
            assert!(target.fragment().is_none());
            assert_eq!(resolve(&target, target.as_str()).as_ref(), Some(&target), "normalising twice");
        }
    }
    assert_eq!(page, PageDirectives::read_html(data, "norobots", Links::All).expect("again"));
}
