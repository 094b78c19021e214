"""What the drop-in tool tests share: tool sources, a scripted approver, a tree with both folders."""

from __future__ import annotations

from pathlib import Path

from mrsmith_tui.cancel import CancelToken
from mrsmith_tui.security.trust_store import TrustStore
from mrsmith_tui.tools.base import ToolContext
from mrsmith_tui.tools.dropin.service import DropInTools
from mrsmith_tui.tools.dropin.tool import RunSettings

GOOD = '''NAME = "shout"
DESCRIPTION = "Shout the text back in capitals."
PARAMETERS = {"type": "object", "properties": {"text": {"type": "string"}}, "required": ["text"]}


def run(args):
    print("noise on stdout goes to stderr")
    return args["text"].upper() + "!"
'''


def tool_source(name: str, body: str = 'return "ok"', description: str = "A tool.") -> str:
    return (f'NAME = "{name}"\nDESCRIPTION = "{description}"\n'
            'PARAMETERS = {"type": "object", "properties": {}}\n\n\ndef run(args):\n    ' + body + "\n")


class Approver:
    def __init__(self, *answers: str) -> None:
        self.answers = list(answers)
        self.queries: list = []

    def approve(self, query):
        self.queries.append(query)
        return self.answers.pop(0) if self.answers else "no"

    def confirm_continue(self, rounds, agent_id=None):
        return False

    def ask(self, questions, agent_id=None):
        return None


class Env:
    def __init__(self, tmp_path: Path) -> None:
        self.root = (tmp_path / "root")
        self.root.mkdir()
        self.root = self.root.resolve()
        self.user = tmp_path / "user-tools"
        self.user.mkdir()
        self.project = self.root / ".mrsmith" / "tools"
        self.store = TrustStore(tmp_path / "state" / "trusted.json")
        self.said: list = []

    def service(self, mode: str = "stored", approver=None, timeout: float = 30.0, reserved=("shell", "read_file")) -> DropInTools:
        return DropInTools(root=self.root, user_dir=self.user, mode=mode, approver=approver, emit=self.said.append,
                           settings=RunSettings(timeout=timeout), reserved=lambda: reserved, store=self.store)

    def warnings(self) -> list[str]:
        return [m.text for m in self.said if type(m).__name__ == "Warning"]

    def ctx(self) -> ToolContext:
        return ToolContext(root=self.root, cancel=CancelToken(), approver=None)  # type: ignore[arg-type]

    def user_tool(self, file: str, text: str | bytes) -> Path:
        path = self.user / file
        path.write_bytes(text.encode() if isinstance(text, str) else text)
        return path

    def project_tool(self, file: str, text: str) -> Path:
        self.project.mkdir(parents=True, exist_ok=True)
        path = self.project / file
        path.write_text(text)
        return path


