"""``urllib.robotparser`` with norobots underneath.

``RobotFileParser`` has the methods of the standard library's class and
behaves as it does around them: ``read()`` fetches with
``urllib.request.urlopen`` and takes HTTP 401 and 403 as "disallow all",
other 4xx as "allow all", and any other failure as nothing read yet, in
which state ``can_fetch`` answers ``False``; ``mtime()``, ``modified()``,
``site_maps()`` (``None`` when there are none), ``crawl_delay()`` and
``request_rate()`` (``None`` before anything was read) answer as the
standard library's do. Replacing the import is enough::

    from norobots.robotparser import RobotFileParser

The rules themselves are read by a dialect of norobots, ``rfc9309`` unless
``dialect=`` says otherwise, so some answers differ from the standard
library's (longest match, wildcards, ``%``-encoding, agent matching): the
package's README has the table.

>>> from norobots.robotparser import RobotFileParser
>>> rp = RobotFileParser()
>>> rp.parse(["User-agent: *", "Disallow: /", "Allow: /public/", "Crawl-delay: 0.5"])
>>> rp.can_fetch("MyBot", "https://example.com/public/page.html")
True
>>> rp.can_fetch("MyBot", "https://example.com/private")
False
>>> rp.crawl_delay("MyBot")
0.5
>>> print(rp.site_maps())
None
"""

import time
import urllib.error
import urllib.parse
import urllib.request
from typing import Iterable, List, Optional, Union
from urllib.robotparser import RequestRate

from ._compat import AgentReader
from ._norobots import DEFAULT_DIALECT, Robots

__all__ = ["RequestRate", "RobotFileParser"]


def _without_line_end(line: bytes) -> bytes:
    if line.endswith(b"\n"):
        line = line[:-1]
    if line.endswith(b"\r"):
        line = line[:-1]
    return line


class RobotFileParser:
    """One site's robots.txt: read it, then ask it.

    ``url`` is the file's URL, for ``read()``; ``dialect`` one of
    ``norobots.DIALECTS`` (an unknown one raises ``ValueError``).

    >>> rp = RobotFileParser("https://example.com/robots.txt", dialect="google")
    >>> rp.host, rp.path, rp.dialect
    ('example.com', '/robots.txt', 'google')
    >>> rp.can_fetch("MyBot", "/")   # nothing read yet
    False
    """

    def __init__(self, url: str = "", dialect: str = DEFAULT_DIALECT) -> None:
        # Checked (and spelled as norobots spells it) now, not at the first read.
        self.dialect: str = Robots(b"", dialect).dialect
        self.disallow_all: bool = False
        self.allow_all: bool = False
        self.last_checked: float = 0
        self.robots: Optional[Robots] = None
        self._agent = AgentReader(self.dialect)
        self.set_url(url)

    def mtime(self) -> float:
        """When the file was last read (``time.time()``), 0 if never.

        >>> RobotFileParser().mtime()
        0
        """
        return self.last_checked

    def modified(self) -> None:
        """Sets the time the file was last read to now."""
        self.last_checked = time.time()

    def set_url(self, url: str) -> None:
        """Sets the URL of the robots.txt file, and ``host`` and ``path``."""
        self.url = url
        self.host, self.path = urllib.parse.urlparse(url)[1:3]

    def read(self) -> None:
        """Fetches the file at ``url`` and reads it.

        401 and 403 make every URL disallowed, any other 4xx every URL
        allowed; a 5xx leaves the parser unread (``can_fetch`` answers
        ``False``). Other errors (no connection, a bad URL) propagate, as
        from the standard library. The body is read as octets: a file that
        is not UTF-8 is read, not refused.
        """
        try:
            response = urllib.request.urlopen(self.url)
        except urllib.error.HTTPError as err:
            if err.code in (401, 403):
                self.disallow_all = True
            elif 400 <= err.code < 500:
                self.allow_all = True
            err.close()
        else:
            with response:
                self._read_body(response.read())

    def parse(self, lines: Iterable[Union[str, bytes]]) -> None:
        """Reads the file from its lines: ``str`` or ``bytes``, with or
        without their line ends (``splitlines()`` or ``readlines()``).

        >>> rp = RobotFileParser()
        >>> rp.parse("User-agent: *\\nDisallow: /tmp/\\n".splitlines())
        >>> rp.can_fetch("MyBot", "/tmp/x"), rp.can_fetch("MyBot", "/x")
        (False, True)
        """
        octets = [
            line if isinstance(line, bytes) else str(line).encode("utf-8", "surrogateescape")
            for line in lines
        ]
        self._read_body(b"\n".join(_without_line_end(line) for line in octets))

    def _read_body(self, body: Union[str, bytes]) -> None:
        self.modified()
        self.robots = Robots(body, self.dialect)

    def can_fetch(self, useragent: str, url: str) -> bool:
        """Whether ``useragent`` may fetch ``url`` (a URL or a path).

        ``useragent`` is a product token or a whole User-Agent header;
        one that names no robot gets the ``*`` groups.

        >>> rp = RobotFileParser()
        >>> rp.parse(["User-agent: MyBot", "Disallow: /*.pdf$", "", "User-agent: *", "Disallow: /"])
        >>> rp.can_fetch("MyBot/1.0 (+https://example.com/bot)", "https://example.com/a.pdf")
        False
        >>> rp.can_fetch("MyBot", "https://example.com/a.html"), rp.can_fetch("", "/a.html")
        (True, False)
        """
        if self.disallow_all:
            return False
        if self.allow_all:
            return True
        if not self.last_checked:
            return False
        if self.robots is None:
            return True
        return self.robots.is_allowed(self._agent(useragent), url)

    def crawl_delay(self, useragent: str) -> Optional[Union[int, float]]:
        """The ``Crawl-delay`` for ``useragent`` in seconds, or ``None``.

        An ``int`` when it is a whole number of seconds, as from the
        standard library, which reads no other; a ``float`` otherwise.

        >>> rp = RobotFileParser()
        >>> rp.parse(["User-agent: *", "Disallow: /tmp/", "Crawl-delay: 10", "",
        ...           "User-agent: MyBot", "Disallow: /private/", "Crawl-delay: 0.5"])
        >>> rp.crawl_delay("OtherBot"), rp.crawl_delay("MyBot")
        (10, 0.5)
        """
        if not self.mtime() or self.robots is None:
            return None
        delay = self.robots.crawl_delay(self._agent(useragent))
        if delay is not None and delay.is_integer():
            return int(delay)
        return delay

    def request_rate(self, useragent: str) -> Optional[RequestRate]:
        """The ``Request-rate`` for ``useragent``, or ``None``.

        >>> rp = RobotFileParser()
        >>> rp.parse(["User-agent: *", "Request-rate: 3/20"])
        >>> rp.request_rate("MyBot")
        RequestRate(requests=3, seconds=20)
        """
        if not self.mtime() or self.robots is None:
            return None
        rate = self.robots.request_rate(self._agent(useragent))
        return None if rate is None else RequestRate(*rate)

    def site_maps(self) -> Optional[List[str]]:
        """The ``Sitemap`` URLs, or ``None`` when there are none.

        >>> rp = RobotFileParser()
        >>> rp.parse(["Sitemap: https://example.com/s.xml"])
        >>> rp.site_maps()
        ['https://example.com/s.xml']
        """
        if self.robots is None:
            return None
        return self.robots.sitemaps or None

    def __str__(self) -> str:
        """The file as read (the standard library prints its own reading)."""
        if self.robots is None:
            return ""
        return self.robots.body.decode("utf-8", "replace")
