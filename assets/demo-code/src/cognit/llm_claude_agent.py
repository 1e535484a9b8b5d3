# Sample code bundled with quizz's demo quiz (written for it; MIT, like quizz).
# An LLM adapter that gets structured output from the local `claude` CLI.
"""LLM adapter backed by the Claude Agent SDK, which drives the `claude` CLI."""

from __future__ import annotations

import asyncio
import logging
from typing import Any, Awaitable, Callable

from claude_agent_sdk import (
    ClaudeAgentOptions,
    ClaudeSDKError,
    CLIConnectionError,
    CLINotFoundError,
    ProcessError,
    create_sdk_mcp_server,
    query,
    tool,
)

log = logging.getLogger(__name__)

ToolArgs = dict[str, Any]
ToolHandler = Callable[[ToolArgs], Awaitable[dict[str, Any]]]

SERVER_NAME = "quizz"


class ClaudeAgentLLM:
    """Asks Claude for structured output by having it call a single MCP tool."""

    def __init__(self, model: str = "claude-sonnet-4-5", max_turns: int = 4) -> None:
        self.model = model
        self.max_turns = max_turns

    def generate_quiz(self, prompt: str, schema: dict[str, Any]) -> ToolArgs:
        """Return the quiz Claude submits through the `submit_quiz` tool."""
        args = self._invoke_tool(prompt, "submit_quiz", "Submit the finished quiz.", schema)
        if args is None:
            raise RuntimeError("claude did not call submit_quiz")
        return args

    def grade_answer(self, prompt: str, schema: dict[str, Any]) -> ToolArgs:
        """Return the grade Claude submits through the `submit_grade` tool."""
        args = self._invoke_tool(prompt, "submit_grade", "Submit the grade.", schema)
        if args is None:
            raise RuntimeError("claude did not call submit_grade")
        return args

    def _invoke_tool(
        self, prompt: str, tool_name: str, description: str, schema: dict[str, Any]
    ) -> ToolArgs | None:
        """Run the agent once; return the args of its first `tool_name` call, or None."""
        captured: list[ToolArgs] = []

        async def handler(args: ToolArgs) -> dict[str, Any]:
            captured.append(args)
            return {"content": [{"type": "text", "text": "ok"}]}

        sdk_tool = tool(tool_name, description, schema)(handler)
        server = create_sdk_mcp_server(name=SERVER_NAME, tools=[sdk_tool])
        options = ClaudeAgentOptions(
            model=self.model,
            max_turns=self.max_turns,
            mcp_servers={SERVER_NAME: server},
            # Tool names follow the MCP scheme mcp__<server>__<tool>; the server above
            # holds this one tool.
            allowed_tools=[f"mcp__{SERVER_NAME}__{tool_name}"],
        )
        try:
            self._drain_agent(prompt, options, handler)
        except CLINotFoundError:
            log.error("claude CLI not found; install it or set ANTHROPIC_API_KEY")
            return None
        except CLIConnectionError as e:
            log.error("could not connect to the claude CLI: %s", e)
            return None
        except ProcessError as e:
            log.error("claude CLI exited with %s: %s", e.exit_code, e.stderr)
            return None
        except ClaudeSDKError as e:
            log.error("claude agent SDK error: %s", e)
            return None
        except Exception as e:
            # Anything else the SDK raises ends the call the same way: logged,
            # and no arguments.
            log.error("claude agent failed: %s", e)
            return None
        if not captured:
            log.warning("claude replied in text instead of calling %s", tool_name)
            return None
        return captured[0]

    def _drain_agent(
        self, prompt: str, options: ClaudeAgentOptions, handler: ToolHandler
    ) -> None:
        """Run the agent to completion; the SDK calls the tool through the MCP server.

        Returns once the message stream is exhausted; whatever the tool received
        is in the caller's `captured` list by then.
        """
        del handler

        async def _drain() -> None:
            async for _message in query(prompt=prompt, options=options):
                pass

        asyncio.run(_drain())
