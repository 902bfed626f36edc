.PHONY: run test install lint typecheck migrate gen-client bench

run:        ## install, then start with demo data on an embedded PostgreSQL
	scripts/run.sh

test:       ## install, then run every check and test
	scripts/test.sh

install:
	scripts/install.sh

lint:
	.venv/bin/ruff check server e2e bench
	.venv/bin/ruff format --check server e2e bench
	cd web && npm run lint && npm run format:check && npm run unused

typecheck:
	.venv/bin/mypy
	cd web && npm run typecheck

migrate:
	.venv/bin/tagtrack migrate

gen-client: ## regenerate server/openapi.json and the console's typed client
	.venv/bin/tagtrack openapi server/openapi.json
	cd web && npm run gen-client

bench:      ## install (Chromium too, for Lighthouse), then run every benchmark
	scripts/install.sh --browser
	.venv/bin/python -m bench
