/// @brief What every fuzz target shares: a low read limit, a scratch folder, and the volume-file body.
#pragma once

#include "lucent/io/RawImage.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

namespace lucent::fuzz {

/// Called from LLVMFuzzerInitialize: caps one image at 256 MiB (LUCENT_READ_LIMIT_MB), below
/// libFuzzer's 2 GiB malloc limit, so that a header the readers accept cannot be reported as an
/// out-of-memory crash on a large machine; creates the scratch folder.
void initialise();

/// A folder made for this process (removed at exit) that holds `data.raw` (4 KiB) and
/// `data.raw.gz`, so that inputs naming a detached data file reach that code with real bytes.
const std::string& scratchFolder();

/// Writes the input to `name` in the scratch folder and returns its path, for APIs that read files
/// themselves: DCMTK keeps large values of a file on disk until they are used, which a buffer
/// stream cannot, so the DICOM targets fuzz the file path that users run.
std::string writeScratchFile(const std::uint8_t* data, std::size_t size, const std::string& name);

/// The volume-file targets' body: `parse` the bytes as the file `name` (in the scratch folder),
/// then run what every load runs after it (geometry check, conversion to a volume and to labels).
/// A refusal (IoError) is the expected outcome of most inputs; anything else escapes and is a finding.
void fuzzVolumeFile(const std::uint8_t* data, std::size_t size, const std::string& name,
                    const std::function<io::RawImage(const std::vector<char>&, const std::string&)>& parse);

}  // namespace lucent::fuzz
