"""/model: the provider's models, and switching the current agent's model for the next request."""

from __future__ import annotations

import difflib
from typing import Any

from mrsmith_tui.errors import message_of
from mrsmith_tui.tui import model as ui
from mrsmith_tui.tui.commands.registry import CommandContext, SlashCommand, session_of
from mrsmith_tui.tui.model import Model, agent_fields

LISTED = 60  # models named in the note; the rest are counted (Tab completes them all)


class ModelCommand(SlashCommand[str]):
    """`/model` lists the models (from the server where it can say, else the configured ones);
    `/model NAME` switches this agent to NAME from the next request on (the history is kept)."""

    name = "/model"
    usage = "[name]"
    summary = "list the provider's models, or switch this agent's model"
    rank = 65
    waits_for_run = True
    in_worker = True  # asking the server for its list is network

    def argument_choices(self, model: Model) -> tuple[str, ...]:
        return tuple(m for m in model.models_known if m != model.ledger.model)

    def run(self, ctx: CommandContext, args: str) -> None:
        session = session_of(ctx)
        if args:
            def switch(_token: Any) -> str:
                session.set_model(args)  # switched even when the server does not list it: the person may know better
                ctx.emit_later(ui.AgentSwitched, **agent_fields(session.agent))
                done = f"model {args} from the next request (agent {session.agent.name})"
                try:
                    models = session.list_models()
                except Exception:  # a server that cannot list its models: nothing to check against
                    return done
                ctx.emit_later(ui.ModelsKnown, models=tuple(models))
                return done + unlisted(args, models)

            ctx.run_in_worker(switch)
            return

        def listing(_token: Any) -> str:
            current = session.agent.model
            configured = sorted({a.model for a in ctx.config.agents} | {current})
            try:
                models, source = session.list_models(), "the server lists"
            except Exception as e:  # a server without /models: the configured names still complete
                models, source = configured, f"the server cannot list them ({message_of(e)}); configured"
            ctx.emit_later(ui.ModelsKnown, models=tuple(models))
            lines = [f"Models · {source} · ● current · /model NAME switches (Tab completes)"]
            lines += [f"{'●' if m == current else '○'} {m}" for m in models[:LISTED]]
            if len(models) > LISTED:
                lines.append(f"… and {len(models) - LISTED} more")
            return "\n".join(lines)

        ctx.run_in_worker(listing)


def unlisted(name: str, models: list[str]) -> str:
    """What the switch line adds when the server's list lacks `name`: the closest names it has."""
    if not models or name in models:
        return ""
    close = difflib.get_close_matches(name, models, n=3, cutoff=0.4)
    if close:
        return f" · the server does not list it; closest: {', '.join(close)}"
    return f" · the server does not list it (/model lists its {len(models)})"


COMMANDS: tuple[SlashCommand[Any], ...] = (ModelCommand(),)
