# Sample code bundled with quizz's demo quiz (written for it; MIT, like quizz).
# The `cognit take` command: answer a quiz, with open answers graded by an LLM.
"""Take a quiz in the terminal and have the open answers graded."""

from __future__ import annotations

import argparse
import json
import os
import sys
from typing import Any, Protocol

from cognit.llm_anthropic import AnthropicLLM
from cognit.llm_claude_agent import ClaudeAgentLLM

GRADE_SCHEMA: dict[str, Any] = {"score": float, "feedback": str}


class LLM(Protocol):
    def grade_answer(self, prompt: str, schema: dict[str, Any]) -> dict[str, Any]: ...


def _make_llm(model: str | None) -> LLM:
    """Use the Anthropic API when a key is set, else the local `claude` CLI."""
    kwargs = {"model": model} if model else {}
    if os.environ.get("ANTHROPIC_API_KEY"):
        return AnthropicLLM(**kwargs)
    return ClaudeAgentLLM(**kwargs)


def _grade_open(llm: LLM, question: dict[str, Any], answer: str) -> dict[str, Any]:
    prompt = (
        f"Question: {question['prompt']}\n"
        f"Rubric: {question['rubric']}\n"
        f"Answer: {answer}\n"
        "Grade the answer against the rubric."
    )
    return llm.grade_answer(prompt, GRADE_SCHEMA)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="cognit take")
    parser.add_argument("quiz", help="path to a quiz JSON file")
    parser.add_argument("--model", help="model to grade open answers with")
    args = parser.parse_args(argv)

    with open(args.quiz, encoding="utf-8") as f:
        quiz = json.load(f)
    llm = _make_llm(args.model)
    for question in quiz["questions"]:
        answer = input(f"{question['prompt']}\n> ").strip()
        if question["type"] == "open":
            grade = _grade_open(llm, question, answer)
            print(f"score {grade['score']}: {grade['feedback']}")
        elif answer.lower() == str(question["answer"]).lower():
            print("right")
        else:
            print(f"wrong; the answer is {question['answer']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
