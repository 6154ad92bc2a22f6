"""Type stubs of the extension module; ``norobots`` re-exports all of it."""

from typing import Any, Dict, Final, Iterable, List, Optional, Sequence, Tuple, Union

_Octets = Union[str, bytes, bytearray]

DEFAULT_DIALECT: Final[str]
DIALECTS: Final[Tuple[str, ...]]
__version__: Final[str]

class InternalError(RuntimeError):
    """A bug in norobots (a Rust panic), raised instead of crashing the interpreter."""

class Robots:
    """A parsed robots.txt file: ask it whether a robot may fetch a URL."""

    def __init__(self, body: _Octets, dialect: str = "rfc9309") -> None: ...
    def is_allowed(self, agent: str, url: _Octets) -> bool:
        """Whether ``agent`` may fetch ``url``."""
    def allowed_many(self, agent: str, urls: Iterable[_Octets]) -> List[bool]:
        """``is_allowed`` for each of ``urls``, matched with the GIL released."""
    def explain(self, agent: str, url: _Octets) -> Explanation:
        """Whether ``agent`` may fetch ``url``, and the rule that decided."""
    def crawl_delay(self, agent: str) -> Optional[float]:
        """The ``Crawl-delay`` for ``agent`` in seconds, or ``None``."""
    def request_rate(self, agent: str) -> Optional[Tuple[int, int]]:
        """The ``Request-rate`` for ``agent`` as ``(requests, seconds)``, or ``None``."""
    @property
    def sitemaps(self) -> List[str]:
        """The ``Sitemap`` URLs, in file order."""
    @property
    def dialect(self) -> str:
        """The dialect the file was read in."""
    @property
    def body(self) -> bytes:
        """The octets that were read."""

class Explanation:
    """Why a URL is allowed or not: what ``Robots.explain`` answers."""

    @property
    def allowed(self) -> bool: ...
    @property
    def rule(self) -> Optional[str]:
        """The deciding rule as written (``"Disallow: /tmp/"``), ``None`` if none matched."""
    @property
    def kind(self) -> Optional[str]:
        """``"Allow"`` or ``"Disallow"``."""
    @property
    def pattern(self) -> Optional[str]:
        """The rule's path pattern as written."""
    @property
    def line(self) -> Optional[int]:
        """The rule's line in the file."""
    @property
    def group(self) -> Optional[int]:
        """The line of the first ``User-agent`` of the rule's group."""
    @property
    def agents(self) -> List[str]:
        """The agents the rule's group names."""

class PageDirectives:
    """What a page allows a robot: what ``meta`` answers."""

    @property
    def index(self) -> bool: ...
    @property
    def follow(self) -> bool: ...
    @property
    def noindex(self) -> bool: ...
    @property
    def nofollow(self) -> bool: ...
    @property
    def other(self) -> List[str]: ...
    @property
    def document_state(self) -> Optional[str]: ...
    @property
    def url(self) -> Optional[str]: ...
    @property
    def keywords(self) -> Optional[str]: ...
    @property
    def description(self) -> Optional[str]: ...
    @property
    def base(self) -> Optional[str]: ...
    @property
    def links(self) -> List[Link]: ...
    def to_dict(self) -> Dict[str, Any]:
        """The object ``norobots meta --json`` prints."""

class Link:
    """A link of a page."""

    @property
    def href(self) -> str: ...
    @property
    def nofollow(self) -> bool: ...
    @property
    def follow(self) -> bool: ...
    @property
    def kind(self) -> str: ...

def is_allowed(body: _Octets, agent: str, url: _Octets, dialect: str = "rfc9309") -> bool:
    """Whether ``agent`` may fetch ``url`` under the robots.txt ``body``."""

def meta(
    html: _Octets, agent: str, x_robots_tag: Union[str, Sequence[str]] = ...
) -> PageDirectives:
    """What a page tells a robot, as ``norobots meta``."""

def robot_token(user_agent: str) -> str:
    """The robot's product token in a User-Agent header."""

def agent_warning(agent: str, dialect: str = "rfc9309") -> Optional[str]:
    """What ``norobots check`` warns about ``agent``, or ``None``."""

def _panic_for_tests() -> None: ...
