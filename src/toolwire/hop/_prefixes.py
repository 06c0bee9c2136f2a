"""Model strings: ``provider/model`` names a provider row and a model in one string (no I/O).

``anthropic/claude-sonnet-4-5`` is the Anthropic API with the model ``claude-sonnet-4-5``;
``vertex/gemini-2.5-pro`` Gemini on Vertex AI; ``vertex/claude-sonnet-4-5@20250929`` Claude on
Vertex AI (the model decides the publisher). The part before the first ``/`` is looked up in
:data:`MODEL_PREFIXES`; the rest is the model, sent as is (it may hold more slashes). The client
(``Client("vertex/gemini-2.5-pro")``) and the gateway's config (routes by model prefix) read the
same table; ``bedrock/anthropic.claude-sonnet-4-5-v1:0`` is Bedrock's Converse API. A row may
have no provider (``provider=None``): it is listed, and refused with its ``missing`` reason.
"""

from __future__ import annotations

from dataclasses import dataclass

from toolwire._choices import unknown_choice
from toolwire.errors import ToolwireError
from toolwire.formats.openai_chat.dialects import DIALECTS

__all__ = ["MODEL_PREFIXES", "ModelPrefix", "prefix_provider", "resolve_target", "split_model"]


@dataclass(frozen=True, slots=True)
class ModelPrefix:
    """One model-string prefix.

    Attributes:
        name: the prefix (``vertex``).
        provider: the provider row (a key of :data:`~toolwire.hop._providers.PROVIDERS`) its
            models go to; ``None``: not available (see ``missing``).
        by_model: ``(model name prefix, provider)`` pairs tried first (Claude models on Vertex go
            to ``vertex-anthropic``).
        missing: why a prefix without a provider is refused.
    """

    name: str
    provider: str | None
    by_model: tuple[tuple[str, str], ...] = ()
    missing: str = ""

    def provider_for(self, model: str) -> str:
        """The provider row for ``model`` under this prefix.

        Raises:
            ToolwireError: the prefix has no provider yet.
        """
        for start, provider in self.by_model:
            if model.startswith(start):
                return provider
        if self.provider is None:
            raise ToolwireError(f"model prefix {self.name!r} is not available: {self.missing}")
        return self.provider


MODEL_PREFIXES: dict[str, ModelPrefix] = {
    row.name: row
    for row in (
        ModelPrefix("openai", "openai-responses"),
        ModelPrefix("openai-chat", "openai-chat"),
        ModelPrefix("anthropic", "anthropic"),
        ModelPrefix("gemini", "gemini"),
        ModelPrefix("vertex", "vertex-gemini", by_model=(("claude", "vertex-anthropic"),)),
        ModelPrefix("azure", "azure-openai"),
        ModelPrefix("azure-chat", "azure-openai-chat"),
        # OpenAI-compatible Chat providers, one per dialect row (deepseek/..., mistral/...).
        *(ModelPrefix(name, name) for name in DIALECTS if name != "openai"),
        ModelPrefix("bedrock", "bedrock"),
    )
}
"""Every model-string prefix by name; rows, not branches, so a new provider is one line."""


def split_model(text: str) -> tuple[ModelPrefix, str] | None:
    """``(prefix row, model)`` of a model string, ``None`` when ``text`` has no ``/``.

    Raises:
        ToolwireError: the prefix is unknown (the message lists the known ones, with a "did you
            mean"), or the model part is empty.
    """
    name, sep, model = text.partition("/")
    if not sep:
        return None
    row = MODEL_PREFIXES.get(name)
    if row is None:
        raise ToolwireError(unknown_choice("model prefix", name, MODEL_PREFIXES, MODEL_PREFIXES))
    if not model:
        raise ToolwireError(f"model string {text!r} names no model after {name + '/'!r}")
    return row, model


def prefix_provider(text: str) -> tuple[str, str]:
    """``(provider row, model)`` for a model string ``prefix/model``.

    Raises:
        ToolwireError: no prefix, an unknown one, or one without a provider yet.
    """
    split = split_model(text)
    if split is None:
        known = ", ".join(f"{name}/" for name in MODEL_PREFIXES)
        raise ToolwireError(f"model {text!r} has no provider prefix; expected one of {known}")
    row, model = split
    return row.provider_for(model), model


def resolve_target(provider: str | None, model: str | None) -> tuple[str, str | None]:
    """``(provider row, model)`` from a client's ``provider`` and ``model`` arguments.

    ``provider`` may be a provider row (``"anthropic"``; ``model`` is then taken as is) or a
    model string (``"anthropic/claude-sonnet-4-5"``, with no ``model``); without ``provider``,
    ``model`` must be a model string.

    Raises:
        ToolwireError: neither is given, the model is given twice, or the prefix is unknown.
    """
    if provider is not None and "/" in provider:
        if model is not None:
            raise ToolwireError(
                f"{provider!r} already names the model; pass model= only with a provider name"
            )
        return prefix_provider(provider)
    if provider is None:
        if model is None:
            known = ", ".join(f"{name}/" for name in MODEL_PREFIXES)
            raise ToolwireError(f"name a provider, or a model string starting with one of {known}")
        return prefix_provider(model)
    return provider, model
