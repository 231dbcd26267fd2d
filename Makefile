# Thin front door to CMake (build folder: build/). `make lab4` and `make test` are the
# README's quick start; everything else is plain CMake.
BUILD ?= build
CMAKE ?= cmake
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

.PHONY: all configure lab4 test docs clean

all: configure
	$(CMAKE) --build $(BUILD)

configure:
	@test -f $(BUILD)/CMakeCache.txt || $(CMAKE) -S . -B $(BUILD) $(GENERATOR)

lab4: configure
	$(CMAKE) --build $(BUILD) --target lab4

test: configure
	$(CMAKE) --build $(BUILD)
	cd $(BUILD) && ctest --output-on-failure

# API documentation of the collector and data model (Doxygen): build/docs/html/index.html.
docs:
	doxygen Doxyfile

clean:
	rm -rf $(BUILD)
