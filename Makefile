# The two commands of the README: `make run` and `make test`. Both set up what they need.
.PHONY: run test build web deps

run: web
	cargo run --release -- serve

test:
	bash scripts/test.sh

# Builds the web app and the binary without running anything.
build: web
	cargo build --release

web:
	bash scripts/web.sh
