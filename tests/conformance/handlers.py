"""Handlers for the conformance tools (tests/conformance/config), written against the generated
package's `ConformanceHandlers` protocol, and the resources, prompts and completions the suite's
scenarios read, given through `create_server`'s extension points. Each answer is what the
scenario's source checks (decision 0099); the data travels in toolc's envelope, the media as
the declared content blocks beside it."""

from __future__ import annotations

import asyncio
import base64
import json
from collections.abc import Mapping

from conformance_tools import (
    JsonSchema202012ToolArgs,
    JsonSchema202012ToolData,
    TestAudioContentArgs,
    TestAudioContentData,
    TestElicitationArgs,
    TestElicitationData,
    TestElicitationSep1034DefaultsArgs,
    TestElicitationSep1034DefaultsData,
    TestElicitationSep1330EnumsArgs,
    TestElicitationSep1330EnumsData,
    TestEmbeddedResourceArgs,
    TestEmbeddedResourceData,
    TestErrorHandlingArgs,
    TestErrorHandlingData,
    TestImageContentArgs,
    TestImageContentData,
    TestMultipleContentTypesArgs,
    TestMultipleContentTypesData,
    TestSamplingArgs,
    TestSamplingData,
    TestSimpleTextArgs,
    TestSimpleTextData,
    TestToolWithLoggingArgs,
    TestToolWithLoggingData,
    TestToolWithProgressArgs,
    TestToolWithProgressData,
)
from conformance_tools.server_runtime import (
    Audio,
    CompletionRef,
    EmbeddedText,
    Image,
    Prompt,
    PromptArgument,
    PromptMessage,
    Reply,
    Resource,
    ResourceTemplate,
    ToolContext,
    ToolFailure,
)

# The suite's own fixtures: a 1x1 PNG and a minimal WAV.
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg=="
)
WAV = base64.b64decode("UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=")

_SEP1034 = {
    "type": "object",
    "properties": {
        "name": {"type": "string", "default": "John Doe"},
        "age": {"type": "integer", "default": 30},
        "score": {"type": "number", "default": 95.5},
        "status": {
            "type": "string",
            "enum": ["active", "inactive", "pending"],
            "default": "active",
        },
        "verified": {"type": "boolean", "default": True},
    },
}
_CHOICES = ["option1", "option2", "option3"]
_SEP1330 = {
    "type": "object",
    "properties": {
        "untitledSingle": {"type": "string", "enum": _CHOICES},
        "titledSingle": {
            "type": "string",
            "oneOf": [
                {"const": "value1", "title": "First Option"},
                {"const": "value2", "title": "Second Option"},
                {"const": "value3", "title": "Third Option"},
            ],
        },
        "legacyEnum": {
            "type": "string",
            "enum": ["opt1", "opt2", "opt3"],
            "enumNames": ["Option One", "Option Two", "Option Three"],
        },
        "untitledMulti": {"type": "array", "items": {"type": "string", "enum": _CHOICES}},
        "titledMulti": {
            "type": "array",
            "items": {
                "anyOf": [
                    {"const": "value1", "title": "First Choice"},
                    {"const": "value2", "title": "Second Choice"},
                    {"const": "value3", "title": "Third Choice"},
                ]
            },
        },
    },
}


class Handlers:
    async def test_simple_text(
        self, args: TestSimpleTextArgs, ctx: ToolContext
    ) -> TestSimpleTextData:
        return TestSimpleTextData(text="This is a simple text response for testing.")

    async def test_image_content(
        self, args: TestImageContentArgs, ctx: ToolContext
    ) -> Reply[TestImageContentData]:
        return Reply(TestImageContentData(text="an image"), content=[Image(PNG, "image/png")])

    async def test_audio_content(
        self, args: TestAudioContentArgs, ctx: ToolContext
    ) -> Reply[TestAudioContentData]:
        return Reply(TestAudioContentData(text="a sound"), content=[Audio(WAV, "audio/wav")])

    async def test_embedded_resource(
        self, args: TestEmbeddedResourceArgs, ctx: ToolContext
    ) -> Reply[TestEmbeddedResourceData]:
        text = "This is an embedded resource content."
        resource = EmbeddedText("test://embedded-resource", text, "text/plain")
        return Reply(TestEmbeddedResourceData(text="a resource"), content=[resource])

    async def test_multiple_content_types(
        self, args: TestMultipleContentTypesArgs, ctx: ToolContext
    ) -> Reply[TestMultipleContentTypesData]:
        doc = EmbeddedText(
            "test://mixed-content-resource",
            json.dumps({"test": "data", "value": 123}),
            "application/json",
        )
        data = TestMultipleContentTypesData(text="Multiple content types test:")
        return Reply(data, content=[Image(PNG, "image/png"), doc])

    async def test_tool_with_logging(
        self, args: TestToolWithLoggingArgs, ctx: ToolContext
    ) -> TestToolWithLoggingData:
        await ctx.log("info", "Tool execution started")
        await asyncio.sleep(0.05)
        await ctx.log("info", "Tool processing data")
        await asyncio.sleep(0.05)
        await ctx.log("info", "Tool execution completed")
        return TestToolWithLoggingData(text="logged three messages")

    async def test_tool_with_progress(
        self, args: TestToolWithProgressArgs, ctx: ToolContext
    ) -> TestToolWithProgressData:
        for step in (0, 50, 100):
            await ctx.progress(step, total=100, message=f"Completed step {step} of 100")
            if step < 100:
                await asyncio.sleep(0.05)
        return TestToolWithProgressData(text="done")

    async def test_error_handling(
        self, args: TestErrorHandlingArgs, ctx: ToolContext
    ) -> TestErrorHandlingData:
        raise ToolFailure(
            "INTENTIONAL_ERROR", "This tool intentionally returns an error for testing"
        )

    async def test_sampling(self, args: TestSamplingArgs, ctx: ToolContext) -> TestSamplingData:
        answer = await ctx.sample(args.prompt, max_tokens=100)
        return TestSamplingData(text=f"LLM response: {answer.text}")

    async def test_elicitation(
        self, args: TestElicitationArgs, ctx: ToolContext
    ) -> TestElicitationData:
        schema = {
            "type": "object",
            "properties": {
                "username": {"type": "string", "description": "User's response"},
                "email": {"type": "string", "description": "User's email address"},
            },
            "required": ["username", "email"],
        }
        form = await ctx.elicit(args.message, schema)
        return TestElicitationData(
            text=f"User response: action={form.action}, content={form.content}"
        )

    async def test_elicitation_sep1034_defaults(
        self, args: TestElicitationSep1034DefaultsArgs, ctx: ToolContext
    ) -> TestElicitationSep1034DefaultsData:
        form = await ctx.elicit("Please review and update the form fields with defaults", _SEP1034)
        text = f"Elicitation completed: action={form.action}, content={form.content}"
        return TestElicitationSep1034DefaultsData(text=text)

    async def test_elicitation_sep1330_enums(
        self, args: TestElicitationSep1330EnumsArgs, ctx: ToolContext
    ) -> TestElicitationSep1330EnumsData:
        form = await ctx.elicit("Please select options from the enum fields", _SEP1330)
        text = f"Elicitation completed: action={form.action}, content={form.content}"
        return TestElicitationSep1330EnumsData(text=text)

    async def json_schema_2020_12_tool(
        self, args: JsonSchema202012ToolArgs, ctx: ToolContext
    ) -> JsonSchema202012ToolData:
        return JsonSchema202012ToolData(text="json_schema_2020_12_tool")


async def _template(uri: str, variables: Mapping[str, str]) -> Resource:
    data = {"id": variables["id"], "templateTest": True, "data": f"Data for ID: {variables['id']}"}
    return Resource(uri, "template", text=json.dumps(data), mime_type="application/json")


async def _simple(arguments: Mapping[str, str]) -> list[PromptMessage]:
    return [PromptMessage("user", "This is a simple prompt for testing.")]


async def _with_arguments(arguments: Mapping[str, str]) -> list[PromptMessage]:
    text = f"Prompt with arguments: arg1='{arguments['arg1']}', arg2='{arguments['arg2']}'"
    return [PromptMessage("user", text)]


async def _with_resource(arguments: Mapping[str, str]) -> list[PromptMessage]:
    embedded = Resource(
        arguments["resourceUri"], "embedded", text="Embedded resource content for testing.",
        mime_type="text/plain",
    )  # fmt: skip
    return [
        PromptMessage("user", embedded),
        PromptMessage("user", "Please process the embedded resource above."),
    ]


async def _with_image(arguments: Mapping[str, str]) -> list[PromptMessage]:
    return [
        PromptMessage("user", Image(PNG, "image/png")),
        PromptMessage("user", "Please analyze the image above."),
    ]


async def complete(
    ref: CompletionRef, argument: str, value: str, context: Mapping[str, str]
) -> list[str]:
    return [v for v in ("paris", "park", "party") if v.startswith(value)]


RESOURCES = [
    Resource("test://static-text", "static-text", text="This is the content of the static text resource.",
             mime_type="text/plain"),
    Resource("test://static-binary", "static-binary", blob=PNG, mime_type="image/png"),
    Resource("test://watched-resource", "watched-resource", text="Watched resource content",
             mime_type="text/plain"),
]  # fmt: skip
RESOURCE_TEMPLATES = [ResourceTemplate("test://template/{id}/data", "template", read=_template)]
PROMPTS = [
    Prompt("test_simple_prompt", _simple, description="A simple prompt without arguments"),
    Prompt(
        "test_prompt_with_arguments", _with_arguments, description="A prompt with required arguments",
        arguments=[PromptArgument("arg1", required=True), PromptArgument("arg2", required=True)],
    ),
    Prompt(
        "test_prompt_with_embedded_resource", _with_resource,
        description="A prompt that includes an embedded resource",
        arguments=[PromptArgument("resourceUri", required=True)],
    ),
    Prompt("test_prompt_with_image", _with_image, description="A prompt that includes image content"),
]  # fmt: skip
