"""What the adapters share: reading the agent a caller of urllib or Scrapy
passes, which ``Robots`` would refuse when it can match only ``*`` groups."""

from typing import Dict, Union

from ._norobots import agent_warning, robot_token


class AgentReader:
    """Turns whatever agent a caller passes into one ``Robots`` accepts,
    remembering each answer.

    ``urllib.robotparser`` and Scrapy take any string (or, from Scrapy,
    the ``User-Agent`` header's ``bytes``) and never refuse one. The
    ``google`` dialect compares a bare product token, so a whole header
    is cut to its robot's token, as ``norobots.robot_token`` reads it. In
    every dialect an agent that can name no group (empty, no token) asks
    for the ``*`` groups, which is what it would get anyway.
    """

    def __init__(self, dialect: str) -> None:
        self.dialect = dialect
        self._seen: Dict[Union[str, bytes], str] = {}

    def __call__(self, agent: Union[str, bytes]) -> str:
        try:
            return self._seen[agent]
        except KeyError:
            pass
        text = agent.decode("latin-1") if isinstance(agent, bytes) else str(agent)
        if self.dialect == "google":
            text = robot_token(text)
        read = text if text and agent_warning(text, self.dialect) is None else "*"
        if len(self._seen) < 64:
            self._seen[agent] = read
        return read
