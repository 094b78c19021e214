"""question: ask the person one or more multiple-choice questions and wait for the answers."""

from __future__ import annotations

from typing import Any

from mrsmith_tui.msgs import Question, QuestionOption
from mrsmith_tui.tools.base import BaseTool, ToolContext, ToolResult

NO_PERSON = "no person is available to answer; decide yourself, state the assumption, and go on"


class QuestionTool(BaseTool):
    name = "question"
    read_only = True
    description = (
        "Ask the person when a decision is theirs (a choice between designs, which of several files, whether "
        "to go ahead with something risky) and you cannot settle it from the code. Give each question "
        "2-5 short options with a description where useful; the person may also type their own answer. "
        "Set multiple: true when several options may be chosen. Do not ask what you can find out yourself."
    )
    parameters = {
        "type": "object",
        "properties": {
            "questions": {
                "type": "array",
                "items": {
                    "type": "object",
                    "properties": {
                        "question": {"type": "string"},
                        "options": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "properties": {"label": {"type": "string"}, "description": {"type": "string"}},
                                "required": ["label"],
                            },
                        },
                        "multiple": {"type": "boolean"},
                    },
                    "required": ["question", "options"],
                },
            }
        },
        "required": ["questions"],
        "additionalProperties": False,
    }

    def summary(self, args: dict[str, Any]) -> str:
        qs = args.get("questions")
        if isinstance(qs, list) and qs and isinstance(qs[0], dict) and isinstance(qs[0].get("question"), str):
            question: str = qs[0]["question"]
            return question.splitlines()[0][:200]
        return ""

    def run(self, args: dict[str, Any], ctx: ToolContext) -> ToolResult:
        raw = args.get("questions")
        if not isinstance(raw, list) or not raw:
            return ToolResult.error("questions must be a non-empty list of {question, options, multiple?}")
        questions = []
        for n, q in enumerate(raw, start=1):
            if not isinstance(q, dict) or not isinstance(q.get("question"), str) or not q["question"].strip():
                return ToolResult.error(f"questions[{n}] needs a non-empty `question` string")
            options = q.get("options", [])
            if not isinstance(options, list):
                return ToolResult.error(f"questions[{n}].options must be a list of {{label, description?}}")
            parsed = []
            for m, o in enumerate(options, start=1):
                if not isinstance(o, dict) or not isinstance(o.get("label"), str) or not o["label"].strip():
                    return ToolResult.error(f"questions[{n}].options[{m}] needs a non-empty `label`")
                description = o.get("description", "")
                parsed.append(QuestionOption(label=o["label"], description=description if isinstance(description, str) else ""))
            questions.append(Question(question=q["question"], options=tuple(parsed), multiple=bool(q.get("multiple", False))))
        answer = None if ctx.approver is None else ctx.approver.ask(tuple(questions), ctx.agent_id)
        if answer is None:
            return ToolResult(content=NO_PERSON)
        return ToolResult(content=f"The person answered:\n{answer}")
