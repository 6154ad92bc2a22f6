//! The standard site: ten origins that between them hold every case the
//! robot must get right. What a correct robot does with each URL is in
//! `standard_expect.rs`; the table is on [`standard`].

use std::time::Duration;

use crate::{OriginSpec, Response, Site};

/// A 1×1 PNG, so an image link leads to a real image.
const PNG: &[u8] = &[
    0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52,
    0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x08, 0x02, 0x00, 0x00, 0x00, 0x90, 0x77, 0x53,
    0xde, 0x00, 0x00, 0x00, 0x0c, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9c, 0x63, 0xf8, 0xcf, 0xc0, 0x00,
    0x00, 0x03, 0x01, 0x01, 0x00, 0xc9, 0xfe, 0x92, 0xef, 0x00, 0x00, 0x00, 0x00, 0x49, 0x45, 0x4e,
    0x44, 0xae, 0x42, 0x60, 0x82,
];

/// How many small pages `m:/many.html` links to.
pub const MANY: usize = 5_000;

/// The file name (without the slash) of the page whose name is 300
/// characters long, more than most file systems allow in one component.
pub fn long_name() -> String {
    format!("{}.html", "n".repeat(295))
}

/// An HTML page with a title and this body.
fn page(title: &str, body: &str) -> Response {
    Response::html(format!(
        "<!doctype html>\n<html><head><title>{title}</title></head>\n<body>\n<h1>{title}</h1>\n{body}\n</body></html>\n"
    ))
}

/// An HTML page with a `<head>` extra (META tags, `<base>`).
fn page_with_head(title: &str, head: &str, body: &str) -> Response {
    Response::html(format!(
        "<!doctype html>\n<html><head><title>{title}</title>\n{head}\n</head>\n<body>\n<h1>{title}</h1>\n{body}\n</body></html>\n"
    ))
}

/// A page without links: the end of a path.
fn leaf(title: &str) -> Response {
    page(title, "<p>Nothing to follow here.</p>")
}

const ROBOTS_A: &str = "\
# Origin a of the norobots test site.
# otherbot is shut out; a robot that reads this group as its own fetches nothing.
User-agent: otherbot
Disallow: /

# norobots' own group. rfc9309: the longest match wins, so
# /private/open.html is allowed; draft1996: the first match wins, so it is
# not. The wildcard line is literal text in draft1996 (so /doc.pdf is allowed there).
User-agent: norobots
Disallow: /private/
Allow: /private/open.html
Disallow: /*.pdf$
Disallow: /search?
Crawl-delay: 0.2

# Everyone else. A robot that uses this group instead of its own never
# fetches /star-only/ and does fetch /private/.
User-agent: *
Disallow: /star-only/

Sitemap: {origin:a}/sitemap.xml
Sitemap: {origin:a}/sitemap-index.xml
";

const INDEX_A: &str = r##"<p>The start page. Each link below tests one thing.</p>
<h2>robots.txt</h2>
<ul>
<li><a href="/allowed.html">an allowed page</a>
<li><a href="/private/secret.html">disallowed by Disallow: /private/</a>
<li><a href="/private/open.html">allowed by the longer Allow (rfc9309 only)</a>
<li><a href="/doc.pdf">disallowed by /*.pdf$ (rfc9309 only)</a>
<li><a href="/doc.pdf?download=1">not matched by /*.pdf$: the $ anchors</a>
<li><a href="/search?q=1">disallowed by /search?</a>
<li><a href="/search">not matched by /search?</a>
<li><a href="/star-only/page.html">disallowed for * only, not for norobots</a>
</ul>
<h2>META robots and X-Robots-Tag</h2>
<ul>
<li><a href="/meta/noindex.html">meta noindex</a>
<li><a href="/meta/nofollow.html">meta nofollow</a>
<li><a href="/meta/none.html">meta none</a>
<li><a href="/meta/otherbot.html">meta for otherbot</a>
<li><a href="/meta/norobots.html">meta for norobots</a>
<li><a href="/xrt/noindex.html">X-Robots-Tag: noindex</a>
<li><a href="/xrt/otherbot.html">X-Robots-Tag: otherbot: nofollow</a>
<li><a href="/xrt/norobots.html">X-Robots-Tag: norobots: nofollow</a>
<li><a href="/relnofollow.html">a rel=nofollow link</a>
</ul>
<h2>Redirects, cycles, errors</h2>
<ul>
<li><a href="/go/in">a redirect in scope</a>
<li><a href="/go/other">a redirect to origin b</a>
<li><a href="/go/private">a redirect to a disallowed page</a>
<li><a href="/go/loop-1">a redirect loop</a>
<li><a href="/cycle/1.html#top">a cycle of three pages</a>
<li><a href="/missing.html">a 404</a>
<li><a href="/slow.html">a slow page</a>
<li><a href="/retry/503.html">503, then 200</a>
<li><a href="/retry/429.html">429, then 200</a>
<li><a href="/broken.html">a connection broken mid-body</a>
</ul>
<h2>Content</h2>
<ul>
<li><a href="/files/image.png">an image</a>
<li><a href="/files/data.bin">a binary file with a link inside</a>
<li><a href="/no-type">a page without Content-Type</a>
<li><a href="/base/page.html">a page with a base href</a>
<li><a href="/embeds.html">embedded resources</a>
<li><a href="/frames.html">frames</a>
<li><a href="/frag.html#one">fragments</a> <a href="/frag.html#two">twice</a> <a href="#local">and a local one</a>
<li><a href="/danger.html">file names that are hard to mirror</a>
</ul>
<h2>Elsewhere</h2>
<ul>
<li><a href="{origin:b}/landing.html">origin b</a>
<li><a href="{origin:m}/many.html">5,000 links</a>
</ul>
<p id="local">The end.</p>"##;

const EMBEDS: &str = r##"<p>Every way a page pulls in another resource.</p>
<img src="/embed/img.png" alt="img">
<img srcset="/embed/small.png 1x, /embed/large.png 2x" src="/embed/fallback.png" alt="srcset">
<picture><source srcset="/embed/pic.webp" type="image/webp"><img src="/embed/pic.png" alt="picture"></picture>
<video controls><source src="/embed/clip.webm" type="video/webm"></video>
<script src="/embed/app.js"></script>
<iframe src="/embed/iframe.html" title="iframe"></iframe>
<img src="/files/image.png" usemap="#map" alt="map">
<map name="map"><area shape="rect" coords="0,0,1,1" href="/embed/area.html" alt="area"></map>"##;

const DANGER: &str = r#"<p>Paths that a careless mirror writes outside its directory, or cannot write.</p>
<ul>
<li><a href="/..%2F..%2Fescape.html">encoded slashes</a>
<li><a href="/%2e%2e/%2e%2e/escape2.html">encoded dot segments (a URL parser removes them)</a>
<li><a href="/nul%00byte.html">an encoded NUL</a>
<li><a href="/with%20space.html">an encoded space</a>
<li><a href="/LONG">a 300-character name</a>
<li><a href="/dir/">a directory</a>
<li><a href="/q?x=1&amp;y=2">a query</a>
</ul>"#;

fn sitemap(urls: &[&str]) -> String {
    let mut xml = String::from(
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<urlset xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n",
    );
    for url in urls {
        xml.push_str(&format!("  <url><loc>{url}</loc></url>\n"));
    }
    xml.push_str("</urlset>\n");
    xml
}

fn origin_a() -> OriginSpec {
    OriginSpec::new("a")
        .route("/robots.txt", Response::text(ROBOTS_A))
        .route("/index.html", page("Origin a", INDEX_A))
        .route("/allowed.html", leaf("Allowed"))
        .route("/private/secret.html", leaf("Secret"))
        .route("/private/secret2.html", leaf("Secret, behind a redirect"))
        .route("/private/open.html", leaf("Open, inside /private/"))
        .route("/private/in-sitemap.html", leaf("Secret, listed in the sitemap"))
        .route(
            "/doc.pdf",
            Response::bytes("application/pdf", &b"%PDF-1.4\n% norobots test\n%%EOF\n"[..]),
        )
        .route(
            "/doc.pdf?download=1",
            Response::bytes("application/pdf", &b"%PDF-1.4\n% download\n%%EOF\n"[..]),
        )
        .route("/search?q=1", leaf("Search results"))
        .route("/search", leaf("Search form"))
        .route("/star-only/page.html", leaf("For norobots, not for *"))
        // META robots.
        .route(
            "/meta/noindex.html",
            page_with_head(
                "meta noindex",
                r#"<meta name="robots" content="noindex">"#,
                r#"<a href="/meta/after-noindex.html">followed</a>"#,
            ),
        )
        .route("/meta/after-noindex.html", leaf("After noindex"))
        .route(
            "/meta/nofollow.html",
            page_with_head(
                "meta nofollow",
                r#"<meta name="robots" content="nofollow">"#,
                r#"<a href="/meta/only-via-nofollow.html">not followed</a>"#,
            ),
        )
        .route("/meta/only-via-nofollow.html", leaf("Only via nofollow"))
        .route(
            "/meta/none.html",
            page_with_head(
                "meta none",
                r#"<meta name="ROBOTS" content="NONE">"#,
                r#"<a href="/meta/only-via-none.html">not followed</a>"#,
            ),
        )
        .route("/meta/only-via-none.html", leaf("Only via none"))
        .route(
            "/meta/otherbot.html",
            page_with_head(
                "meta for otherbot",
                r#"<meta name="otherbot" content="noindex,nofollow">"#,
                r#"<a href="/meta/after-otherbot.html">followed: the tag is not for us</a>"#,
            ),
        )
        .route("/meta/after-otherbot.html", leaf("After otherbot's meta"))
        .route(
            "/meta/norobots.html",
            page_with_head(
                "meta for norobots",
                r#"<meta name="norobots" content="nofollow">"#,
                r#"<a href="/meta/only-via-norobots.html">not followed</a>"#,
            ),
        )
        .route("/meta/only-via-norobots.html", leaf("Only via norobots' meta"))
        // X-Robots-Tag.
        .route(
            "/xrt/noindex.html",
            page("X-Robots-Tag noindex", r#"<a href="/xrt/after-noindex.html">followed</a>"#)
                .with_header("X-Robots-Tag", "noindex"),
        )
        .route("/xrt/after-noindex.html", leaf("After X-Robots-Tag noindex"))
        .route(
            "/xrt/otherbot.html",
            page(
                "X-Robots-Tag for otherbot",
                r#"<a href="/xrt/after-otherbot.html">followed: the header is not for us</a>"#,
            )
            .with_header("X-Robots-Tag", "otherbot: nofollow"),
        )
        .route("/xrt/after-otherbot.html", leaf("After otherbot's header"))
        .route(
            "/xrt/norobots.html",
            page(
                "X-Robots-Tag for norobots",
                r#"<a href="/xrt/only-via-norobots.html">not followed</a>"#,
            )
            .with_header("X-Robots-Tag", "norobots: nofollow"),
        )
        .route("/xrt/only-via-norobots.html", leaf("Only via norobots' header"))
        .route(
            "/relnofollow.html",
            page(
                "rel=nofollow",
                r#"<a rel="nofollow" href="/only-via-relnofollow.html">not followed</a>
<a href="/after-relnofollow.html">followed</a>"#,
            ),
        )
        .route("/only-via-relnofollow.html", leaf("Only via rel=nofollow"))
        .route("/after-relnofollow.html", leaf("Beside rel=nofollow"))
        // Redirects.
        .route("/go/in", Response::redirect(301, "/redirected-in.html"))
        .route("/redirected-in.html", leaf("Redirected in scope"))
        .route("/go/other", Response::redirect(302, "{origin:b}/from-redirect.html"))
        .route("/go/private", Response::redirect(302, "/private/secret2.html"))
        .route("/go/loop-1", Response::redirect(302, "/go/loop-2"))
        .route("/go/loop-2", Response::redirect(302, "/go/loop-1"))
        // A cycle; the fragments must not make new URLs.
        .route("/cycle/1.html", page("Cycle 1", r##"<a href="/cycle/2.html">2</a> <a href="/cycle/1.html#top">self</a>"##))
        .route("/cycle/2.html", page("Cycle 2", r#"<a href="3.html">3</a>"#))
        .route("/cycle/3.html", page("Cycle 3", r#"<a href="/cycle/1.html">back to 1</a>"#))
        // A route of its own, so the scenario says this 404 is meant.
        .route("/missing.html", Response::not_found())
        .route("/slow.html", leaf("Slow").with_delay(Duration::from_millis(1500)))
        .sequence(
            "/retry/503.html",
            [
                Response::new(503).with_header("Retry-After", "1"),
                leaf("Back after a 503"),
            ],
        )
        .sequence(
            "/retry/429.html",
            [
                Response::new(429).with_header("Retry-After", "1"),
                leaf("Back after a 429"),
            ],
        )
        .route(
            "/broken.html",
            page("Broken", &"<p>This page never arrives whole.</p>\n".repeat(50)).breaking_after(300),
        )
        // Content.
        .route("/files/image.png", Response::bytes("image/png", PNG))
        .route(
            "/files/data.bin",
            Response::bytes(
                "application/octet-stream",
                &b"\x00\x01binary\xff<a href=\"/from-binary.html\">not a link</a>\x00"[..],
            ),
        )
        .route("/from-binary.html", leaf("Only linked from inside a binary file"))
        .route(
            "/no-type",
            Response::new(200).with_body(
                "<!doctype html>\n<html><head><title>No type</title></head><body><a href=\"/from-sniffed.html\">sniffed</a></body></html>\n",
            ),
        )
        .route("/from-sniffed.html", leaf("Linked from a page without Content-Type"))
        .route(
            "/base/page.html",
            page_with_head(
                "base href",
                r#"<base href="{origin:a}/base/deeper/">"#,
                r#"<a href="target.html">relative to the base</a> <a href="../up.html">up from the base</a>"#,
            ),
        )
        .route("/base/deeper/target.html", leaf("Reached through the base"))
        .route("/base/up.html", leaf("Up from the base"))
        .route("/base/target.html", leaf("Reached only by ignoring the base"))
        .route(
            "/embeds.html",
            page_with_head(
                "Embeds",
                r#"<link rel="stylesheet" href="/embed/style.css">"#,
                EMBEDS,
            ),
        )
        .route("/embed/img.png", Response::bytes("image/png", PNG))
        .route("/embed/small.png", Response::bytes("image/png", PNG))
        .route("/embed/large.png", Response::bytes("image/png", PNG))
        .route("/embed/fallback.png", Response::bytes("image/png", PNG))
        .route("/embed/pic.webp", Response::bytes("image/webp", &b"RIFF\x00\x00\x00\x00WEBP"[..]))
        .route("/embed/pic.png", Response::bytes("image/png", PNG))
        .route("/embed/clip.webm", Response::bytes("video/webm", &b"\x1a\x45\xdf\xa3"[..]))
        .route("/embed/app.js", Response::bytes("text/javascript", "console.log('norobots');\n"))
        .route("/embed/style.css", Response::bytes("text/css", "body { margin: 0 }\n"))
        .route("/embed/iframe.html", leaf("In an iframe"))
        .route("/embed/frame.html", leaf("In a frame"))
        .route("/embed/area.html", leaf("Behind an image map"))
        .route(
            "/frames.html",
            Response::html(
                "<!doctype html>\n<html><head><title>Frames</title></head>\n<frameset cols=\"100%\"><frame src=\"/embed/frame.html\"></frameset></html>\n",
            ),
        )
        .route(
            "/frag.html",
            page("Fragments", r##"<p id="one">one</p><p id="two">two</p><a href="#one">up</a>"##),
        )
        .route("/danger.html", page("Dangerous names", &DANGER.replace("/LONG", &format!("/{}", long_name()))))
        .route("/..%2F..%2Fescape.html", leaf("Escape by encoded slashes"))
        .route("/escape2.html", leaf("Escape by encoded dots, normalised"))
        .route("/%2e%2e/%2e%2e/escape2.html", leaf("Escape by encoded dots, as written"))
        .route("/nul%00byte.html", leaf("NUL"))
        .route("/with%20space.html", leaf("Space"))
        .route(&format!("/{}", long_name()), leaf("A long name"))
        .route("/dir/", page("A directory", r#"<a href="sub.html">inside</a> <a href="./">itself</a>"#))
        .route("/dir/sub.html", leaf("Inside the directory"))
        .route("/q?x=1&y=2", leaf("A query"))
        .route("/from-b.html", leaf("Linked from origin b"))
        // Sitemaps.
        .route(
            "/sitemap.xml",
            Response::bytes(
                "application/xml",
                sitemap(&[
                    "{origin:a}/only-in-sitemap.html",
                    "{origin:a}/allowed.html",
                    "{origin:a}/private/in-sitemap.html",
                ]),
            ),
        )
        .route(
            "/sitemap-index.xml",
            Response::bytes(
                "application/xml",
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<sitemapindex xmlns=\"http://www.sitemaps.org/schemas/sitemap/0.9\">\n  <sitemap><loc>{origin:a}/sitemap-more.xml.gz</loc></sitemap>\n</sitemapindex>\n",
            ),
        )
        .route(
            "/sitemap-more.xml.gz",
            Response::bytes("application/gzip", sitemap(&["{origin:a}/only-in-gz-sitemap.html"]))
                .gzipped(),
        )
        .route("/only-in-sitemap.html", leaf("Only in sitemap.xml"))
        .route("/only-in-gz-sitemap.html", leaf("Only in the gzip sitemap"))
}

fn origin_b() -> OriginSpec {
    OriginSpec::new("b")
        .route("/robots.txt", Response::not_found())
        .route(
            "/landing.html",
            page(
                "Origin b",
                r#"<ul>
<li><a href="{origin:a}/index.html">back to the start</a>
<li><a href="{origin:a}/from-b.html">a page of a linked only from here</a>
<li><a href="/b-page.html">a page of b</a>
<li><a href="{origin:c}/index.html">c: robots.txt 403</a>
<li><a href="{origin:i}/index.html">i: robots.txt 401</a>
<li><a href="{origin:d}/index.html">d: robots.txt 503</a>
<li><a href="{origin:e}/index.html">e: robots.txt redirected to f</a>
<li><a href="{origin:g}/index.html">g: robots.txt never answers</a>
</ul>"#,
            ),
        )
        .route("/b-page.html", leaf("A page of b"))
        .route("/from-redirect.html", leaf("Reached by a redirect from a"))
}

/// An origin whose robots.txt answers `robots`, with a start page that
/// links to one more page (so a robot that gets in shows it crawled).
fn closed(name: &str, robots: Response, next: Option<&str>) -> OriginSpec {
    let origin = OriginSpec::new(name).route("/robots.txt", robots);
    match next {
        Some(next) => origin
            .route(
                "/index.html",
                page(
                    &format!("Origin {name}"),
                    &format!(r#"<a href="{next}">next</a>"#),
                ),
            )
            .route(next, leaf(&format!("Inside {name}"))),
        None => origin.route("/index.html", leaf(&format!("Origin {name}"))),
    }
}

fn origin_e() -> OriginSpec {
    OriginSpec::new("e")
        .route(
            "/robots.txt",
            Response::redirect(301, "{origin:f}/robots-for-e.txt"),
        )
        .route(
            "/index.html",
            page(
                "Origin e",
                r#"<a href="/e-private/x.html">disallowed by the redirected robots.txt</a>
<a href="/e-public.html">allowed</a>"#,
            ),
        )
        .route("/e-private/x.html", leaf("Private on e"))
        .route("/e-public.html", leaf("Public on e"))
}

fn origin_f() -> OriginSpec {
    OriginSpec::new("f")
        .route(
            "/robots-for-e.txt",
            Response::text("# Served for origin e, which redirects here.\nUser-agent: *\nDisallow: /e-private/\n"),
        )
        .route("/robots.txt", Response::text("User-agent: *\nDisallow:\n"))
}

fn origin_m() -> OriginSpec {
    let mut links = String::with_capacity(MANY * 40);
    for n in 0..MANY {
        links.push_str(&format!("<a href=\"/many/{n}.html\">{n}</a>\n"));
    }
    OriginSpec::new("m")
        .route("/robots.txt", Response::text("User-agent: *\nDisallow:\n"))
        .route("/many.html", page("Many links", &links))
        .generate(|path| {
            let n: usize = path
                .strip_prefix("/many/")?
                .strip_suffix(".html")?
                .parse()
                .ok()?;
            // Only the canonical spelling of each number is a page.
            (n < MANY && path == format!("/many/{n}.html"))
                .then(|| leaf(&format!("Small page {n}")))
        })
}

/// The standard site (see the module docs for the table).
pub fn site() -> Site {
    Site::new()
        .origin(origin_a())
        .origin(origin_b())
        .origin(closed(
            "c",
            Response::text("Forbidden\n").with_status(403),
            Some("/c-page.html"),
        ))
        .origin(closed(
            "d",
            Response::text("Unavailable\n")
                .with_status(503)
                .with_header("Retry-After", "1"),
            None,
        ))
        .origin(origin_e())
        .origin(origin_f())
        .origin(closed("g", Response::text("never sent").hanging(), None))
        .origin(closed(
            "h",
            Response::text("User-agent: *\nDisallow:\n"),
            None,
        ))
        .origin(closed(
            "i",
            Response::text("Unauthorized\n").with_status(401),
            Some("/i-page.html"),
        ))
        .origin(origin_m())
}
