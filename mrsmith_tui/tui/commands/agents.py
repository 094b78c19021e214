"""The agents family: /agents, /agent, /skills, /tasks, /reasoning — who works, with what, on what."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.commands.registry import CommandContext, SlashCommand, session_of
from mrsmith_tui.tui.model import Model, agent_fields, counted


class AgentsCommand(SlashCommand[str]):
    """`/agents` lists them here and focuses the panel (update); `/agents ID` and `/agents stop ID` are
    answered by update alone."""

    name = "/agents"
    usage = "[ID | stop ID]"
    summary = "the agents; focus the panel, open one, or stop one"
    rank = 50

    def complete(self, model: Model, arg: str) -> tuple[str, ...]:
        ids = tuple(r.agent_id for r in model.sidebar.agents)
        if arg.startswith("stop "):
            return tuple(f"/agents stop {i}" for i in ids if i.startswith(arg[5:]) and i != arg[5:])
        return tuple(f"/agents {p}" for p in ("stop", *ids) if p.startswith(arg) and p != arg)

    def run(self, ctx: CommandContext, args: str) -> None:
        session = session_of(ctx)
        current = session.agent.name
        lines = ["Agents"] + [f"{'●' if a.name == current else '○'} {a.name}  {a.provider}/{a.model}"
                              for a in ctx.config.agents]
        fleet = session.services.fleet
        records = fleet.list() if fleet is not None else []
        if records:
            lines += ["", "Background agents · in the panel: ↑/↓ select, Enter open, x stop · /agents stop ID"]
            for r in records:
                lines.append(f"{r.agent_id}  {r.label}  {r.state} · {r.elapsed():.0f}s · {counted(r.tool_calls, 'tool call')}")
        elif fleet is None:
            lines += ["", "(background agents are not available in this build)"]
        ctx.note("\n".join(lines))


@dataclass(frozen=True)
class AgentChoice:
    name: str
    keep: bool  # go on with this conversation


class AgentCommand(SlashCommand[AgentChoice]):
    """`/agent NAME` starts a new session on that agent; `/agent NAME --keep` keeps the conversation."""

    name = "/agent"
    usage = "<name> [--keep]"
    summary = "a new session on another agent (--keep: go on with this conversation)"
    rank = 60
    waits_for_run = True

    def parse(self, arg: str) -> AgentChoice:
        words = arg.split()
        return AgentChoice(name=" ".join(w for w in words if w != "--keep"), keep="--keep" in words)

    def argument_choices(self, model: Model) -> tuple[str, ...]:
        return model.agents_known

    def run(self, ctx: CommandContext, args: AgentChoice) -> None:
        session = session_of(ctx)
        session.switch_agent(args.name)  # an unknown name raises before anything changes
        if not args.keep:
            session.reset()
            ctx.emit(ui.Cleared)
        ctx.emit(ui.AgentSwitched, **agent_fields(session.agent))


class SkillsCommand(SlashCommand[str]):
    name = "/skills"
    usage = "[name]"
    summary = "list skills, or load one"
    rank = 70

    def run(self, ctx: CommandContext, args: str) -> None:
        catalog = session_of(ctx).services.skills
        if catalog is None:
            ctx.note("skills are not available in this build", "warning")
            return
        if not args:
            skills = catalog.list()
            if not skills:
                ctx.note("no skills found (./skills or ~/.config/mrsmith/skills)")
                return
            lines = ["Skills (* loaded) · /skills NAME loads one"] + [
                f"{'*' if catalog.is_loaded(s.name) else ' '} {s.name}  {s.description}" for s in skills]
            ctx.note("\n".join(lines))
            return
        already = catalog.is_loaded(args)
        skill = catalog.load(args)  # its on_load puts the body in the context and records it, once
        ctx.note(f"skill {skill.name} {'was already loaded' if already else 'loaded'}")


class TasksCommand(SlashCommand[str]):
    name = "/tasks"
    summary = "the task list"
    rank = 80
    needs_session = False
    answered_on_screen = True  # from the sidebar's list (update/commands.py)


@dataclass(frozen=True)
class EffortChoice:
    effort: str | None  # None: the model's default
    show: bool = False  # no argument: say what it is now


class ReasoningCommand(SlashCommand[EffortChoice]):
    name = "/reasoning"
    usage = "[value|off]"
    summary = "reasoning effort"
    rank = 100

    def parse(self, arg: str) -> EffortChoice:
        arg = arg.strip()
        if not arg:
            return EffortChoice(effort=None, show=True)
        return EffortChoice(effort=None if arg == "off" else arg)

    def run(self, ctx: CommandContext, args: EffortChoice) -> None:
        session = session_of(ctx)
        if args.show:
            current = ctx.model.ledger.effort or session.agent.reasoning_effort
            ctx.note(f"reasoning effort: {current or 'model default'} · /reasoning <value|off>")
            return
        session.set_reasoning_effort(args.effort)
        ctx.emit(ui.EffortChanged, effort=args.effort)


COMMANDS: tuple[SlashCommand[Any], ...] = (AgentsCommand(), AgentCommand(), SkillsCommand(), TasksCommand(),
                                           ReasoningCommand())
