"""A tiny tokenizer built offline, for `bc-train --check` and the CPU tests: no download, no network.

A byte-level BPE (lossless for any text) trained in milliseconds on chat-shaped text, wrapped as a
transformers `PreTrainedTokenizerFast` with a Qwen2.5-style chat template that renders tools, tool calls
and tool responses (the hermes format verl's `hermes` tool parser reads).

    tok = build_offline_tokenizer("/tmp/tok")   # saved with save_pretrained; AutoTokenizer can load it
"""
from __future__ import annotations

from pathlib import Path
from typing import Any

IM_START, IM_END, PAD = "<|im_start|>", "<|im_end|>", "<|endoftext|>"

# Qwen2.5's template shape: tools in the system prompt, <tool_call> JSON in assistant turns, tool results
# as <tool_response> blocks inside a user turn. Arguments may be a dict or an already-encoded JSON string.
CHAT_TEMPLATE = r"""{%- if tools %}
{{- '<|im_start|>system\n' }}
{%- if messages[0]['role'] == 'system' %}{{- messages[0]['content'] }}{%- else %}{{- 'You are a helpful assistant.' }}{%- endif %}
{{- "\n\n# Tools\n\nYou may call one or more functions to assist with the user query.\n\n<tools>" }}
{%- for tool in tools %}{{- "\n" }}{{- tool | tojson }}{%- endfor %}
{{- "\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags.<|im_end|>\n" }}
{%- else %}
{%- if messages[0]['role'] == 'system' %}{{- '<|im_start|>system\n' + messages[0]['content'] + '<|im_end|>\n' }}
{%- else %}{{- '<|im_start|>system\nYou are a helpful assistant.<|im_end|>\n' }}{%- endif %}
{%- endif %}
{%- for message in messages %}
{%- if (message.role == 'user') or (message.role == 'system' and not loop.first) or (message.role == 'assistant' and not message.tool_calls) %}
{{- '<|im_start|>' + message.role + '\n' + (message.content or '') + '<|im_end|>\n' }}
{%- elif message.role == 'assistant' %}
{{- '<|im_start|>assistant' }}
{%- if message.content %}{{- '\n' + message.content }}{%- endif %}
{%- for tool_call in message.tool_calls %}
{%- if tool_call.function is defined %}{%- set tool_call = tool_call.function %}{%- endif %}
{{- '\n<tool_call>\n{"name": "' + tool_call.name + '", "arguments": ' }}
{%- if tool_call.arguments is string %}{{- tool_call.arguments }}{%- else %}{{- tool_call.arguments | tojson }}{%- endif %}
{{- '}\n</tool_call>' }}
{%- endfor %}
{{- '<|im_end|>\n' }}
{%- elif message.role == 'tool' %}
{%- if loop.first or (messages[loop.index0 - 1].role != 'tool') %}{{- '<|im_start|>user' }}{%- endif %}
{{- '\n<tool_response>\n' + (message.content or '') + '\n</tool_response>' }}
{%- if loop.last or (messages[loop.index0 + 1].role != 'tool') %}{{- '<|im_end|>\n' }}{%- endif %}
{%- endif %}
{%- endfor %}
{%- if add_generation_prompt %}{{- '<|im_start|>assistant\n' }}{%- endif %}"""

_CORPUS = [
    "You are a helpful assistant.",
    "Compute 3 × (4 + 5) and answer as ```json {\"result\": 27}```",
    '<tool_call>\n{"name": "calculate", "arguments": {"expression": "12 + 7"}}\n</tool_call>',
    "<tool_response>\n19\n</tool_response>",
    "Your result is incorrect. Please recheck the calculation and answer again. Correct.",
    "# Tools\n\nYou may call one or more functions to assist with the user query.",
    '{"type": "function", "function": {"name": "calculate", "description": "Evaluate", "parameters": '
    '{"type": "object", "properties": {"expression": {"type": "string"}}, "required": ["expression"]}}}',
    "Reply with <answer>0123456789abcdef</answer>. system user assistant tool",
]


def build_offline_tokenizer(save_dir: str | Path | None = None, vocab_size: int = 600) -> Any:
    """A `PreTrainedTokenizerFast` with a tool-capable chat template, built without network access.

    When `save_dir` is given the tokenizer is saved there (loadable with `AutoTokenizer.from_pretrained`).
    """
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers
    from transformers import PreTrainedTokenizerFast

    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(vocab_size=vocab_size, special_tokens=[PAD, IM_START, IM_END],
                                  initial_alphabet=pre_tokenizers.ByteLevel.alphabet(), show_progress=False)
    tok.train_from_iterator(_CORPUS * 4, trainer=trainer)
    fast = PreTrainedTokenizerFast(tokenizer_object=tok, eos_token=IM_END, pad_token=PAD,
                                   additional_special_tokens=[IM_START], chat_template=CHAT_TEMPLATE)
    # <tool_call> stays one token, not special, so decoding with skip_special_tokens keeps it (as Qwen does).
    fast.add_tokens(["<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>"])
    if save_dir is not None:
        fast.save_pretrained(str(save_dir))
    return fast


VISION_TOKENS = ["<|vision_start|>", "<|vision_end|>", "<|image_pad|>", "<|video_pad|>"]
# Qwen2-VL's way of showing an image in the text: the processor expands <|image_pad|> to one token per patch group
_CONTENT = (r"{%- macro render(content) -%}{%- if content is string -%}{{- content -}}{%- elif content -%}"
            r"{%- for part in content -%}{%- if part.type == 'image' or 'image' in part -%}"
            r"{{- '<|vision_start|><|image_pad|><|vision_end|>' -}}"
            r"{%- elif part.type == 'video' -%}{{- '<|vision_start|><|video_pad|><|vision_end|>' -}}"
            r"{%- else -%}{{- part.text or '' -}}{%- endif -%}{%- endfor -%}{%- endif -%}{%- endmacro -%}")
VL_CHAT_TEMPLATE = _CONTENT + CHAT_TEMPLATE.replace("messages[0]['content']", "render(messages[0]['content'])") \
    .replace("(message.content or '')", "render(message.content)").replace("'\\n' + message.content", "'\\n' + render(message.content)")


def build_offline_processor(save_dir: str | Path | None = None) -> Any:
    """A Qwen2-VL style processor built without network access: `build_offline_tokenizer` plus the vision tokens,
    transformers' Qwen2-VL image processor with its defaults (patch 14, merge 2), and a chat template that renders
    image parts. Video is left out (transformers' video processor needs torchvision, which verl's extra lacks).

        proc = build_offline_processor()
        proc.apply_chat_template([{"role": "user", "content": [{"type": "image"}, {"type": "text", "text": "Hi"}]}])
    """
    import warnings

    from transformers import Qwen2VLProcessor
    from transformers.processing_utils import ProcessorMixin

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:  # the PIL backend: no torchvision needed
            from transformers.models.qwen2_vl.image_processing_pil_qwen2_vl import (
                Qwen2VLImageProcessorPil as ImageProcessor,
            )
        except ImportError:  # older transformers
            from transformers import Qwen2VLImageProcessor as ImageProcessor

    tok = build_offline_tokenizer(None)
    tok.add_special_tokens({"additional_special_tokens": [IM_START, *VISION_TOKENS]})
    tok.chat_template = VL_CHAT_TEMPLATE

    class OfflineQwen2VLProcessor(Qwen2VLProcessor):
        """Qwen2VLProcessor with an image processor and a tokenizer only (no video processor)."""

        def __init__(self, image_processor: Any = None, tokenizer: Any = None, chat_template: Any = None,
                     **kwargs: Any):
            self.image_token, self.video_token = "<|image_pad|>", "<|video_pad|>"
            self.image_token_id = tokenizer.convert_tokens_to_ids(self.image_token)
            self.video_token_id = tokenizer.convert_tokens_to_ids(self.video_token)
            ProcessorMixin.__init__(self, image_processor, tokenizer, chat_template=chat_template)

    processor = OfflineQwen2VLProcessor(image_processor=ImageProcessor(), tokenizer=tok,
                                        chat_template=VL_CHAT_TEMPLATE)
    if save_dir is not None:
        tok.save_pretrained(str(save_dir))
    return processor
