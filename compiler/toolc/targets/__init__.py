"""Provider targets (decision 0074): the rules that a model provider or an MCP client applies to
published tool descriptors, judged on what `tools/list` serves (`targets.judge`) and located
back in tools.yaml (`targets.locate`). The rules themselves, what each refuses and on whose
authority, are rows of the one catalogue (diagnostics/codes.py, group `targets`)."""
