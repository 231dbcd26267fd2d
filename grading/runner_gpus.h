#pragma once
/// @file
/// Which GPUs `labbook grade` runs submissions on: one runner per GPU, each a
/// CUDA_VISIBLE_DEVICES entry its harness runs see as device 0.
#include <cstddef>
#include <string>
#include <vector>

namespace labbook::grading {

/// The GPUs to grade on. `cuda_visible_devices` (nullptr when unset) wins, as Slurm sets it to
/// the GPUs a task was given: its entries (indices, UUIDs or MIG names) as they are. Otherwise
/// indices 0 .. driver_gpus - 1 (at least one: "0"). Throws labbook::Error when the variable
/// is set but names no GPU.
std::vector<std::string> runner_gpus(const char* cuda_visible_devices, std::size_t driver_gpus);

}  // namespace labbook::grading
