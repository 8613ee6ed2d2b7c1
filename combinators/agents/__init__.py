"""Tool-calling agents: ``agent_loop`` and its values, and LangChain's ``AgentExecutor`` shape
(LangChain's ``langchain_classic.agents``; the values of ``langchain_core.agents``:
``ToolAgentAction`` and ``ToolAgentStep``, LangChain's ``AgentStep``, since ``AgentStep``
here is an ``agent_loop`` iteration).

>>> from combinators.agents import agent_loop
>>> from combinators.language_models import ScriptedChatModel
>>> agent_loop(ScriptedChatModel(["Hello!"]), []).invoke("hi").output
'Hello!'
"""

from combinators.components.agents.executor import AgentExecutor as AgentExecutor
from combinators.components.agents.executor import STOPPED_AT_MAX_ITERATIONS as STOPPED_AT_MAX_ITERATIONS
from combinators.components.agents.executor import STOPPED_AT_TIME_LIMIT as STOPPED_AT_TIME_LIMIT
from combinators.components.agents.executor import ToolCallingAgent as ToolCallingAgent
from combinators.components.agents.executor import create_openai_functions_agent as create_openai_functions_agent
from combinators.components.agents.executor import create_openai_tools_agent as create_openai_tools_agent
from combinators.components.agents.executor import create_tool_calling_agent as create_tool_calling_agent
from combinators.components.agents.loop import AgentLoop as AgentLoop
from combinators.components.agents.loop import agent_loop as agent_loop
from combinators.components.agents.policy import LoopPolicy as LoopPolicy
from combinators.components.agents.progress import partial_result as partial_result
from combinators.components.agents.steps import Finished as Finished
from combinators.components.agents.tokens import FinalAnswerTokens as FinalAnswerTokens
from combinators.components.agents.tokens import afinal_answer_tokens as afinal_answer_tokens
from combinators.components.agents.tokens import final_answer_tokens as final_answer_tokens
from combinators.components.agents.steps import Halted as Halted
from combinators.components.agents.steps import MaxIterations as MaxIterations
from combinators.components.agents.steps import ReturnedDirect as ReturnedDirect
from combinators.components.agents.steps import StopReason as StopReason
from combinators.components.agents.steps import TimedOut as TimedOut
from combinators.components.agents.transcript import AgentInput as AgentInput
from combinators.components.agents.transcript import MalformedToolCallError as MalformedToolCallError
from combinators.components.agents.transcript import ToolCallNotRun as ToolCallNotRun
from combinators.components.agents.transcript import UnknownToolError as UnknownToolError
from combinators.components.agents.transcript import sealed as sealed
from combinators.components.agents.steps import AgentResult as AgentResult
from combinators.components.agents.steps import AgentStep as AgentStep
from combinators.components.agents.steps import ToolOutcome as ToolOutcome
from combinators.components.agents.actions import ToolAgentAction as ToolAgentAction
from combinators.components.agents.actions import ToolAgentStep as ToolAgentStep

__all__ = [
    "STOPPED_AT_MAX_ITERATIONS",
    "STOPPED_AT_TIME_LIMIT",
    "AgentExecutor",
    "AgentInput",
    "AgentLoop",
    "AgentResult",
    "AgentStep",
    "FinalAnswerTokens",
    "Finished",
    "Halted",
    "LoopPolicy",
    "MalformedToolCallError",
    "MaxIterations",
    "ReturnedDirect",
    "StopReason",
    "TimedOut",
    "ToolCallNotRun",
    "ToolAgentAction",
    "ToolAgentStep",
    "ToolCallingAgent",
    "ToolOutcome",
    "UnknownToolError",
    "afinal_answer_tokens",
    "agent_loop",
    "create_tool_calling_agent",
    "create_openai_functions_agent",
    "create_openai_tools_agent",
    "final_answer_tokens",
    "partial_result",
    "sealed",
]
