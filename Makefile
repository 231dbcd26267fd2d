# Thin front door to CMake (build folder: build/). `make lab4` and `make test` are the
# README's quick start; everything else is plain CMake.
BUILD ?= build
CMAKE ?= cmake
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

.PHONY: all configure lab4 test docs clean

all: configure
	$(CMAKE) --build $(BUILD) --parallel

# Installs missing Debian packages first (tools/install-deps says how), then configures once.
configure:
	@tools/install-deps
	@test -f $(BUILD)/CMakeCache.txt || $(CMAKE) -S . -B $(BUILD) $(GENERATOR)

lab4: configure
	$(CMAKE) --build $(BUILD) --target lab4 --parallel

test: configure
	$(CMAKE) --build $(BUILD) --parallel
	cd $(BUILD) && ctest --output-on-failure

# API documentation of the collector and data model (Doxygen): build/docs/html/index.html.
docs:
	@tools/install-deps docs
	doxygen Doxyfile

clean:
	rm -rf $(BUILD)
