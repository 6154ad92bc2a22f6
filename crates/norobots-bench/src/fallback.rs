//! A tiny built-in corpus, used when the shared real-world corpus is not on
//! this machine (a fresh clone without `shared/`, or a CI job that skips it).
//!
//! It only keeps the benchmarks runnable and the adapters exercised: numbers
//! from it say little about real-world performance, and the bench says so
//! when it falls back.

/// `(name, body, urls)` for each built-in file. The bodies cover the shapes
/// that matter to the engines: a plain `*` group, a group for our agent next
/// to `*`, wildcards and `$` anchors, an empty file, CRLF line ends, a BOM
/// and junk lines a tolerant parser must skip.
pub(crate) const FILES: &[(&str, &str, &[&str])] = &[
    (
        "plain.example",
        "User-agent: *\nDisallow: /private/\nDisallow: /tmp/\nAllow: /private/press/\n",
        &[
            "https://plain.example/",
            "https://plain.example/private/",
            "https://plain.example/private/press/kit.pdf",
            "https://plain.example/tmp/x?y=1",
            "https://plain.example/public/page.html",
            "https://plain.example/robots.txt",
        ],
    ),
    (
        "googlebot-group.example",
        "# Our agent has its own group, so the `*` group must be ignored for it.\n\
         User-agent: *\n\
         Disallow: /\n\
         \n\
         User-agent: Googlebot\n\
         User-agent: Bingbot\n\
         Disallow: /search\n\
         Disallow: /cart\n\
         Allow: /search/about\n\
         Crawl-delay: 2\n\
         \n\
         Sitemap: https://googlebot-group.example/sitemap.xml\n",
        &[
            "https://googlebot-group.example/",
            "https://googlebot-group.example/search?q=robots",
            "https://googlebot-group.example/search/about",
            "https://googlebot-group.example/cart/checkout",
            "https://googlebot-group.example/blog/2024/05/story",
        ],
    ),
    (
        "wildcards.example",
        "User-agent: *\n\
         Disallow: /*.pdf$\n\
         Disallow: /*?sessionid=\n\
         Disallow: /wp-admin/\n\
         Allow: /wp-admin/admin-ajax.php\n\
         Disallow: /*/print/\n\
         Allow: /docs/*.pdf$\n",
        &[
            "https://wildcards.example/report.pdf",
            "https://wildcards.example/report.pdf?download=1",
            "https://wildcards.example/docs/manual.pdf",
            "https://wildcards.example/page?sessionid=abc",
            "https://wildcards.example/wp-admin/options.php",
            "https://wildcards.example/wp-admin/admin-ajax.php",
            "https://wildcards.example/news/print/42",
            "https://wildcards.example/news/42#comments",
        ],
    ),
    ("empty.example", "", &["https://empty.example/", "https://empty.example/anything"]),
    (
        "crlf-bom.example",
        "\u{feff}User-Agent: *\r\nDisallow: /cgi-bin/\r\nDisalow: /typo/\r\nthis line is junk\r\nDisallow: /%7Euser/\r\n",
        &[
            "https://crlf-bom.example/cgi-bin/test.cgi",
            "https://crlf-bom.example/typo/page",
            "https://crlf-bom.example/~user/",
            "https://crlf-bom.example/%7Euser/",
            "https://crlf-bom.example/index.html",
        ],
    ),
];
