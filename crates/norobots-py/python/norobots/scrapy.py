"""A robots.txt parser for Scrapy, through norobots.

In a project's ``settings.py``::

    ROBOTSTXT_OBEY = True
    ROBOTSTXT_PARSER = "norobots.scrapy.RobotParser"
    NOROBOTS_DIALECT = "rfc9309"   # optional: any of norobots.DIALECTS

Scrapy's ``RobotsTxtMiddleware`` then asks ``RobotParser.allowed`` for each
request, with ``ROBOTSTXT_USER_AGENT`` or the request's ``User-Agent``
header; the robot is the header's product token (``Scrapy/2.11
(+https://scrapy.org)`` is ``Scrapy``).

>>> from norobots.scrapy import RobotParser
>>> parser = RobotParser.from_crawler(None, b"User-agent: *\\nDisallow: /private/\\n")
>>> parser.allowed("https://example.com/private/a", b"Scrapy/2.11 (+https://scrapy.org)")
False
>>> parser.allowed("https://example.com/public", "Scrapy/2.11 (+https://scrapy.org)")
True
>>> parser.crawl_delay("Scrapy") is None
True
"""

from typing import Any, Optional, Union

from ._compat import AgentReader
from ._norobots import DEFAULT_DIALECT, Robots

try:
    from scrapy.robotstxt import RobotParser as _ScrapyRobotParser
except ImportError:  # Scrapy is not installed: the class still works alone.
    _ScrapyRobotParser = object  # type: ignore[assignment,misc]

__all__ = ["RobotParser"]


class RobotParser(_ScrapyRobotParser):
    """Scrapy's ``scrapy.robotstxt.RobotParser`` interface over ``norobots.Robots``.

    ``robotstxt_body`` is the file as served (``bytes``; read as octets,
    whatever its encoding), ``dialect`` one of ``norobots.DIALECTS``.
    """

    def __init__(
        self,
        robotstxt_body: Union[bytes, str, None],
        spider: Any = None,
        dialect: str = DEFAULT_DIALECT,
    ) -> None:
        self.spider = spider
        self.robots = Robots(robotstxt_body or b"", dialect)
        self._agent = AgentReader(self.robots.dialect)

    @classmethod
    def from_crawler(cls, crawler: Any, robotstxt_body: Union[bytes, str, None]) -> "RobotParser":
        """The parser for one site's robots.txt; the dialect is the
        crawler's ``NOROBOTS_DIALECT`` setting (default ``rfc9309``)."""
        spider: Optional[Any] = None
        dialect = DEFAULT_DIALECT
        if crawler is not None:
            spider = getattr(crawler, "spider", None)
            dialect = crawler.settings.get("NOROBOTS_DIALECT", DEFAULT_DIALECT)
        return cls(robotstxt_body, spider, dialect)

    def allowed(self, url: Union[str, bytes], user_agent: Union[str, bytes]) -> bool:
        """Whether the robot ``user_agent`` (a token or a whole header,
        ``str`` or ``bytes``) may fetch ``url``."""
        return self.robots.is_allowed(self._agent(user_agent), url)

    def crawl_delay(self, user_agent: Union[str, bytes]) -> Optional[float]:
        """The ``Crawl-delay`` for the robot ``user_agent`` in seconds, or
        ``None`` (the method Scrapy 2.18 added to the interface)."""
        return self.robots.crawl_delay(self._agent(user_agent))
