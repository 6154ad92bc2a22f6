//! Where a fetched page is saved under the `-P` prefix: wget's layout, and
//! never a byte outside the prefix.
//!
//! [`Layout`] is the pure part: a URL becomes a path relative to the
//! prefix, `host[:port]/dir/file?query` as wget writes it, made only of
//! plain names. [`Mirror`] is the part that touches the disk: it creates the
//! directories and the file under the prefix without following a symlink
//! that someone planted there, and settles the cases a pure function cannot
//! (a page whose name is already a directory, two pages with one name under
//! `-nd`).
//!
//! # Names
//!
//! Each path segment is percent-decoded for a readable name, as wget does,
//! except where decoding would make two URLs share a file or make the name
//! unsafe:
//!
//! * `/`, NUL, control characters (C0, DEL, C1) and the Unicode bidi
//!   controls stay escaped (`%2F`, `%00`, `%C2%85`, `%E2%80%AE`): wget's
//!   `--restrict-file-names=unix`, plus the characters that make a name
//!   display as another.
//! * Octets that are not UTF-8 stay escaped, so every name is UTF-8 and
//!   prints as it is stored.
//! * Only escapes the `url` crate never leaves raw in that part of a URL are
//!   decoded (space, `"`, `<`, `>`, non-ASCII, ...), plus the unreserved
//!   characters, whose escaped and raw forms RFC 3986 6.2.2.2 makes equal.
//!   `%26` in a query and `%3B` in a path stay escaped, because `&` and `;`
//!   can also appear raw there with another meaning; `%3F` stays escaped in
//!   a path, because `?` starts the query in the file name.
//! * `%25` and a stray `%` (one not followed by two hex digits, which the
//!   `url` crate leaves raw) both mean `%`; it is written `%25` where it
//!   would otherwise read as an escape (`/%2541` is saved as `%2541`).
//!
//! So the map from URL to path is one-to-one, apart from these aliases,
//! which name the same page in practice:
//!
//! * `/dir/` and `/dir/index.html` (wget's `index.html` for a directory);
//! * an unreserved character and its escape (`/%41` and `/A`), a stray `%`
//!   and `%25`, and `/` and `%2F` in a query, which decoders read alike;
//! * `http` and `https` on one host and port, which share the host
//!   directory as in wget;
//! * with `-nH`, pages of different hosts; with `-nd`, pages of different
//!   directories, where [`Mirror`] numbers the files instead.
//!
//! # Neutralised names
//!
//! Names that could leave the prefix or cannot exist get a name that no
//! URL decodes to (an escape of a character that is always decoded):
//!
//! | segment | name |
//! |---|---|
//! | `..` | `%2E%2E` (as wget) |
//! | `.` | `%2E` |
//! | empty (`/a//b`) | `%20` (wget drops it, which would merge `/a//b` and `/a/b`) |
//! | longer than 255 octets | its first 232 octets, `%7E` and 20 hex digits of a SHA-1 of the whole name |
//!
//! A whole path longer than [`MAX_PATH`] keeps its leading directories and
//! folds the rest into one name the same way.

use std::io;
use std::path::{Path, PathBuf};

use sha1::{Digest, Sha1};
use url::Url;

/// The longest name of one path component, in octets: Linux's `NAME_MAX`.
///
/// ```
/// let url = url::Url::parse(&format!("http://h.example/{}", "x".repeat(1000))).unwrap();
/// let path = norobots_crawl::mirror::Layout::new().relative_path(&url);
/// assert!(path.iter().all(|name| name.len() <= norobots_crawl::mirror::NAME_MAX));
/// ```
pub const NAME_MAX: usize = 255;

/// The longest relative path, in octets: `PATH_MAX` (4096) less room for
/// the prefix, so that tools that take whole paths can still open the
/// files.
///
/// ```
/// let deep = "/d".repeat(5000);
/// let url = url::Url::parse(&format!("http://h.example{deep}")).unwrap();
/// let path = norobots_crawl::mirror::Layout::new().relative_path(&url);
/// assert!(path.as_os_str().len() <= norobots_crawl::mirror::MAX_PATH);
/// ```
pub const MAX_PATH: usize = 3840;

/// The file name of a URL whose path ends in `/`, as in wget.
const INDEX: &str = "index.html";
/// Room a cut name keeps for its readable head: `NAME_MAX` less `%7E` and
/// the hash.
const HASH_HEX: usize = 20;
const MARK: &str = "%7E";

/// How URLs map to paths under the prefix: wget's `-nH` and `-nd`.
///
/// The default is the layout of a recursive wget: `host[:port]/path`
/// (`-x`, `--force-directories`, which a recursive crawl implies). The
/// port is written only when it is not the scheme's default, as wget
/// does; an IPv6 host keeps its brackets so the port stays apart.
///
/// ```
/// use norobots_crawl::mirror::Layout;
/// use std::path::Path;
///
/// let url = url::Url::parse("http://example.com:8080/a/b.html?x=1").unwrap();
/// assert_eq!(Layout::new().relative_path(&url), Path::new("example.com:8080/a/b.html?x=1"));
/// assert_eq!(Layout::new().host_directories(false).relative_path(&url), Path::new("a/b.html?x=1"));
/// assert_eq!(Layout::new().directories(false).relative_path(&url), Path::new("b.html?x=1"));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Layout {
    host_dirs: bool,
    dirs: bool,
}

impl Default for Layout {
    fn default() -> Layout {
        Layout::new()
    }
}

impl Layout {
    /// Host and directories, as `wget -r` (and `-x`) lays them out.
    ///
    /// ```
    /// let url = url::Url::parse("https://example.com/").unwrap();
    /// let path = norobots_crawl::mirror::Layout::new().relative_path(&url);
    /// assert_eq!(path, std::path::Path::new("example.com/index.html"));
    /// ```
    pub fn new() -> Layout {
        Layout {
            host_dirs: true,
            dirs: true,
        }
    }

    /// Whether the host directory comes first: `false` is wget's `-nH`
    /// (`--no-host-directories`).
    ///
    /// ```
    /// let layout = norobots_crawl::mirror::Layout::new().host_directories(false);
    /// let url = url::Url::parse("https://example.com/a/").unwrap();
    /// assert_eq!(layout.relative_path(&url), std::path::Path::new("a/index.html"));
    /// ```
    pub fn host_directories(self, on: bool) -> Layout {
        Layout {
            host_dirs: on,
            ..self
        }
    }

    /// Whether directories are made at all: `false` is wget's `-nd`
    /// (`--no-directories`), every file straight in the prefix; `true` is
    /// `-x` (`--force-directories`).
    ///
    /// ```
    /// let layout = norobots_crawl::mirror::Layout::new().directories(false);
    /// let url = url::Url::parse("https://example.com/a/b/c.css").unwrap();
    /// assert_eq!(layout.relative_path(&url), std::path::Path::new("c.css"));
    /// ```
    pub fn directories(self, on: bool) -> Layout {
        Layout { dirs: on, ..self }
    }

    /// Whether host directories are on (no `-nH`).
    ///
    /// ```
    /// assert!(norobots_crawl::mirror::Layout::new().has_host_directories());
    /// ```
    pub fn has_host_directories(&self) -> bool {
        self.host_dirs
    }

    /// Whether directories are on (no `-nd`).
    ///
    /// ```
    /// assert!(!norobots_crawl::mirror::Layout::new().directories(false).has_directories());
    /// ```
    pub fn has_directories(&self) -> bool {
        self.dirs
    }

    /// The path of `url`'s file relative to the prefix: only plain names
    /// (no root, no `.` or `..`), none empty or longer than [`NAME_MAX`],
    /// none holding NUL or `/`, the whole at most [`MAX_PATH`] octets.
    ///
    /// ```
    /// use norobots_crawl::mirror::Layout;
    /// use std::path::Path;
    ///
    /// let layout = Layout::new();
    /// let path = |u: &str| layout.relative_path(&url::Url::parse(u).unwrap());
    /// assert_eq!(path("http://h.example/p?x=1"), Path::new("h.example/p?x=1"));
    /// assert_eq!(path("http://h.example/?a=b"), Path::new("h.example/index.html?a=b"));
    /// assert_eq!(path("http://h.example/caf%C3%A9%20au%20lait"), Path::new("h.example/café au lait"));
    /// assert_eq!(path("http://h.example/a%2Fb%00"), Path::new("h.example/a%2Fb%00"));
    /// assert_eq!(path("http://../%2e%2e/x"), Path::new("%2E%2E/x"));
    /// ```
    pub fn relative_path(&self, url: &Url) -> PathBuf {
        self.components(url).iter().collect()
    }

    /// The names of [`Layout::relative_path`], the last one the file's.
    fn components(&self, url: &Url) -> Vec<String> {
        let path = url.path();
        let segments: Vec<&str> = match url.path_segments() {
            Some(segments) => segments.collect(),
            // A URL that cannot be a base (`mailto:`) has one opaque path.
            None => vec![path],
        };
        let (file, dirs) = segments
            .split_last()
            .map_or(("", &[][..]), |(file, dirs)| (*file, dirs));
        let mut out = Vec::new();
        if self.dirs {
            if self.host_dirs {
                out.push(host_name(url));
            }
            out.extend(dirs.iter().map(|d| fit(neutral(encode(d, Part::Path)))));
        }
        let mut name = match encode(file, Part::Path) {
            name if name.is_empty() => INDEX.to_string(),
            name => neutral(name),
        };
        if let Some(query) = url.query() {
            name.push('?');
            name.push_str(&encode(query, Part::Query));
        }
        out.push(fit(name));
        fold(out)
    }
}

/// `host` or `host:port`, as a safe name.
fn host_name(url: &Url) -> String {
    let mut name = neutral(encode(url.host_str().unwrap_or(""), Part::Path));
    if let Some(port) = url.port() {
        name.push(':');
        name.push_str(&port.to_string());
    }
    fit(name)
}

/// Which part of the URL a string comes from: each decodes a different set
/// of escapes (see the module doc).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Part {
    Path,
    Query,
}

/// Whether the escape of ASCII octet `b` is decoded in `part`: unreserved
/// characters (RFC 3986 2.3), and those the `url` crate always escapes
/// there, so that no raw form of them can be confused with the decoded one.
fn decodes(b: u8, part: Part) -> bool {
    // `%25` decodes to the `%` a stray `%` already is (WHATWG percent-decoding).
    let always = b.is_ascii_alphanumeric() || matches!(b, b'-' | b'.' | b'_' | b'~' | b'%');
    always
        || match part {
            Part::Path => matches!(
                b,
                b' ' | b'"' | b'#' | b'<' | b'>' | b'`' | b'{' | b'}' | b'^'
            ),
            Part::Query => matches!(b, b' ' | b'"' | b'#' | b'<' | b'>'),
        }
}

/// Characters that never appear raw in a name: controls, and those that
/// reorder how a name is displayed (Trojan Source, CVE-2021-42574).
fn unsafe_char(c: char) -> bool {
    c.is_control()
        || matches!(c, '\u{061C}' | '\u{200E}' | '\u{200F}' | '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}')
}

/// One piece of a name: a character written as itself, or an octet written
/// as `%HH`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Unit {
    Lit(char),
    Hex(u8),
}

fn hex_value(b: u8) -> Option<u8> {
    (b as char).to_digit(16).map(|d| d as u8)
}

/// Decodes `raw` (a path segment, a query or a host as the `url` crate
/// serialises them) into a name, re-escaping what must stay escaped.
fn encode(raw: &str, part: Part) -> String {
    let bytes = raw.as_bytes();
    let mut units = Vec::with_capacity(raw.len());
    // Escaped octets of 0x80 and above wait here until the run ends, to be
    // read as UTF-8 together.
    let mut high = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let escape = match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&h), Some(&l)) => hex_value(h).zip(hex_value(l)).map(|(h, l)| h << 4 | l),
            _ => None,
        };
        if let Some(b) = escape {
            i += 3;
            if b >= 0x80 {
                high.push(b);
                continue;
            }
            flush_high(&mut high, &mut units);
            units.push(if decodes(b, part) && !unsafe_char(b as char) {
                Unit::Lit(b as char)
            } else {
                Unit::Hex(b)
            });
            continue;
        }
        flush_high(&mut high, &mut units);
        // `raw` is a &str, so a character starts here.
        let c = raw[i..].chars().next().unwrap_or('\u{FFFD}');
        i += c.len_utf8().max(1);
        if c == '/' || unsafe_char(c) {
            let mut buf = [0; 4];
            units.extend(c.encode_utf8(&mut buf).bytes().map(Unit::Hex));
        } else {
            units.push(Unit::Lit(c));
        }
    }
    flush_high(&mut high, &mut units);
    serialise(&units)
}

/// Turns a run of escaped high octets into characters where they are UTF-8
/// and safe, and into `%HH` where they are not.
fn flush_high(high: &mut Vec<u8>, units: &mut Vec<Unit>) {
    for chunk in high.utf8_chunks() {
        for c in chunk.valid().chars() {
            if unsafe_char(c) {
                let mut buf = [0; 4];
                units.extend(c.encode_utf8(&mut buf).bytes().map(Unit::Hex));
            } else {
                units.push(Unit::Lit(c));
            }
        }
        units.extend(chunk.invalid().iter().copied().map(Unit::Hex));
    }
    high.clear();
}

fn serialise(units: &[Unit]) -> String {
    let mut out = String::with_capacity(units.len());
    for (i, unit) in units.iter().enumerate() {
        match *unit {
            Unit::Hex(b) => {
                out.push('%');
                out.push_str(&format!("{b:02X}"));
            }
            // A literal `%` before two hex digits would read as an escape.
            Unit::Lit('%')
                if matches!(
                    (units.get(i + 1), units.get(i + 2)),
                    (Some(Unit::Lit(h)), Some(Unit::Lit(l))) if h.is_ascii_hexdigit() && l.is_ascii_hexdigit()
                ) =>
            {
                out.push_str("%25")
            }
            Unit::Lit(c) => out.push(c),
        }
    }
    out
}

/// Renames the names a directory entry cannot have.
fn neutral(name: String) -> String {
    match name.as_str() {
        "" => "%20".to_string(),
        "." => "%2E".to_string(),
        ".." => "%2E%2E".to_string(),
        _ => name,
    }
}

fn hash(domain: &str, text: &str) -> String {
    let mut sha = Sha1::new();
    sha.update(domain.as_bytes());
    sha.update([0]);
    sha.update(text.as_bytes());
    let digest = sha.finalize();
    data_encoding::HEXLOWER.encode(&digest[..HASH_HEX / 2])
}

/// The longest prefix of `name` of at most `max` octets that ends neither
/// inside a character nor inside a `%HH` escape.
fn head(name: &str, max: usize) -> &str {
    let b = name.as_bytes();
    let mut end = max.min(name.len());
    while !name.is_char_boundary(end) {
        end -= 1;
    }
    let is_hex = |i: usize| b.get(i).is_some_and(u8::is_ascii_hexdigit);
    if end >= 1 && b[end - 1] == b'%' && is_hex(end) && is_hex(end + 1) {
        end -= 1;
    } else if end >= 2 && b[end - 2] == b'%' && is_hex(end - 1) && is_hex(end) {
        end -= 2;
    }
    &name[..end]
}

/// `name` cut to at most `max` octets, keeping a readable head and a hash
/// of the whole so that different long names stay different. The `%7E`
/// before the hash is the escape of `~`, which [`encode`] always decodes,
/// so no uncut name can look like a cut one.
fn fit_to(name: String, max: usize) -> String {
    if name.len() <= max {
        return name;
    }
    let keep = max.saturating_sub(MARK.len() + HASH_HEX);
    format!("{}{MARK}{}", head(&name, keep), hash("name", &name))
}

fn fit(name: String) -> String {
    fit_to(name, NAME_MAX)
}

/// Folds a path longer than [`MAX_PATH`]: the leading names that fit stay,
/// and the rest becomes one name made from the first of them and a hash of
/// all of them.
fn fold(mut names: Vec<String>) -> Vec<String> {
    let total = names
        .iter()
        .map(|n| n.len() + 1)
        .sum::<usize>()
        .saturating_sub(1);
    if total <= MAX_PATH {
        return names;
    }
    let budget = MAX_PATH - NAME_MAX - 1;
    let mut used = 0;
    let mut keep = 0;
    while keep + 1 < names.len() && used + names[keep].len() < budget {
        used += names[keep].len() + 1;
        keep += 1;
    }
    let rest = names.split_off(keep);
    let joined = rest.join("/");
    let first = head(&rest[0], NAME_MAX - MARK.len() - HASH_HEX);
    names.push(format!("{first}{MARK}{}", hash("path", &joined)));
    names
}

#[cfg(unix)]
pub use disk::Mirror;

#[cfg(unix)]
mod disk {
    use super::*;

    use std::collections::HashMap;
    use std::fs::File;
    use std::os::fd::{AsFd, OwnedFd};
    use std::sync::atomic::{AtomicU64, Ordering};
    use std::sync::Arc;
    use std::sync::{Mutex, MutexGuard};

    use rustix::fs::{self as rfs, AtFlags, FileType, Mode, OFlags};
    use rustix::io::Errno;

    /// The name a page gets inside a directory that holds its name already:
    /// `/a` once `/a/b` has made `a` a directory. `%2E` reads as "the
    /// directory itself", and no URL segment decodes to it (a `.` segment
    /// is resolved away by the `url` crate, see the module doc).
    pub(super) const SELF: &str = "%2E";
    /// The extended attribute that tells which URL owns a file under `-nd`.
    const OWNER_ATTR: &str = "user.norobots.url-sha1";
    const TRIES: usize = 8;

    /// Saves pages under a prefix with a [`Layout`]: the disk side of
    /// `-P`, `-nH`, `-nd`.
    ///
    /// What it settles beyond [`Layout::relative_path`]:
    ///
    /// * **Nothing leaves the prefix.** Below the prefix every directory is
    ///   opened relative to its parent with `O_NOFOLLOW | O_DIRECTORY`, and
    ///   the file with `O_NOFOLLOW | O_EXCL` after unlinking the old entry,
    ///   so a symlink (or a hard link to a file elsewhere) planted inside
    ///   the prefix is replaced, never written through. The prefix itself
    ///   is the user's and may be a symlink.
    /// * **A file and a directory of one name.** When `/a` is saved and `a`
    ///   is a directory, the page goes to `a/%2E`. When `/a/b` needs the
    ///   directory `a` and `a` is a file (or a symlink, or anything else),
    ///   that entry moves to `a/%2E` and `a` becomes a directory. Both
    ///   orders end with the same tree and no page lost; wget 1.x deletes
    ///   the file in the second order.
    /// * **`-nd` name clashes.** The second page named `x.html` is saved as
    ///   `x.html.1`, the third `x.html.2`, as wget does. The mirror probes
    ///   the disk for the names taken and tags each file it writes with a
    ///   SHA-1 of its URL (extended attribute `user.norobots.url-sha1`,
    ///   a hash so that no URL with a token in it is copied to the disk).
    ///   A page saved again, in this crawl or in a resumed one, overwrites
    ///   the file its tag names instead of taking a new number. On a file
    ///   system without extended attributes the owners are kept in memory,
    ///   for this process only.
    /// * **Elsewhere the layout is one-to-one** and a page saved again
    ///   overwrites its file, as `wget -r` does.
    ///
    /// It is `Send + Sync`: directory changes are made under one lock, and
    /// the writing of a page's body is left to the caller, outside it.
    ///
    /// ```
    /// use norobots_crawl::mirror::{Layout, Mirror};
    /// use std::io::Write;
    ///
    /// let dir = tempfile::tempdir().unwrap();
    /// let mirror = Mirror::new(dir.path(), Layout::new()).unwrap();
    /// let url = url::Url::parse("https://example.com/docs/").unwrap();
    /// let (path, mut file) = mirror.create(&url).unwrap();
    /// file.write_all(b"<h1>Docs</h1>").unwrap();
    /// assert_eq!(path, dir.path().join("example.com/docs/index.html"));
    /// assert_eq!(std::fs::read(&path).unwrap(), b"<h1>Docs</h1>");
    /// ```
    #[derive(Debug)]
    pub struct Mirror {
        prefix: PathBuf,
        root: OwnedFd,
        layout: Layout,
        state: Mutex<State>,
        temp: AtomicU64,
        /// Counts changes of the tree's shape (a directory made, a name
        /// moved aside), so that a save can tell whether the place it
        /// chose before writing still holds after.
        shape: AtomicU64,
    }

    /// Names given out under `-nd`, by file name.
    #[derive(Debug, Default)]
    struct State {
        families: HashMap<String, Family>,
        /// Directories already opened (each component with `O_NOFOLLOW`),
        /// by their path under the prefix: a site's pages share a few
        /// directories, and opening each component again for every page
        /// was most of the cost of saving one.
        dirs: HashMap<PathBuf, Arc<OwnedFd>>,
    }

    /// Directories kept open at most; past this the cache starts over.
    const DIR_CACHE: usize = 512;

    /// The files `x.html`, `x.html.1`, ... and whose they are.
    #[derive(Debug, Default)]
    struct Family {
        owners: HashMap<String, u64>,
        next: u64,
    }

    /// Where one page goes: its directory, open, and its name in it.
    struct Place {
        dir: Arc<OwnedFd>,
        rel: PathBuf,
        name: String,
    }

    impl Mirror {
        /// A mirror under `prefix` (created if missing, as `-P` does).
        ///
        /// ```
        /// let dir = tempfile::tempdir().unwrap();
        /// let prefix = dir.path().join("new/prefix");
        /// let mirror = norobots_crawl::mirror::Mirror::new(&prefix, Default::default()).unwrap();
        /// assert_eq!(mirror.prefix(), prefix);
        /// assert!(prefix.is_dir());
        /// ```
        pub fn new(prefix: impl Into<PathBuf>, layout: Layout) -> io::Result<Mirror> {
            let prefix = prefix.into();
            std::fs::create_dir_all(&prefix)?;
            let root = rfs::open(
                &prefix,
                OFlags::RDONLY | OFlags::DIRECTORY | OFlags::CLOEXEC,
                Mode::empty(),
            )?;
            Ok(Mirror {
                prefix,
                root,
                layout,
                state: Mutex::new(State::default()),
                temp: AtomicU64::new(0),
                shape: AtomicU64::new(0),
            })
        }

        /// The prefix, as given.
        ///
        /// ```
        /// let dir = tempfile::tempdir().unwrap();
        /// let mirror = norobots_crawl::mirror::Mirror::new(dir.path(), Default::default()).unwrap();
        /// assert_eq!(mirror.prefix(), dir.path());
        /// ```
        pub fn prefix(&self) -> &Path {
            &self.prefix
        }

        /// The layout.
        ///
        /// ```
        /// use norobots_crawl::mirror::{Layout, Mirror};
        /// let dir = tempfile::tempdir().unwrap();
        /// let layout = Layout::new().directories(false);
        /// assert_eq!(*Mirror::new(dir.path(), layout).unwrap().layout(), layout);
        /// ```
        pub fn layout(&self) -> &Layout {
            &self.layout
        }

        /// Creates the file for `url`, empty, with its directories, and
        /// returns its path (the prefix joined with where it went) and the
        /// file open for writing. An earlier copy is replaced.
        ///
        /// A crash while writing leaves a short file; [`Mirror::save`]
        /// does not.
        ///
        /// ```
        /// use norobots_crawl::mirror::{Layout, Mirror};
        /// let dir = tempfile::tempdir().unwrap();
        /// let mirror = Mirror::new(dir.path(), Layout::new().directories(false)).unwrap();
        /// let a = mirror.create(&url::Url::parse("http://h.example/a/x.html").unwrap()).unwrap().0;
        /// let b = mirror.create(&url::Url::parse("http://h.example/b/x.html").unwrap()).unwrap().0;
        /// assert_eq!(a, dir.path().join("x.html"));
        /// assert_eq!(b, dir.path().join("x.html.1"));
        /// ```
        pub fn create(&self, url: &Url) -> io::Result<(PathBuf, File)> {
            let mut state = self.lock();
            let place = self.place(url, &mut state)?;
            let fd = retry(|| {
                match rfs::unlinkat(&*place.dir, place.name.as_str(), AtFlags::empty()) {
                    Ok(()) | Err(Errno::NOENT) => {}
                    Err(e) => return Err(e),
                }
                rfs::openat(
                    &*place.dir,
                    place.name.as_str(),
                    create_flags(),
                    file_mode(),
                )
            })?;
            if !self.layout.dirs {
                tag(&fd, url);
            }
            Ok((self.full(&place), File::from(fd)))
        }

        /// Saves `body` as the page of `url`: written to a temporary file
        /// beside it, then renamed over the old copy, so the name only ever
        /// holds a whole page. Returns the path and the octets written.
        ///
        /// ```
        /// use norobots_crawl::mirror::{Layout, Mirror};
        /// let dir = tempfile::tempdir().unwrap();
        /// let mirror = Mirror::new(dir.path(), Layout::new()).unwrap();
        /// let url = url::Url::parse("http://h.example/a?x=1").unwrap();
        /// let (path, n) = mirror.save(&url, &mut &b"page"[..]).unwrap();
        /// assert_eq!((path, n), (dir.path().join("h.example/a?x=1"), 4));
        /// ```
        pub fn save(&self, url: &Url, body: &mut impl io::Read) -> io::Result<(PathBuf, u64)> {
            let (dir, temp, fd, first, shape) = {
                let mut state = self.lock();
                let temp = format!(
                    "{MARK}tmp.{}.{}",
                    std::process::id(),
                    self.temp.fetch_add(1, Ordering::Relaxed)
                );
                let mut place = self.place(url, &mut state)?;
                let fd = match rfs::openat(&*place.dir, temp.as_str(), create_flags(), file_mode())
                {
                    Ok(fd) => fd,
                    // A directory kept open was removed under the mirror:
                    // open the path afresh.
                    Err(_) => {
                        state.dirs.clear();
                        place = self.place(url, &mut state)?;
                        rfs::openat(&*place.dir, temp.as_str(), create_flags(), file_mode())?
                    }
                };
                let shape = self.shape.load(Ordering::Relaxed);
                (Arc::clone(&place.dir), temp, fd, place, shape)
            };
            let mut file = File::from(fd);
            let written = io::copy(body, &mut file);
            let written = match written {
                Ok(n) => n,
                Err(e) => {
                    let _ = rfs::unlinkat(&*dir, temp.as_str(), AtFlags::empty());
                    return Err(e);
                }
            };
            if !self.layout.dirs {
                tag(&file, url);
            }
            drop(file);
            // The tree may have changed while the body was written (another
            // page may have made this name a directory): place it again,
            // unless nothing has changed shape since.
            let mut state = self.lock();
            let place = if self.shape.load(Ordering::Relaxed) == shape {
                Ok(first)
            } else {
                self.place(url, &mut state)
            };
            let result = place.and_then(|place| {
                rfs::renameat(&*dir, temp.as_str(), &*place.dir, place.name.as_str())?;
                Ok(self.full(&place))
            });
            if result.is_err() {
                let _ = rfs::unlinkat(&*dir, temp.as_str(), AtFlags::empty());
            }
            result.map(|path| (path, written))
        }

        fn lock(&self) -> MutexGuard<'_, State> {
            // The state is a cache of the disk; a panic elsewhere leaves it
            // usable.
            self.state.lock().unwrap_or_else(|e| e.into_inner())
        }

        fn full(&self, place: &Place) -> PathBuf {
            self.prefix.join(&place.rel).join(&place.name)
        }

        /// Opens (making them as needed) the directories of `url`'s file and
        /// chooses the file's name in the last one.
        fn place(&self, url: &Url, state: &mut State) -> io::Result<Place> {
            let mut names = self.layout.components(url);
            let file = names.pop().unwrap_or_else(|| INDEX.to_string());
            let mut rel: PathBuf = names.iter().collect();
            let mut dir = match state.dirs.get(&rel) {
                Some(d) => Arc::clone(d),
                None => {
                    let mut dir = self.root.try_clone()?;
                    for name in &names {
                        dir = self.enter(&dir, name)?;
                    }
                    let dir = Arc::new(dir);
                    if state.dirs.len() >= DIR_CACHE {
                        state.dirs.clear();
                    }
                    state.dirs.insert(rel.clone(), Arc::clone(&dir));
                    dir
                }
            };
            if !self.layout.dirs {
                let name = self.numbered(&dir, file, url, state)?;
                return Ok(Place { dir, rel, name });
            }
            match kind(&dir, &file) {
                Some(FileType::Directory) => {
                    dir = Arc::new(self.enter(&dir, &file)?);
                    rel.push(&file);
                    Ok(Place {
                        dir,
                        rel,
                        name: SELF.to_string(),
                    })
                }
                _ => Ok(Place {
                    dir,
                    rel,
                    name: file,
                }),
            }
        }

        /// Opens the directory `name` in `parent`, making it if missing, and
        /// moving whatever else holds the name to `name/%2E`.
        fn enter(&self, parent: &OwnedFd, name: &str) -> io::Result<OwnedFd> {
            let flags = OFlags::RDONLY | OFlags::DIRECTORY | OFlags::NOFOLLOW | OFlags::CLOEXEC;
            for _ in 0..TRIES {
                match rfs::openat(parent, name, flags, Mode::empty()) {
                    Ok(fd) => return Ok(fd),
                    Err(Errno::NOENT) => match rfs::mkdirat(parent, name, dir_mode()) {
                        Ok(()) | Err(Errno::EXIST) => {
                            self.shape.fetch_add(1, Ordering::Relaxed);
                            continue;
                        }
                        Err(e) => return Err(e.into()),
                    },
                    // A file, a symlink, a fifo: not a directory we made.
                    Err(Errno::NOTDIR) | Err(Errno::LOOP) => {
                        let temp = format!(
                            "{MARK}move.{}.{}",
                            std::process::id(),
                            self.temp.fetch_add(1, Ordering::Relaxed)
                        );
                        self.shape.fetch_add(1, Ordering::Relaxed);
                        rfs::renameat(parent, name, parent, temp.as_str())?;
                        rfs::mkdirat(parent, name, dir_mode())?;
                        let dir = rfs::openat(parent, name, flags, Mode::empty())?;
                        rfs::renameat(parent, temp.as_str(), &dir, SELF)?;
                        return Ok(dir);
                    }
                    Err(e) => return Err(e.into()),
                }
            }
            Err(io::Error::other(format!(
                "{name}: the directory keeps changing under the mirror"
            )))
        }

        /// The `-nd` name of `url`: `file`, or `file.N` for the N+1-th page
        /// of that name, or the one its earlier copy has.
        fn numbered(
            &self,
            dir: &OwnedFd,
            file: String,
            url: &Url,
            state: &mut State,
        ) -> io::Result<String> {
            let owner = hash("url", url.as_str());
            let family = state
                .families
                .entry(file.clone())
                .or_insert_with(|| scan(dir, &file));
            if let Some(&n) = family.owners.get(&owner) {
                return Ok(suffixed(&file, n));
            }
            loop {
                let n = family.next;
                family.next += 1;
                let name = suffixed(&file, n);
                match kind(dir, &name) {
                    None => {
                        family.owners.insert(owner, n);
                        return Ok(name);
                    }
                    Some(FileType::RegularFile) => match read_tag(dir, &name) {
                        Some(tag) if tag == owner => {
                            family.owners.insert(owner, n);
                            return Ok(name);
                        }
                        Some(tag) => {
                            family.owners.entry(tag).or_insert(n);
                        }
                        None => {}
                    },
                    // A directory or a symlink: not ours, never written.
                    Some(_) => {}
                }
            }
        }
    }

    /// What the names `file`, `file.1`, ... already on disk hold, up to the
    /// first free one.
    fn scan(dir: &OwnedFd, file: &str) -> Family {
        let mut family = Family::default();
        loop {
            let name = suffixed(file, family.next);
            match kind(dir, &name) {
                None => return family,
                Some(FileType::RegularFile) => {
                    if let Some(tag) = read_tag(dir, &name) {
                        family.owners.entry(tag).or_insert(family.next);
                    }
                }
                Some(_) => {}
            }
            family.next += 1;
        }
    }

    /// `file`, or `file.N`, still within [`NAME_MAX`].
    fn suffixed(file: &str, n: u64) -> String {
        if n == 0 {
            return file.to_string();
        }
        let suffix = format!(".{n}");
        let mut name = fit_to(file.to_string(), NAME_MAX - suffix.len());
        name.push_str(&suffix);
        name
    }

    /// The type of the entry `name` in `dir`, not following a symlink.
    fn kind(dir: &OwnedFd, name: &str) -> Option<FileType> {
        rfs::statat(dir, name, AtFlags::SYMLINK_NOFOLLOW)
            .ok()
            .map(|st| FileType::from_raw_mode(st.st_mode))
    }

    fn create_flags() -> OFlags {
        OFlags::WRONLY | OFlags::CREATE | OFlags::EXCL | OFlags::NOFOLLOW | OFlags::CLOEXEC
    }

    fn file_mode() -> Mode {
        Mode::from_raw_mode(0o644)
    }

    fn dir_mode() -> Mode {
        Mode::from_raw_mode(0o755)
    }

    /// Runs `op` again while another process races it for the name.
    fn retry(mut op: impl FnMut() -> rustix::io::Result<OwnedFd>) -> io::Result<OwnedFd> {
        let mut last = Errno::EXIST;
        for _ in 0..TRIES {
            match op() {
                Err(Errno::EXIST) => last = Errno::EXIST,
                other => return other.map_err(Into::into),
            }
        }
        Err(last.into())
    }

    #[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
    fn tag(fd: impl AsFd, url: &Url) {
        // Without extended attributes the owner is known from memory only.
        let _ = rfs::fsetxattr(
            fd,
            OWNER_ATTR,
            hash("url", url.as_str()).as_bytes(),
            rfs::XattrFlags::empty(),
        );
    }

    #[cfg(not(any(target_os = "linux", target_os = "android", target_vendor = "apple")))]
    fn tag(_fd: impl AsFd, _url: &Url) {}

    #[cfg(any(target_os = "linux", target_os = "android", target_vendor = "apple"))]
    fn read_tag(dir: &OwnedFd, name: &str) -> Option<String> {
        let flags = OFlags::RDONLY | OFlags::NOFOLLOW | OFlags::NONBLOCK | OFlags::CLOEXEC;
        let fd = rfs::openat(dir, name, flags, Mode::empty()).ok()?;
        let mut buf = [0u8; 64];
        let n = rfs::fgetxattr(&fd, OWNER_ATTR, &mut buf[..]).ok()?;
        std::str::from_utf8(&buf[..n]).ok().map(str::to_string)
    }

    #[cfg(not(any(target_os = "linux", target_os = "android", target_vendor = "apple")))]
    fn read_tag(_dir: &OwnedFd, _name: &str) -> Option<String> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Component;

    fn rel(layout: Layout, url: &str) -> String {
        let url = Url::parse(url).unwrap();
        layout.relative_path(&url).to_str().unwrap().to_string()
    }

    fn path(url: &str) -> String {
        rel(Layout::new(), url)
    }

    #[test]
    fn host_and_port_as_wget_writes_them() {
        assert_eq!(path("http://example.com/a"), "example.com/a");
        assert_eq!(path("http://example.com:80/a"), "example.com/a");
        assert_eq!(path("https://example.com:443/a"), "example.com/a");
        assert_eq!(path("https://example.com:80/a"), "example.com:80/a");
        assert_eq!(path("http://example.com:8080/a"), "example.com:8080/a");
        assert_eq!(path("http://[::1]:8080/a"), "[::1]:8080/a");
        assert_eq!(path("http://127.0.0.1/a"), "127.0.0.1/a");
        assert_eq!(
            path("http://bücher.example/"),
            "xn--bcher-kva.example/index.html"
        );
    }

    #[test]
    fn trailing_slash_is_index_html_and_queries_stay_in_the_name() {
        assert_eq!(path("http://h/"), "h/index.html");
        assert_eq!(path("http://h"), "h/index.html");
        assert_eq!(path("http://h/dir/"), "h/dir/index.html");
        assert_eq!(path("http://h/p?x=1"), "h/p?x=1");
        assert_eq!(path("http://h/?a=b"), "h/index.html?a=b");
        assert_eq!(path("http://h/p?"), "h/p?");
        assert_eq!(path("http://h/p#frag"), "h/p");
        assert_eq!(path("http://h/p?a=1&b=%26&c=/x"), "h/p?a=1&b=%26&c=%2Fx");
    }

    #[test]
    fn layouts_nh_and_nd() {
        let url = "http://h:81/a/b/c.html?q";
        assert_eq!(rel(Layout::new(), url), "h:81/a/b/c.html?q");
        assert_eq!(
            rel(Layout::new().host_directories(false), url),
            "a/b/c.html?q"
        );
        assert_eq!(rel(Layout::new().directories(false), url), "c.html?q");
        assert_eq!(
            rel(Layout::new().directories(false).directories(true), url),
            "h:81/a/b/c.html?q"
        );
        assert_eq!(
            rel(Layout::new().host_directories(false), "http://h/"),
            "index.html"
        );
    }

    #[test]
    fn escapes_are_decoded_for_readable_names() {
        assert_eq!(path("http://h/caf%C3%A9"), "h/café");
        assert_eq!(path("http://h/caf%c3%a9"), "h/café");
        assert_eq!(path("http://h/a%20b"), "h/a b");
        assert_eq!(path("http://h/%7Euser/%41"), "h/~user/A");
        assert_eq!(path("http://h/?q=%C3%A9t%C3%A9"), "h/index.html?q=été");
        assert_eq!(path("http://h/日本"), "h/日本");
    }

    #[test]
    fn unsafe_octets_stay_escaped() {
        assert_eq!(path("http://h/a%2Fb"), "h/a%2Fb");
        assert_eq!(path("http://h/a%2fb"), "h/a%2Fb");
        assert_eq!(path("http://h/a%00b"), "h/a%00b");
        assert_eq!(path("http://h/a%0A%09%7F"), "h/a%0A%09%7F");
        assert_eq!(path("http://h/a%C2%85"), "h/a%C2%85");
        assert_eq!(path("http://h/x%E2%80%AEgpj.exe"), "h/x%E2%80%AEgpj.exe");
        assert_eq!(path("http://h/a%3Fb"), "h/a%3Fb");
        assert_eq!(path("http://h/?a%2Fb"), "h/index.html?a%2Fb");
        // Not UTF-8: kept escaped so the name stays printable.
        assert_eq!(path("http://h/%FF%C3"), "h/%FF%C3");
        assert_eq!(path("http://h/%C3%A9%FF"), "h/é%FF");
    }

    #[test]
    fn escapes_that_differ_from_their_raw_form_stay_escaped() {
        assert_eq!(path("http://h/a%3Bb"), "h/a%3Bb");
        assert_eq!(path("http://h/a;b"), "h/a;b");
        assert_eq!(path("http://h/?a%26b"), "h/index.html?a%26b");
        assert_eq!(path("http://h/?a&b"), "h/index.html?a&b");
        assert_eq!(path("http://h/%25"), "h/%");
        assert_eq!(path("http://h/%zz%"), "h/%zz%");
        assert_eq!(path("http://h/%25zz%25"), "h/%zz%");
        // A `%` before hex digits would read as an escape.
        assert_eq!(path("http://h/%2541"), "h/%2541");
        assert_eq!(path("http://h/%%34%31"), "h/%2541");
        assert_ne!(path("http://h/%2541"), path("http://h/%41"));
        assert_ne!(path("http://h/%253B"), path("http://h/%3B"));
        assert_eq!(path("http://h/?%253B"), "h/index.html?%253B");
    }

    // The issue: `..`, `%2e%2e`, absolute paths, NUL and long names are
    // neutralised and the page still has a name inside the prefix.
    #[test]
    fn dot_segments_and_empty_segments_are_neutralised() {
        assert_eq!(path("http://h/a/../../../etc/passwd"), "h/etc/passwd");
        assert_eq!(path("http://h/%2e%2e/%2E%2E/x"), "h/x");
        assert_eq!(path("http://h/.%2e/x"), "h/x");
        assert_eq!(path("http://h/a//b"), "h/a/%20/b");
        assert_eq!(path("http://h//"), "h/%20/index.html");
        assert_eq!(path("http://../x"), "%2E%2E/x");
        assert_eq!(path("http://%2e%2e/x"), "%2E%2E/x");
        assert_eq!(path("http://./x"), "%2E/x");
        assert_eq!(neutral("..".into()), "%2E%2E");
        assert_eq!(neutral(".".into()), "%2E");
        assert_eq!(neutral("".into()), "%20");
        assert_eq!(encode("..", Part::Path), "..");
        assert_eq!(encode("%2e%2E", Part::Path), "..");
        assert_eq!(neutral(encode("%2e%2E", Part::Path)), "%2E%2E");
        // Whatever the url crate leaves, no component is special.
        for url in [
            "http://h/..",
            "http://h/.",
            "http://h/a/..%2f..%2fetc",
            "file:///etc/passwd",
        ] {
            let url = Url::parse(url).unwrap();
            assert_only_normal(&Layout::new().relative_path(&url));
        }
        assert_eq!(path("http://h/a/..%2f..%2fetc"), "h/a/..%2F..%2Fetc");
    }

    #[test]
    fn other_schemes_still_get_a_safe_name() {
        assert_eq!(path("mailto:a@b.example"), "%20/a@b.example");
        assert_eq!(path("file:///etc/passwd"), "%20/etc/passwd");
        assert_eq!(path("foo://h/a/../b?x"), "h/b?x");
        assert_eq!(path("data:text/plain,a/b"), "%20/text%2Fplain,a%2Fb");
    }

    #[test]
    fn long_names_are_cut_with_a_hash() {
        let long = "a".repeat(300);
        let p = path(&format!("http://h/{long}/x"));
        let names: Vec<&str> = p.split('/').collect();
        assert_eq!(names.len(), 3);
        assert!(names[1].len() <= NAME_MAX);
        assert!(names[1].starts_with(&"a".repeat(200)));
        assert!(names[1].contains(MARK));
        let other = path(&format!("http://h/{}b/x", "a".repeat(299)));
        assert_ne!(p, other);
        // Exactly the limit is not cut.
        assert_eq!(
            path(&format!("http://h/{}", "b".repeat(255))),
            format!("h/{}", "b".repeat(255))
        );
        let cut = path(&format!("http://h/{}", "b".repeat(256)));
        assert_eq!(cut.len() - 2, NAME_MAX);
        // A long query is part of the file's name and is cut with it.
        let q = path(&format!("http://h/p?{}", "q".repeat(1000)));
        assert!(q.len() - 2 <= NAME_MAX && q.starts_with("h/p?qqq"));
    }

    #[test]
    fn cuts_never_split_an_escape_or_a_character() {
        assert_eq!(head("ab%2F", 4), "ab");
        assert_eq!(head("ab%2F", 3), "ab");
        assert_eq!(head("ab%2F", 5), "ab%2F");
        assert_eq!(head("aé", 2), "a");
        assert_eq!(head("a%zz", 2), "a%");
        for n in 1..300 {
            let name = format!("{}{}", "é".repeat(n % 7), "%2F".repeat(120));
            let cut = fit(name.clone());
            assert!(cut.len() <= NAME_MAX, "{n}");
            let head = cut.strip_suffix(&cut[cut.len() - HASH_HEX..]).unwrap();
            let head = head.strip_suffix(MARK).unwrap_or(head);
            assert!(name.starts_with(head));
            assert!(head.is_empty() || !head.ends_with('%'));
        }
    }

    #[test]
    fn long_paths_fold_under_max_path() {
        let deep = format!("http://h{}/file.html", "/dir".repeat(2000));
        let p = Layout::new().relative_path(&Url::parse(&deep).unwrap());
        assert!(p.as_os_str().len() <= MAX_PATH);
        assert_only_normal(&p);
        let p2 = Layout::new().relative_path(
            &Url::parse(&format!("http://h{}/other.html", "/dir".repeat(2000))).unwrap(),
        );
        assert_ne!(p, p2);
        assert_eq!(p.parent(), p2.parent());
        // Long names and long paths together.
        let wide = format!("http://h{}", format!("/{}", "w".repeat(250)).repeat(40));
        let p = Layout::new().relative_path(&Url::parse(&wide).unwrap());
        assert!(p.as_os_str().len() <= MAX_PATH);
        assert!(p.iter().all(|n| n.len() <= NAME_MAX));
    }

    fn assert_only_normal(p: &Path) {
        assert!(p.components().count() > 0, "{p:?}");
        for c in p.components() {
            match c {
                Component::Normal(n) => {
                    let n = n.to_str().unwrap();
                    assert!(n != "." && n != ".." && !n.is_empty(), "{p:?}");
                    assert!(n.len() <= NAME_MAX, "{p:?}");
                    assert!(!n.contains('\0') && !n.contains('/'), "{p:?}");
                    assert!(!n.chars().any(unsafe_char), "{p:?}");
                }
                other => panic!("{other:?} in {p:?}"),
            }
        }
        assert!(p.as_os_str().len() <= MAX_PATH, "{p:?}");
    }

    /// What two URLs must differ in to get different files: their
    /// components with unreserved escapes decoded and hex in upper case
    /// (RFC 3986 6.2.2), `/` and `%2F` alike in the query, and `index.html`
    /// for an empty last segment. This is the documented aliasing.
    /// A component as `(kept escape?, octet)` pairs.
    type Key = Vec<(bool, u8)>;

    fn key(url: &Url) -> (String, Vec<Key>, Option<Key>) {
        // (true, b): an escape that stays one; (false, b): a plain octet.
        fn norm(s: &str, query: bool) -> Key {
            let b = s.as_bytes();
            let mut out = Vec::new();
            let mut i = 0;
            while i < b.len() {
                let esc = match (b[i], b.get(i + 1), b.get(i + 2)) {
                    (b'%', Some(&h), Some(&l)) => {
                        hex_value(h).zip(hex_value(l)).map(|(h, l)| h << 4 | l)
                    }
                    _ => None,
                };
                match esc {
                    Some(v) => {
                        let plain = v.is_ascii_alphanumeric()
                            || matches!(v, b'-' | b'.' | b'_' | b'~' | b'%')
                            || (query && v == b'/');
                        out.push((!plain, v));
                        i += 3;
                    }
                    None => {
                        out.push((false, b[i]));
                        i += 1;
                    }
                }
            }
            out
        }
        let mut segs: Vec<Key> = url
            .path_segments()
            .unwrap()
            .map(|s| norm(s, false))
            .collect();
        if segs.last().is_some_and(|s| s.is_empty()) {
            *segs.last_mut().unwrap() = norm("index.html", false);
        }
        let host = format!("{}:{:?}", url.host_str().unwrap_or(""), url.port());
        (host, segs, url.query().map(|q| norm(q, true)))
    }

    fn segment() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        prop_oneof![
            1 => Just(String::new()),
            1 => Just(".".to_string()),
            1 => Just("..".to_string()),
            1 => Just("%2e%2E".to_string()),
            1 => Just("index.html".to_string()),
            // Every printable ASCII character but `#`, which would start
            // the fragment.
            8 => "[ -\"$-~]{0,10}",
            4 => "(%[0-9a-fA-F]{2}|%|[a-z~._-]|[\\x00-\\x1f\\x7f]|é|\u{202e}){0,12}",
            2 => proptest::collection::vec(any::<u8>(), 0..8).prop_map(|v| v.iter().map(|b| format!("%{b:02x}")).collect()),
            1 => "[a-c]{250,300}",
        ]
    }

    fn url_strategy() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        (
            proptest::collection::vec(segment(), 0..6),
            proptest::option::of(segment()),
            proptest::bool::ANY,
        )
            .prop_map(|(segs, query, slash)| {
                let mut url = format!("http://h.example/{}", segs.join("/"));
                if slash {
                    url.push('/');
                }
                if let Some(q) = query {
                    url.push('?');
                    url.push_str(&q.replace('#', "%23"));
                }
                url
            })
    }

    /// `url` changed in small ways where collisions hide: one character
    /// escaped, one escape decoded, or a token that looks like a marker put
    /// in. Each edit is `(kind, position, token)`.
    fn twin(url: &str, edits: &[(u8, usize, usize)]) -> String {
        const TOKENS: [&str; 12] = [
            "/",
            "//",
            "%20",
            "%2E",
            "%2E%2E",
            "x",
            "%25",
            "%",
            "?",
            "%7E",
            "index.html",
            "%2F",
        ];
        let (head, rest) = url.split_at("http://h.example".len());
        let mut rest: Vec<char> = rest.chars().collect();
        for &(kind, pos, token) in edits {
            if rest.is_empty() {
                break;
            }
            let i = pos % rest.len();
            match kind % 3 {
                0 if rest[i] != '%' && rest[i].is_ascii() && !rest[i].is_ascii_control() => {
                    let hex = if pos % 2 == 0 {
                        format!("%{:02X}", rest[i] as u8)
                    } else {
                        format!("%{:02x}", rest[i] as u8)
                    };
                    rest.splice(i..=i, hex.chars());
                }
                1 if rest[i] == '%' && i + 2 < rest.len() => {
                    let hex: String = rest[i + 1..i + 3].iter().collect();
                    if let Ok(v) = u8::from_str_radix(&hex, 16) {
                        if (0x21..0x7f).contains(&v) && v != b'#' {
                            rest.splice(i..i + 3, [v as char]);
                        }
                    }
                }
                _ => {
                    let i = i.max(1);
                    rest.splice(i..i, TOKENS[token % TOKENS.len()].chars());
                }
            }
        }
        let rest: String = rest.into_iter().collect();
        format!("{head}{rest}")
    }

    proptest::proptest! {
        // Collisions are rare among random twins: many cases, cheap ones.
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(10000))]

        // Twins differ in one escape or one marker-like token: a file for
        // each unless they are the same page by the documented aliasing.
        #[test]
        fn twins_get_different_files_unless_aliases(
            raw in url_strategy(),
            edits in proptest::collection::vec((0u8..3, 0usize..1000, 0usize..100), 1..4),
        ) {
            let other = twin(&raw, &edits);
            if let (Ok(a), Ok(b)) = (Url::parse(&raw), Url::parse(&other)) {
                let layout = Layout::new();
                if key(&a) != key(&b) {
                    proptest::prop_assert_ne!(layout.relative_path(&a), layout.relative_path(&b), "{} {}", a, b);
                } else {
                    proptest::prop_assert_eq!(layout.relative_path(&a), layout.relative_path(&b), "{} {}", a, b);
                }
            }
        }
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        // The issue's property: whatever the URL, a relative path of plain,
        // short, NUL-free names.
        #[test]
        fn relative_paths_are_always_safe(raw in url_strategy(), nh in proptest::bool::ANY, nd in proptest::bool::ANY) {
            if let Ok(url) = Url::parse(&raw) {
                let layout = Layout::new().host_directories(!nh).directories(!nd);
                assert_only_normal(&layout.relative_path(&url));
            }
        }

        #[test]
        fn arbitrary_octets_never_escape(bytes in proptest::collection::vec(proptest::prelude::any::<u8>(), 0..64)) {
            let raw = String::from_utf8_lossy(&bytes);
            for url in [format!("http://h/{raw}"), format!("http://h/?{raw}"), format!("http://{raw}/x")] {
                if let Ok(url) = Url::parse(&url) {
                    assert_only_normal(&Layout::new().relative_path(&url));
                }
            }
        }

        // Different URLs, different files, apart from the documented aliases.
        #[test]
        fn the_default_layout_is_one_to_one(a in url_strategy(), b in url_strategy()) {
            if let (Ok(a), Ok(b)) = (Url::parse(&a), Url::parse(&b)) {
                let layout = Layout::new();
                if key(&a) != key(&b) {
                    proptest::prop_assert_ne!(layout.relative_path(&a), layout.relative_path(&b), "{} {}", a, b);
                } else {
                    proptest::prop_assert_eq!(layout.relative_path(&a), layout.relative_path(&b), "{} {}", a, b);
                }
            }
        }

        // Pairs that differ in one place are where collisions hide.
        #[test]
        fn near_twins_get_different_files(base in url_strategy(), s1 in segment(), s2 in segment()) {
            let (a, b) = (format!("{base}/{s1}"), format!("{base}/{s2}"));
            if let (Ok(a), Ok(b)) = (Url::parse(&a), Url::parse(&b)) {
                if key(&a) != key(&b) {
                    let layout = Layout::new();
                    proptest::prop_assert_ne!(layout.relative_path(&a), layout.relative_path(&b), "{} {}", a, b);
                }
            }
        }
    }

    #[cfg(unix)]
    mod disk {
        use super::super::*;
        use std::fs;
        use std::io::Write;
        use std::os::unix::fs::symlink;

        fn url(s: &str) -> Url {
            Url::parse(s).unwrap()
        }

        fn write(mirror: &Mirror, u: &str, body: &str) -> PathBuf {
            let (path, mut file) = mirror.create(&url(u)).unwrap();
            file.write_all(body.as_bytes()).unwrap();
            path
        }

        fn tree(root: &Path) -> Vec<(String, String)> {
            // A loop, not recursion: the deep-path test makes 1,800 levels.
            let mut out = Vec::new();
            let mut todo = vec![root.to_path_buf()];
            while let Some(dir) = todo.pop() {
                for e in fs::read_dir(&dir).unwrap() {
                    let e = e.unwrap();
                    let p = e.path();
                    let ft = e.file_type().unwrap();
                    let rel = p.strip_prefix(root).unwrap().to_str().unwrap().to_string();
                    if ft.is_dir() {
                        todo.push(p);
                    } else if ft.is_symlink() {
                        out.push((rel, format!("-> {}", fs::read_link(&p).unwrap().display())));
                    } else {
                        out.push((rel, fs::read_to_string(&p).unwrap()));
                    }
                }
            }
            out.sort();
            out
        }

        fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
            v.iter()
                .map(|(a, b)| (a.to_string(), b.to_string()))
                .collect()
        }

        #[test]
        fn mirror_is_send_and_sync() {
            fn check<T: Send + Sync>() {}
            check::<Mirror>();
        }

        #[test]
        fn pages_land_where_wget_puts_them() {
            let dir = tempfile::tempdir().unwrap();
            let m = Mirror::new(dir.path(), Layout::new()).unwrap();
            assert_eq!(
                write(&m, "http://h/", "root"),
                dir.path().join("h/index.html")
            );
            write(&m, "http://h/a/b.html?x=1", "b");
            write(&m, "http://h:8080/c", "c");
            assert_eq!(
                tree(dir.path()),
                pairs(&[
                    ("h/a/b.html?x=1", "b"),
                    ("h/index.html", "root"),
                    ("h:8080/c", "c")
                ])
            );
        }

        // The issue: nothing written outside the prefix, and the page is
        // still saved inside it.
        #[test]
        fn hostile_urls_are_saved_inside_the_prefix() {
            let outer = tempfile::tempdir().unwrap();
            let prefix = outer.path().join("prefix");
            let m = Mirror::new(&prefix, Layout::new()).unwrap();
            for (i, u) in [
                "http://h/../../escape",
                "http://h/%2e%2e/%2e%2e/escape2",
                "http://../escape",
                "http://h/..%2f..%2fescape",
                "http://h/a%00b",
                "http://h//etc/passwd",
            ]
            .iter()
            .enumerate()
            {
                let path = write(&m, u, &i.to_string());
                assert!(path.starts_with(&prefix), "{path:?}");
                assert_eq!(fs::read_to_string(&path).unwrap(), i.to_string());
            }
            let long = format!("http://h/{}", "x".repeat(5000));
            let path = write(&m, &long, "long");
            assert!(path.starts_with(&prefix));
            let deep = format!("http://h{}", "/d".repeat(3000));
            let path = write(&m, &deep, "deep");
            assert!(path.starts_with(&prefix));
            assert_eq!(fs::read_dir(outer.path()).unwrap().count(), 1);
            assert_eq!(tree(&prefix).len(), 8);
        }

        #[test]
        fn a_page_saved_again_replaces_its_file() {
            let dir = tempfile::tempdir().unwrap();
            let m = Mirror::new(dir.path(), Layout::new()).unwrap();
            write(&m, "http://h/a", "first, longer");
            write(&m, "http://h/a", "second");
            assert_eq!(tree(dir.path()), pairs(&[("h/a", "second")]));
            // A new Mirror on the same prefix (a resumed crawl) too.
            let m = Mirror::new(dir.path(), Layout::new()).unwrap();
            write(&m, "http://h/a", "third");
            assert_eq!(tree(dir.path()), pairs(&[("h/a", "third")]));
        }

        #[test]
        fn file_then_directory_keeps_both_pages() {
            let dir = tempfile::tempdir().unwrap();
            let m = Mirror::new(dir.path(), Layout::new()).unwrap();
            assert_eq!(write(&m, "http://h/a", "page a"), dir.path().join("h/a"));
            assert_eq!(
                write(&m, "http://h/a/b", "page b"),
                dir.path().join("h/a/b")
            );
            assert_eq!(
                write(&m, "http://h/a/c/d", "page d"),
                dir.path().join("h/a/c/d")
            );
            let expected = pairs(&[
                ("h/a/%2E", "page a"),
                ("h/a/b", "page b"),
                ("h/a/c/d", "page d"),
            ]);
            assert_eq!(tree(dir.path()), expected);
            // Saved again, `/a` goes where it now lives.
            assert_eq!(
                write(&m, "http://h/a", "page a2"),
                dir.path().join("h/a/%2E")
            );
        }

        #[test]
        fn directory_then_file_keeps_both_pages() {
            let dir = tempfile::tempdir().unwrap();
            let m = Mirror::new(dir.path(), Layout::new()).unwrap();
            write(&m, "http://h/a/b", "page b");
            assert_eq!(
                write(&m, "http://h/a", "page a"),
                dir.path().join("h/a/%2E")
            );
            write(&m, "http://h/a/", "page a/");
            assert_eq!(
                tree(dir.path()),
                pairs(&[
                    ("h/a/%2E", "page a"),
                    ("h/a/b", "page b"),
                    ("h/a/index.html", "page a/")
                ])
            );
        }

        #[test]
        fn save_is_atomic_and_handles_conflicts_too() {
            let dir = tempfile::tempdir().unwrap();
            let m = Mirror::new(dir.path(), Layout::new()).unwrap();
            let (p, n) = m.save(&url("http://h/a"), &mut &b"page a"[..]).unwrap();
            assert_eq!((p, n), (dir.path().join("h/a"), 6));
            m.save(&url("http://h/a/b"), &mut &b"page b"[..]).unwrap();
            let (p, _) = m.save(&url("http://h/a"), &mut &b"page a2"[..]).unwrap();
            assert_eq!(p, dir.path().join("h/a/%2E"));
            assert_eq!(
                tree(dir.path()),
                pairs(&[("h/a/%2E", "page a2"), ("h/a/b", "page b")])
            );
        }

        #[test]
        fn a_failed_save_leaves_no_temporary_file_and_the_old_copy() {
            struct Broken;
            impl io::Read for Broken {
                fn read(&mut self, _: &mut [u8]) -> io::Result<usize> {
                    Err(io::Error::other("connection reset"))
                }
            }
            let dir = tempfile::tempdir().unwrap();
            let m = Mirror::new(dir.path(), Layout::new()).unwrap();
            m.save(&url("http://h/a"), &mut &b"good"[..]).unwrap();
            assert!(m.save(&url("http://h/a"), &mut Broken).is_err());
            assert_eq!(tree(dir.path()), pairs(&[("h/a", "good")]));
        }

        #[test]
        fn a_body_written_while_the_name_became_a_directory_still_lands() {
            // `save` places the page again after the body is written.
            let dir = tempfile::tempdir().unwrap();
            let m = Mirror::new(dir.path(), Layout::new()).unwrap();
            struct Meanwhile<'a>(&'a Mirror, bool);
            impl io::Read for Meanwhile<'_> {
                fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
                    if self.1 {
                        return Ok(0);
                    }
                    self.1 = true;
                    self.0
                        .save(&Url::parse("http://h/a/b").unwrap(), &mut &b"page b"[..])?;
                    buf[..6].copy_from_slice(b"page a");
                    Ok(6)
                }
            }
            let (p, _) = m
                .save(&url("http://h/a"), &mut Meanwhile(&m, false))
                .unwrap();
            assert_eq!(p, dir.path().join("h/a/%2E"));
            assert_eq!(
                tree(dir.path()),
                pairs(&[("h/a/%2E", "page a"), ("h/a/b", "page b")])
            );
        }

        // The issue: a symlink planted inside the prefix is not followed out.
        #[test]
        fn planted_symlinks_are_never_followed() {
            let outer = tempfile::tempdir().unwrap();
            let outside = outer.path().join("outside");
            fs::create_dir(&outside).unwrap();
            fs::write(outside.join("victim"), "precious").unwrap();
            let prefix = outer.path().join("prefix");
            fs::create_dir_all(prefix.join("h")).unwrap();
            // A symlinked directory on the way, and a symlinked file.
            symlink(&outside, prefix.join("h/dir")).unwrap();
            symlink(outside.join("victim"), prefix.join("h/file")).unwrap();
            symlink(&outside, prefix.join("h2")).unwrap();
            let m = Mirror::new(&prefix, Layout::new()).unwrap();
            write(&m, "http://h/dir/victim", "page");
            write(&m, "http://h/file", "page");
            m.save(&url("http://h2/victim"), &mut &b"page"[..]).unwrap();
            assert_eq!(
                fs::read_to_string(outside.join("victim")).unwrap(),
                "precious"
            );
            assert_eq!(fs::read_dir(&outside).unwrap().count(), 1);
            assert_eq!(
                tree(&prefix),
                pairs(&[
                    ("h/dir/%2E", &format!("-> {}", outside.display())),
                    ("h/dir/victim", "page"),
                    ("h/file", "page"),
                    ("h2/%2E", &format!("-> {}", outside.display())),
                    ("h2/victim", "page"),
                ])
            );
        }

        #[test]
        fn a_symlink_at_the_file_name_is_replaced_not_written_through() {
            let outer = tempfile::tempdir().unwrap();
            let victim = outer.path().join("victim");
            fs::write(&victim, "precious").unwrap();
            let prefix = outer.path().join("p");
            fs::create_dir_all(prefix.join("h")).unwrap();
            symlink(&victim, prefix.join("h/x")).unwrap();
            // And a hard link, which O_NOFOLLOW alone would not stop.
            fs::hard_link(&victim, prefix.join("h/y")).unwrap();
            let m = Mirror::new(&prefix, Layout::new()).unwrap();
            write(&m, "http://h/x", "page x");
            write(&m, "http://h/y", "page y");
            assert_eq!(fs::read_to_string(&victim).unwrap(), "precious");
            assert_eq!(
                tree(&prefix),
                pairs(&[("h/x", "page x"), ("h/y", "page y")])
            );
        }

        #[test]
        fn a_fifo_at_the_file_name_does_not_hang() {
            let dir = tempfile::tempdir().unwrap();
            fs::create_dir_all(dir.path().join("h")).unwrap();
            rustix::fs::mkfifoat(
                rustix::fs::CWD,
                dir.path().join("h/f"),
                rustix::fs::Mode::from_raw_mode(0o644),
            )
            .unwrap();
            let m = Mirror::new(dir.path(), Layout::new()).unwrap();
            write(&m, "http://h/f", "page");
            assert_eq!(tree(dir.path()), pairs(&[("h/f", "page")]));
            // Under -nd a fifo is someone else's name: skipped, not opened.
            rustix::fs::mkfifoat(
                rustix::fs::CWD,
                dir.path().join("g"),
                rustix::fs::Mode::from_raw_mode(0o644),
            )
            .unwrap();
            let nd = Mirror::new(dir.path(), Layout::new().directories(false)).unwrap();
            assert_eq!(write(&nd, "http://h/g", "page g"), dir.path().join("g.1"));
        }

        #[test]
        fn nd_numbers_clashing_names_like_wget() {
            let dir = tempfile::tempdir().unwrap();
            let m = Mirror::new(dir.path(), Layout::new().directories(false)).unwrap();
            assert_eq!(
                write(&m, "http://h/a/x.html", "a"),
                dir.path().join("x.html")
            );
            assert_eq!(
                write(&m, "http://h/b/x.html", "b"),
                dir.path().join("x.html.1")
            );
            assert_eq!(
                write(&m, "http://g/x.html", "g"),
                dir.path().join("x.html.2")
            );
            assert_eq!(write(&m, "http://h/", "i"), dir.path().join("index.html"));
            assert_eq!(
                write(&m, "http://h/c/", "c"),
                dir.path().join("index.html.1")
            );
            // The same URL again: the same file, overwritten.
            assert_eq!(
                write(&m, "http://h/b/x.html", "b2"),
                dir.path().join("x.html.1")
            );
            assert_eq!(
                tree(dir.path()),
                pairs(&[
                    ("index.html", "i"),
                    ("index.html.1", "c"),
                    ("x.html", "a"),
                    ("x.html.1", "b2"),
                    ("x.html.2", "g"),
                ])
            );
        }

        // The issue: a resumed crawl re-saves a page over its own file.
        #[test]
        fn nd_resumed_crawl_overwrites_the_same_file() {
            let dir = tempfile::tempdir().unwrap();
            let layout = Layout::new().directories(false);
            {
                let m = Mirror::new(dir.path(), layout).unwrap();
                write(&m, "http://h/a/x.html", "a");
                write(&m, "http://h/b/x.html", "b");
                m.save(&url("http://h/c/x.html"), &mut &b"c"[..]).unwrap();
            }
            let m = Mirror::new(dir.path(), layout).unwrap();
            assert_eq!(
                write(&m, "http://h/b/x.html", "b2"),
                dir.path().join("x.html.1")
            );
            let (p, _) = m.save(&url("http://h/c/x.html"), &mut &b"c2"[..]).unwrap();
            assert_eq!(p, dir.path().join("x.html.2"));
            assert_eq!(
                write(&m, "http://h/d/x.html", "d"),
                dir.path().join("x.html.3")
            );
            assert_eq!(
                write(&m, "http://h/a/x.html", "a2"),
                dir.path().join("x.html")
            );
            // A file the mirror did not write is never clobbered.
            fs::write(dir.path().join("y.html"), "mine").unwrap();
            assert_eq!(
                write(&m, "http://h/y.html", "page"),
                dir.path().join("y.html.1")
            );
            assert_eq!(
                fs::read_to_string(dir.path().join("y.html")).unwrap(),
                "mine"
            );
        }

        #[test]
        fn nd_suffixes_keep_long_names_short() {
            let dir = tempfile::tempdir().unwrap();
            let m = Mirror::new(dir.path(), Layout::new().directories(false)).unwrap();
            let name = "n".repeat(255);
            let a = write(&m, &format!("http://h/a/{name}"), "a");
            let b = write(&m, &format!("http://h/b/{name}"), "b");
            assert_eq!(a.file_name().unwrap().len(), 255);
            let b = b.file_name().unwrap().to_str().unwrap().to_string();
            assert!(b.len() <= NAME_MAX && b.ends_with(".1"), "{b}");
        }

        #[test]
        fn concurrent_saves_lose_no_page() {
            let dir = tempfile::tempdir().unwrap();
            for layout in [Layout::new(), Layout::new().directories(false)] {
                let m = Mirror::new(dir.path().join(format!("{}", layout.dirs)), layout).unwrap();
                std::thread::scope(|s| {
                    for t in 0..4 {
                        let m = &m;
                        s.spawn(move || {
                            for i in 0..25 {
                                let u = match i % 3 {
                                    0 => format!("http://h/d{t}/{i}/x"),
                                    1 => format!("http://h/d{t}/{i}"),
                                    _ => format!("http://h/d{t}/{}/x/y", i - 2),
                                };
                                m.save(&url(&u), &mut u.as_bytes()).unwrap();
                            }
                        });
                    }
                });
                let files = tree(m.prefix());
                assert_eq!(files.len(), 100, "{layout:?}");
                let mut bodies: Vec<_> = files.into_iter().map(|(_, b)| b).collect();
                bodies.sort();
                bodies.dedup();
                assert_eq!(bodies.len(), 100);
            }
        }
    }
}
