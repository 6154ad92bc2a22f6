//! From a reader to lines: gzip detection, and line splitting in one
//! reused buffer, so that memory does not grow with the log or with its
//! longest line.

use std::io::{self, BufReader, Cursor, Read};

use memchr::memchr;

use super::{Auditor, CutShort};

/// The gzip magic number (RFC 1952, 2.3.1).
const GZIP_MAGIC: [u8; 2] = [0x1f, 0x8b];

/// Big enough that a read system call moves a lot of log at once.
const CHUNK: usize = 1 << 20;

/// The largest line buffer, whatever `max_line_len` asks.
const MAX_BUFFER: usize = 1 << 28;

/// What was read: octets of input and of log text, whether it was gzip,
/// and where a gzip stream ended early.
#[derive(Clone, Copy, Debug, Default)]
pub(super) struct InputCounts {
    pub input_bytes: u64,
    pub text_bytes: u64,
    pub gzip: bool,
    pub cut_short: Option<CutShort>,
}

/// What [`split_lines`] read: octets of text, and where the input ended
/// early, if it did.
struct Lines {
    bytes: u64,
    cut_short: Option<CutShort>,
}

/// A reader that counts what passes through it.
struct Counting<R> {
    inner: R,
    count: u64,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.count += n as u64;
        Ok(n)
    }
}

/// Feeds every line of `reader` (plain or gzip, told by its first two
/// octets) to `auditor`.
pub(super) fn feed_reader(auditor: &mut Auditor, reader: impl Read) -> io::Result<InputCounts> {
    let mut counting = Counting {
        inner: reader,
        count: 0,
    };
    let mut magic = [0u8; 2];
    let got = read_up_to(&mut counting, &mut magic)?;
    let gzip = magic[..got] == GZIP_MAGIC;
    // Put the two octets back in front of the rest.
    let input = Cursor::new(magic).take(got as u64).chain(counting);
    let (lines, input) = if gzip {
        // `MultiGzDecoder`: rotated logs are often several gzip members
        // concatenated (`cat access.log.*.gz`, or `gzip` appending).
        let buffered = BufReader::with_capacity(256 * 1024, input);
        let mut decoder = flate2::bufread::MultiGzDecoder::new(buffered);
        let lines = split_lines(auditor, &mut decoder, true)?;
        (lines, decoder.into_inner().into_inner())
    } else {
        let mut input = input;
        let lines = split_lines(auditor, &mut input, false)?;
        (lines, input)
    };
    Ok(InputCounts {
        input_bytes: input.into_inner().1.count,
        text_bytes: lines.bytes,
        gzip,
        cut_short: lines.cut_short,
    })
}

/// Reads until `buf` is full or the input ends; how many octets were read.
fn read_up_to(reader: &mut impl Read, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match reader.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

/// Splits `reader` into lines and feeds them; returns the octets read.
///
/// A line longer than the buffer is reported as too long and skipped up to
/// its line break, so one runaway line cannot make the buffer grow.
///
/// A gzip stream (`gzip`) that ends before its end (the decoder's
/// `UnexpectedEof`) is a log cut short, not a failure: the lines before
/// the cut stand, and the cut one is dropped. A corrupt stream, or any
/// other read error, is an error.
fn split_lines(auditor: &mut Auditor, reader: &mut impl Read, gzip: bool) -> io::Result<Lines> {
    let size = auditor
        .options
        .max_line_len
        .saturating_mul(2)
        .clamp(CHUNK, MAX_BUFFER);
    let mut buf = vec![0u8; size];
    let (mut end, mut total, mut line_no, mut skipping) = (0usize, 0u64, 0u64, false);
    loop {
        if end == buf.len() {
            // A full buffer without a line break: the line is too long.
            if !skipping {
                line_no += 1;
                auditor.too_long(line_no);
                skipping = true;
            }
            end = 0;
        }
        // The line being read if the input fails now, so that whoever
        // mends the log knows where.
        let reading = line_no + u64::from(!skipping);
        let n = match reader.read(&mut buf[end..]) {
            Ok(n) => n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) if gzip && e.kind() == io::ErrorKind::UnexpectedEof => {
                let cut = CutShort {
                    line: reading,
                    text_offset: total,
                };
                return Ok(Lines {
                    bytes: total,
                    cut_short: Some(cut),
                });
            }
            Err(e) => return Err(on_line(e, reading)),
        };
        if n == 0 {
            break;
        }
        total += n as u64;
        let (scan_from, filled) = (end, end + n);
        let consumed = feed_complete_lines(
            auditor,
            &buf[..filled],
            scan_from,
            &mut line_no,
            &mut skipping,
        );
        buf.copy_within(consumed..filled, 0);
        end = filled - consumed;
    }
    if end > 0 && !skipping {
        line_no += 1;
        auditor.feed_line(&buf[..end], line_no);
    }
    Ok(Lines {
        bytes: total,
        cut_short: None,
    })
}

/// `error`, prefixed with the line it came on: `line 12: corrupt deflate
/// stream`.
fn on_line(error: io::Error, line: u64) -> io::Error {
    io::Error::new(error.kind(), format!("line {line}: {error}"))
}

/// Feeds every complete line of `buf` (whose first `scan_from` octets are
/// known to hold no line break) and returns where the incomplete rest
/// starts.
fn feed_complete_lines(
    auditor: &mut Auditor,
    buf: &[u8],
    scan_from: usize,
    line_no: &mut u64,
    skipping: &mut bool,
) -> usize {
    let mut start = 0;
    let mut search = scan_from;
    while let Some(off) = memchr(b'\n', &buf[search..]) {
        let nl = search + off;
        if *skipping {
            // The end of a line already reported as too long.
            *skipping = false;
        } else {
            *line_no += 1;
            auditor.feed_line(&buf[start..nl], *line_no);
        }
        start = nl + 1;
        search = start;
    }
    start
}
