# Two commands do everything on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin

.PHONY: setup demo test fuzz lint typecheck models docs templates golden bench clean

$(BIN)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

setup: $(BIN)/.installed

## Build the bundled examples (a no-op when their committed output is fresh), then check them.
demo: setup
	$(BIN)/toolc build examples/retail --docs-out examples/retail/docs
	$(BIN)/toolc build examples/telecom --docs-out examples/telecom/docs
	$(BIN)/toolc build examples/vitrine --docs-out examples/vitrine/docs
	$(BIN)/toolc build examples/files --docs-out examples/files/docs
	$(BIN)/toolc build examples/gateway --docs-out examples/gateway/docs
	$(BIN)/toolc check examples/retail --docs-out examples/retail/docs
	$(BIN)/toolc check examples/telecom --docs-out examples/telecom/docs
	$(BIN)/toolc check examples/vitrine --docs-out examples/vitrine/docs
	$(BIN)/toolc check examples/files --docs-out examples/files/docs
	$(BIN)/toolc check examples/gateway --docs-out examples/gateway/docs

## Recompile the generated-code templates ahead of time (compiler/toolc/emit/compiled/).
templates: setup
	$(BIN)/python scripts/gen_compiled_templates.py

## Regenerate the golden output of the examples (examples/*/generated, examples/*/mcp-tools.json,
## and their reference docs, examples/*/docs), after the compiled templates they are made with.
golden: templates
	$(BIN)/toolc build examples/retail --docs-out examples/retail/docs
	$(BIN)/toolc build examples/telecom --docs-out examples/telecom/docs
	$(BIN)/toolc build examples/vitrine --docs-out examples/vitrine/docs
	$(BIN)/toolc build examples/files --docs-out examples/files/docs
	$(BIN)/toolc build examples/gateway --docs-out examples/gateway/docs

## The whole suite: tests (including freshness of generated files), lint, strict typing.
test: setup
	$(BIN)/python -m pytest
	$(BIN)/ruff check --no-cache compiler tests bench
	$(BIN)/ruff format --no-cache --check compiler tests bench
	$(BIN)/mypy --strict compiler/toolc

## Hunt for new random cases, a new seed each run (decision 0115); a failure names its seed.
fuzz: setup
	TOOLC_RANDOM_SEED=random TOOLC_RANDOM_PORTABLE=300 TOOLC_RANDOM_CONFIGS=200 \
	  TOOLC_RANDOM_VERDICTS=300 $(BIN)/python -m pytest -p no:cacheprovider \
	  tests/test_portable.py tests/test_random_configs.py tests/test_random_verdicts.py -k random

lint: setup
	$(BIN)/ruff check --no-cache compiler tests bench

typecheck: setup
	$(BIN)/mypy --strict compiler/toolc

## Regenerate toolc's config models from schemas/ (datamodel-codegen, pinned).
models: setup
	PATH=$(BIN):$$PATH scripts/gen_config_models.sh

## Regenerate docs/diagnostics.md and docs/evolution.md from the catalogue of codes and rules.
docs: setup
	$(BIN)/python scripts/gen_catalogue_docs.py

bench: setup
	$(BIN)/python -m compileall -q compiler/toolc  # measured as installed: with bytecode
	$(BIN)/python bench/run.py
	$(BIN)/python bench/build.py
	$(BIN)/python bench/server.py
	$(BIN)/python bench/args_models.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache bench/results bench/.configs
