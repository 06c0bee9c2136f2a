"""TypedDicts of the Gemini ``generateContent`` JSON this codec accepts and emits.

They follow the ``google.ai.generativelanguage.v1beta`` protos (``generative_service.proto``,
``content.proto``) in their REST JSON spelling: lowerCamelCase field names. Google's JSON
decoders also accept the proto (snake_case) names, and some clients send them
(``function_call``, ``parameters_json_schema``, ``include_thoughts``...); the request decoder
accepts both spellings and remembers which one each object used. Responses come from
Google and are always camelCase. The types document the shapes; decoders still check
every value at run time.

Names: ``FunctionDeclaration.name`` must be ``a-z``, ``A-Z``, ``0-9``, underscores, colons,
dots or dashes, at most 64 characters (roughly ``^[a-zA-Z_][a-zA-Z0-9_.:-]{0,63}$``). This
codec passes names through unchanged; the translate layer sanitizes names for Gemini.

The model is not part of the body: it is in the URL (``/v1beta/models/{model}:generateContent``,
``:streamGenerateContent?alt=sse``); see :func:`toolwire.formats.gemini.endpoint_path`.
"""

from __future__ import annotations

from typing import Any, Literal, NotRequired, TypedDict

__all__ = [
    "Blob",
    "Candidate",
    "CodeExecutionResult",
    "Content",
    "ErrorBody",
    "ErrorObject",
    "ExecutableCode",
    "FileData",
    "FunctionCall",
    "FunctionCallingConfig",
    "FunctionDeclaration",
    "FunctionResponse",
    "FunctionResponsePart",
    "GenerateContentResponse",
    "GenerationConfig",
    "Part",
    "PromptFeedback",
    "Request",
    "ThinkingConfig",
    "Tool",
    "ToolConfig",
    "UsageMetadata",
]

FinishReason = Literal[
    "FINISH_REASON_UNSPECIFIED",
    "STOP",
    "MAX_TOKENS",
    "SAFETY",
    "RECITATION",
    "LANGUAGE",
    "OTHER",
    "BLOCKLIST",
    "PROHIBITED_CONTENT",
    "SPII",
    "MALFORMED_FUNCTION_CALL",
    "IMAGE_SAFETY",
    "IMAGE_PROHIBITED_CONTENT",
    "IMAGE_OTHER",
    "NO_IMAGE",
    "IMAGE_RECITATION",
    "UNEXPECTED_TOOL_CALL",
    "TOO_MANY_TOOL_CALLS",
    "MISSING_THOUGHT_SIGNATURE",
    "MALFORMED_RESPONSE",
    "MODEL_ARMOR",
]
"""``Candidate.finishReason`` values (unknown future values are accepted and kept raw). The last
three are newer than the bundled v1beta proto: the live API's, and Vertex AI's Model Armor. The
validator takes its enum from here (``typing.get_args``)."""

FunctionCallingMode = Literal["MODE_UNSPECIFIED", "AUTO", "ANY", "NONE", "VALIDATED"]


class Blob(TypedDict):
    """``inlineData``: base64 bytes with their MIME type."""

    mimeType: str
    data: str


class FileData(TypedDict):
    """``fileData``: a file by URI (Files API URI, ``gs://`` on Vertex, or an http(s) URL)."""

    fileUri: str
    mimeType: NotRequired[str]


class FunctionCall(TypedDict):
    """A call predicted by the model; ``id`` only on some models, ``args`` may be absent."""

    name: str
    args: NotRequired[dict[str, Any]]
    id: NotRequired[str]


class FunctionResponsePart(TypedDict):
    """Media attached to a function response (``inlineData`` only in the v1beta proto)."""

    inlineData: Blob


class FunctionResponse(TypedDict):
    """A tool result. ``response`` must be an object (Google suggests ``output``/``error`` keys)."""

    name: str
    response: dict[str, Any]
    id: NotRequired[str]
    parts: NotRequired[list[FunctionResponsePart]]
    willContinue: NotRequired[bool]
    scheduling: NotRequired[Literal["SILENT", "WHEN_IDLE", "INTERRUPT"]]


class ExecutableCode(TypedDict):
    """Code written by the model for the code execution tool."""

    language: Literal["LANGUAGE_UNSPECIFIED", "PYTHON"]
    code: str


class CodeExecutionResult(TypedDict):
    """Outcome of a code execution run."""

    outcome: Literal["OUTCOME_UNSPECIFIED", "OUTCOME_OK", "OUTCOME_FAILED", "OUTCOME_DEADLINE_EXCEEDED"]
    output: NotRequired[str]


class Part(TypedDict, total=False):
    """One part: exactly one data field, plus optional metadata.

    Data fields: ``text``, ``inlineData``, ``fileData``, ``functionCall``,
    ``functionResponse``, ``executableCode``, ``codeExecutionResult`` (and, in newer
    recordings, the server-side ``toolCall`` / ``toolResponse``). ``thought: true`` marks a
    thought summary; ``thoughtSignature`` (base64) may sit on any part and must be sent
    back on the same part.
    """

    text: str
    inlineData: Blob
    fileData: FileData
    functionCall: FunctionCall
    functionResponse: FunctionResponse
    executableCode: ExecutableCode
    codeExecutionResult: CodeExecutionResult
    toolCall: dict[str, Any]
    toolResponse: dict[str, Any]
    thought: bool
    thoughtSignature: str
    videoMetadata: dict[str, Any]
    partMetadata: dict[str, Any]


class Content(TypedDict):
    """A turn: ``role`` is ``user`` or ``model`` (``function`` in old clients)."""

    parts: list[Part]
    role: NotRequired[Literal["user", "model", "function"]]


class FunctionDeclaration(TypedDict):
    """A function tool. ``parameters`` is the OpenAPI-subset ``Schema``;
    ``parametersJsonSchema`` (mutually exclusive) takes full JSON Schema."""

    name: str
    description: NotRequired[str]
    parameters: NotRequired[dict[str, Any]]
    parametersJsonSchema: NotRequired[dict[str, Any]]
    response: NotRequired[dict[str, Any]]
    responseJsonSchema: NotRequired[dict[str, Any]]
    behavior: NotRequired[Literal["UNSPECIFIED", "BLOCKING", "NON_BLOCKING"]]


class Tool(TypedDict, total=False):
    """A tool object: function declarations and/or one built-in tool key."""

    functionDeclarations: list[FunctionDeclaration]
    googleSearch: dict[str, Any]
    googleSearchRetrieval: dict[str, Any]
    codeExecution: dict[str, Any]
    urlContext: dict[str, Any]
    fileSearch: dict[str, Any]
    googleMaps: dict[str, Any]
    computerUse: dict[str, Any]


class FunctionCallingConfig(TypedDict, total=False):
    """``allowedFunctionNames`` only applies with mode ``ANY`` (or ``VALIDATED``)."""

    mode: FunctionCallingMode
    allowedFunctionNames: list[str]


class ToolConfig(TypedDict, total=False):
    functionCallingConfig: FunctionCallingConfig
    retrievalConfig: dict[str, Any]
    includeServerSideToolInvocations: bool


class ThinkingConfig(TypedDict, total=False):
    includeThoughts: bool
    thinkingBudget: int
    thinkingLevel: Literal["THINKING_LEVEL_UNSPECIFIED", "MINIMAL", "LOW", "MEDIUM", "HIGH"]


class GenerationConfig(TypedDict, total=False):
    """Output controls (only the fields the IR names are listed; others pass through)."""

    maxOutputTokens: int
    temperature: float
    topP: float
    topK: int
    stopSequences: list[str]
    responseMimeType: str
    responseSchema: dict[str, Any]
    responseJsonSchema: dict[str, Any]
    thinkingConfig: ThinkingConfig
    candidateCount: int
    seed: int
    presencePenalty: float
    frequencyPenalty: float
    responseModalities: list[str]


class Request(TypedDict):
    """``GenerateContentRequest`` body (``model`` is in the URL)."""

    contents: list[Content]
    systemInstruction: NotRequired[Content]
    tools: NotRequired[list[Tool]]
    toolConfig: NotRequired[ToolConfig]
    generationConfig: NotRequired[GenerationConfig]
    safetySettings: NotRequired[list[dict[str, Any]]]
    cachedContent: NotRequired[str]
    labels: NotRequired[dict[str, str]]


class Candidate(TypedDict, total=False):
    content: Content
    finishReason: FinishReason
    finishMessage: str
    index: int
    safetyRatings: list[dict[str, Any]]
    citationMetadata: dict[str, Any]
    groundingMetadata: dict[str, Any]
    urlContextMetadata: dict[str, Any]
    avgLogprobs: float
    logprobsResult: dict[str, Any]


class PromptFeedback(TypedDict, total=False):
    """Set when the prompt was blocked: then there are no candidates."""

    blockReason: Literal[
        "BLOCK_REASON_UNSPECIFIED", "SAFETY", "OTHER", "BLOCKLIST", "PROHIBITED_CONTENT", "IMAGE_SAFETY"
    ]
    blockReasonMessage: str
    safetyRatings: list[dict[str, Any]]


class UsageMetadata(TypedDict, total=False):
    """Token counts. ``totalTokenCount`` = prompt + toolUsePrompt + candidates + thoughts."""

    promptTokenCount: int
    candidatesTokenCount: int
    totalTokenCount: int
    cachedContentTokenCount: int
    thoughtsTokenCount: int
    toolUsePromptTokenCount: int
    promptTokensDetails: list[dict[str, Any]]
    candidatesTokensDetails: list[dict[str, Any]]
    cacheTokensDetails: list[dict[str, Any]]
    toolUsePromptTokensDetails: list[dict[str, Any]]


class GenerateContentResponse(TypedDict, total=False):
    candidates: list[Candidate]
    promptFeedback: PromptFeedback
    usageMetadata: UsageMetadata
    modelVersion: str
    responseId: str
    createTime: str  # Vertex AI


class ErrorObject(TypedDict):
    """``google.rpc.Status`` as JSON: HTTP ``code``, message and canonical ``status`` name."""

    code: int
    message: str
    status: str
    details: NotRequired[list[dict[str, Any]]]


class ErrorBody(TypedDict):
    """Error body (some endpoints wrap it in a one-element JSON array)."""

    error: ErrorObject
