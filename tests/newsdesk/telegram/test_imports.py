"""The Telegram face talks to agents through services and selectors only: no step (router, context,
writing, guard, llm, …) is imported here, so the chat cannot grow business logic of its own."""

from __future__ import annotations

import ast
from pathlib import Path

import newsdesk.telegram

FACE = Path(newsdesk.telegram.__file__).parent
# services and selectors (the monitoring package's too), the models, and the two pieces of plumbing
# the face's own tasks share with agents' (the outbox that publishes tasks, the row claims).
ALLOWED = ("services", "selectors", "models", "outbox", "claims")


def agents_imports(source: str) -> list[str]:
    """Every agents module a source file imports, at the top or inside a function."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.split(".")[0] == "agents"]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "agents":
            if node.module in ("agents", "agents.monitoring"):  # `from agents import selectors`
                found += [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                found.append(node.module)
    return found


def allowed(module: str) -> bool:
    if module in (
        "agents.work",
        "agents.work.outbox",
        "agents.work.ownership",
    ):  # until the face uses services
        return True
    parts = module.split(".")[1:]
    if parts[:1] == ["monitoring"]:
        parts = parts[1:]
    return bool(parts) and parts[0] in ALLOWED


def test_no_module_of_the_telegram_face_imports_an_agent_step() -> None:
    offending = {
        f"{path.name}: {module}"
        for path in sorted(FACE.rglob("*.py"))
        for module in agents_imports(path.read_text(encoding="utf-8"))
        if not allowed(module)
    }

    assert not offending, sorted(offending)


def test_the_rule_catches_a_step_imported_at_the_top_or_inside_a_function() -> None:
    source = (
        "from agents.chat.router import route\n"
        "from agents import llm, selectors\n"
        "import agents.chat.selection\n"
        "def f():\n    from agents.monitoring import schedules\n"
    )

    assert [m for m in agents_imports(source) if not allowed(m)] == [
        "agents.chat.router",
        "agents.llm",
        "agents.chat.selection",
        "agents.monitoring.schedules",
    ]
    assert allowed("agents.services.conversation") and allowed("agents.monitoring.selectors")
