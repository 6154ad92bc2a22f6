"""robots.txt for Python crawlers, read by the norobots Rust library.

``Robots`` parses a file once and answers for any robot and URL;
``is_allowed`` answers one question; ``meta`` reads what a page says to a
robot (META robots, ``X-Robots-Tag``, ``rel="nofollow"``). Two adapters
sit on top: ``norobots.robotparser.RobotFileParser``, with the API of
``urllib.robotparser``, and ``norobots.scrapy.RobotParser`` for Scrapy's
``ROBOTSTXT_PARSER``.

Files are read in one of four dialects, named as the ``norobots`` command
line names them (``DIALECTS``): ``norobots1994``, ``draft1996``, ``rfc9309``
(``DEFAULT_DIALECT``) and ``google``.

>>> import norobots
>>> robots = norobots.Robots(b"User-agent: *\\nDisallow: /private/\\nSitemap: https://example.com/s.xml\\n")
>>> robots.is_allowed("MyBot/1.0", "https://example.com/private/x")
False
>>> robots.allowed_many("MyBot", ["/", "/private/", "/public"])
[True, False, True]
>>> robots.sitemaps
['https://example.com/s.xml']
"""

from ._norobots import (
    DEFAULT_DIALECT,
    DIALECTS,
    Explanation,
    InternalError,
    Link,
    PageDirectives,
    Robots,
    __version__,
    agent_warning,
    is_allowed,
    meta,
    robot_token,
)

__all__ = [
    "DEFAULT_DIALECT",
    "DIALECTS",
    "Explanation",
    "InternalError",
    "Link",
    "PageDirectives",
    "Robots",
    "__version__",
    "agent_warning",
    "is_allowed",
    "meta",
    "robot_token",
]
