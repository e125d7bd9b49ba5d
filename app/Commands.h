/// @brief The CLI's sub-commands; each returns the process exit code.
#pragma once

#include <string>
#include <vector>

namespace lucent::app {

int runInfo(const std::vector<std::string>& args);
int runConvert(const std::vector<std::string>& args);
int runSegment(const std::vector<std::string>& args);
int runExport(const std::vector<std::string>& args);
/// `lucent stats MASK --reference PATH`: per-label figures of a mask on its image.
int runStats(const std::vector<std::string>& args);
/// `lucent pacs echo|find|get|send`: DICOM networking with one node.
int runPacs(const std::vector<std::string>& args);
int runVersion();
/// The Qt viewer (or its screenshot mode); argv as main received it.
int runViewer(int argc, char** argv);

}  // namespace lucent::app
