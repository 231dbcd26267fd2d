# Thin front door to CMake (build folder: build/). `make lab4` and `make test` are the
# README's quick start; `make labN` runs any lab, `make labs` writes the whole workbook.
BUILD ?= build
CMAKE ?= cmake
GENERATOR := $(shell command -v ninja >/dev/null 2>&1 && echo "-G Ninja")

.PHONY: all configure labs test test-slurm docs clean

all: configure
	$(CMAKE) --build $(BUILD) --parallel

# Installs missing Debian packages first (tools/install-deps says how), then configures once.
configure:
	@tools/install-deps
	@test -f $(BUILD)/CMakeCache.txt || $(CMAKE) -S . -B $(BUILD) $(GENERATOR)

# Any lab found under labs/ (labN is its [lab] id): measure it, or render its recording.
lab%: configure
	$(CMAKE) --build $(BUILD) --target lab$* --parallel

labs: configure
	$(CMAKE) --build $(BUILD) --target labs --parallel

# Says how long the build and the tests took, whatever their result.
test: configure
	@start=$$(date +%s); \
	$(CMAKE) --build $(BUILD) --parallel && (cd $(BUILD) && ctest --output-on-failure); status=$$?; \
	echo "make test: $$(($$(date +%s) - start)) s of wall time, build included"; exit $$status

# A real two-task Slurm job array of `labbook grade` on a one-node cluster started in a
# temporary folder (needs root; installs Slurm and munge first): tests/slurm/two_task_array.sh.
test-slurm: configure
	@tools/install-deps slurm
	$(CMAKE) --build $(BUILD) --target labbook labbook-grade --parallel
	cd $(BUILD) && ctest -L slurm --output-on-failure

# API documentation of the collector and data model (Doxygen): build/docs/html/index.html.
docs:
	@tools/install-deps docs
	doxygen Doxyfile

clean:
	rm -rf $(BUILD)
