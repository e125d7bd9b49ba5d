/// @brief The CLI's sub-commands; each returns the process exit code.
#pragma once

#include "lucent/core/LabelMap.h"

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace lucent::app {

int runInfo(const std::vector<std::string>& args);
int runConvert(const std::vector<std::string>& args);
int runSegment(const std::vector<std::string>& args);
int runExport(const std::vector<std::string>& args);
/// `lucent stats MASK --reference PATH`: per-label figures of a mask on its image.
int runStats(const std::vector<std::string>& args);
/// `lucent islands MASK -o OUT --keep-largest|--fill-holes|--remove-smaller-than ML`: the viewer's
/// island tools on a mask file.
int runIslands(const std::vector<std::string>& args);
/// `lucent interpolate MASK [--axis i|j|k] [--labels 1,2] [--method M] [--backend B] -o OUT`: fill
/// between slices on a mask file.
int runInterpolate(const std::vector<std::string>& args);
/// `lucent pacs echo|find|get|send`: DICOM networking with one node or DICOMweb service.
int runPacs(const std::vector<std::string>& args);
/// `lucent db list|import`: the local study database.
int runDb(const std::vector<std::string>& args);

}  // namespace lucent::app
namespace lucent::pacs {
class StudyDatabase;
}
namespace lucent::app {
/// The study database at net::defaultStudyDatabase() (LUCENT_DB or the user's data folder), its
/// recovery message, if any, on stderr.
std::unique_ptr<pacs::StudyDatabase> openStudyDatabase();
int runVersion();
/// The Qt viewer (or its screenshot mode); argv as main received it.
int runViewer(int argc, char** argv);

/// Refuses (runtime_error naming the mask, listing the labels present) when a label of `wanted` has no
/// voxel in `labels`: export and islands say so rather than write a file without it.
void requireLabels(const std::string& maskPath, const LabelMap& labels, const std::vector<std::uint8_t>& wanted);

}  // namespace lucent::app
