#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "availability_cache.h"
#include "cache_folder.h"

namespace labbook::profiler {
namespace {

AvailabilityKey full_key() { return {"8f2a", "NVRM version: 580.159.04", 130001, "b00t"}; }

TEST(AvailabilityCache, FileIsNamedByDeviceCuptiAndAHashOfDriverAndBoot) {
  const std::string file = availability_cache_file("/kept", full_key());
  EXPECT_EQ(file.rfind("/kept/8f2a-cupti130001-", 0), 0u) << file;
  EXPECT_EQ(file.substr(file.size() - 4), ".bin");
  AvailabilityKey other_driver = full_key();
  other_driver.driver = "NVRM version: 580.65.06";
  AvailabilityKey other_boot = full_key();
  other_boot.boot_id = "a-later-boot";
  EXPECT_NE(availability_cache_file("/kept", other_driver), file);
  EXPECT_NE(availability_cache_file("/kept", other_boot), file);
  EXPECT_NE(availability_cache_file("/kept", other_boot), availability_cache_file("/kept", other_driver));
}

TEST(AvailabilityCache, NothingIsKeptWithoutEveryPartOfTheKey) {
  EXPECT_EQ(availability_cache_file("", full_key()), "") << "no home to cache in";
  for (int part = 0; part < 4; ++part) {
    AvailabilityKey key = full_key();
    if (part == 0) key.device_uuid.clear();
    if (part == 1) key.driver.clear();
    if (part == 2) key.cupti_version = 0;
    if (part == 3) key.boot_id.clear();
    EXPECT_EQ(availability_cache_file("/kept", key), "") << "part " << part;
  }
}

TEST(AvailabilityCache, ThisHostsKeyNamesItsBoot) {
  // /proc/sys/kernel/random/boot_id exists on every Linux; the driver's line only with one.
  EXPECT_EQ(host_availability_key().boot_id.size(), 36u);
}

TEST(AvailabilityCache, AKeptImageIsReadOnlyAtTheSizeAskedFor) {
  const std::string folder = testing::TempDir() + "availability-" + std::to_string(::getpid());
  const std::string file = availability_cache_file(folder, full_key());
  const std::vector<std::uint8_t> image = {0, 1, 2, 250, 0, 7};
  EXPECT_TRUE(read_kept_availability(file, image.size()).empty()) << "nothing kept yet";
  keep_availability(file, image);   // makes the folder
  EXPECT_EQ(read_kept_availability(file, image.size()), image);
  EXPECT_TRUE(read_kept_availability(file, image.size() + 1).empty()) << "CUPTI now asks for another size";
  EXPECT_TRUE(read_kept_availability("", image.size()).empty());
  keep_availability(file, {9, 9});
  EXPECT_EQ(read_kept_availability(file, 2), (std::vector<std::uint8_t>{9, 9})) << "replaced whole";
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& entry : std::filesystem::directory_iterator(folder)) ++files;
  EXPECT_EQ(files, 1u) << "no temporary file left";
  std::filesystem::remove_all(folder);
}

TEST(AvailabilityCache, AFailedKeepIsNotAnError) {
  const std::string blocked = testing::TempDir() + "availability-blocked-" + std::to_string(::getpid());
  std::ofstream(blocked) << "a file where the folder would be";
  EXPECT_NO_THROW(keep_availability(blocked + "/image.bin", {1, 2, 3}));
  EXPECT_TRUE(read_kept_availability(blocked + "/image.bin", 3).empty());
  std::filesystem::remove(blocked);
}

TEST(AvailabilityCache, NamesHashTheSameInEveryBuild) {
  EXPECT_EQ(name_hash(""), "cbf29ce484222325") << "FNV-1a's offset basis";
  EXPECT_EQ(name_hash("a"), "af63dc4c8601ec8c");
  EXPECT_NE(name_hash("driver|boot"), name_hash("driver|boot2"));
}

TEST(AvailabilityCache, ImagesAreKeptBesideThePlans) {
  const char* old_xdg = std::getenv("XDG_CACHE_HOME");
  const std::string saved = old_xdg ? old_xdg : "";
  setenv("XDG_CACHE_HOME", "/cache", 1);
  EXPECT_EQ(cache_folder(kAvailabilityCacheKind), "/cache/labbook/counter-availability");
  if (old_xdg) setenv("XDG_CACHE_HOME", saved.c_str(), 1);
  else unsetenv("XDG_CACHE_HOME");
}

}  // namespace
}  // namespace labbook::profiler
