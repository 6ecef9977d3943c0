"""The faces talk to agents through its doors only: services and selectors (the monitoring
package's too), the models, errors and messages. No step (router, writing, guard, llm, the outbox,
…) is imported by the desk, the API, its serializers, the admin or Telegram, so a face cannot grow
business logic of its own, and agents can move its insides without touching one."""

from __future__ import annotations

import ast
from pathlib import Path

import newsdesk

NEWSDESK = Path(newsdesk.__file__).parent
FACES = [
    *sorted((NEWSDESK / "desk").rglob("*.py")),
    *sorted((NEWSDESK / "telegram").rglob("*.py")),
    NEWSDESK / "api.py",
    NEWSDESK / "serializers.py",
    NEWSDESK / "admin.py",
]
DOORS = ("services", "selectors", "models", "errors", "messages")


def agents_imports(source: str) -> list[str]:
    """Every agents module a source file imports, at the top or inside a function."""
    found: list[str] = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found += [alias.name for alias in node.names if alias.name.split(".")[0] == "agents"]
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "agents":
            if node.module in ("agents", "agents.monitoring", "agents.services"):  # `from agents import x`
                found += [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                found.append(node.module)
    return found


def allowed(module: str) -> bool:
    parts = module.split(".")[1:]
    if parts[:1] == ["monitoring"]:
        parts = parts[1:]
    return bool(parts) and parts[0] in DOORS


def test_the_faces_are_the_modules_this_test_reads() -> None:
    assert all(path.is_file() for path in FACES)
    assert {path.parent.name for path in FACES} >= {"desk", "views", "presenters", "telegram", "newsdesk"}


def test_no_face_imports_agents_past_its_doors() -> None:
    offending = {
        f"{path.relative_to(NEWSDESK.parent)}: {module}"
        for path in FACES
        for module in agents_imports(path.read_text(encoding="utf-8"))
        if not allowed(module)
    }

    assert not offending, sorted(offending)


def test_the_rule_catches_a_step_imported_at_the_top_or_inside_a_function() -> None:
    source = (
        "from agents.chat.router import route\n"
        "from agents import llm, selectors\n"
        "import agents.chat.selection\n"
        "from agents.verification.guard import split_sentences\n"
        "from agents.sources import files\n"
        "def f():\n    from agents.monitoring import schedules\n"
    )

    assert [m for m in agents_imports(source) if not allowed(m)] == [
        "agents.chat.router",
        "agents.llm",
        "agents.chat.selection",
        "agents.verification.guard",
        "agents.sources",
        "agents.monitoring.schedules",
    ]
    assert allowed("agents.services.conversation") and allowed("agents.monitoring.selectors")
    assert allowed("agents.services.work") and allowed("agents.models.runs") and allowed("agents.errors")
