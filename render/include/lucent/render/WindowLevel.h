/// @brief Window/level: presets by name and an automatic window from the histogram (for MR).
#pragma once

#include "lucent/core/Volume.h"

#include <optional>
#include <string>
#include <vector>

namespace lucent::render {

struct WindowLevel {
    double level = 40, width = 400;
};

struct WindowPreset {
    std::string name;   ///< "lung", "mediastinum", "bone", "brain", "abdomen", "auto"
    std::string label;  ///< for menus
    WindowLevel window; ///< unused for "auto"
};

/// The CT presets and "auto", in menu / number-key order (1..6).
const std::vector<WindowPreset>& windowPresets();
/// The preset's window for this volume ("auto": from its histogram; "file1", "file2", ...: the
/// volume's own windows, VolumeMetadata::windows); nullopt for an unknown name.
std::optional<WindowLevel> presetWindow(const std::string& name, const Volume& volume);
/// The name presetWindow() takes for the volume's own window `index` (0-based): "file1", ...
std::string fileWindowName(std::size_t index);
/// For menus: "BRAIN  W 80 L 40" (the file's explanation, or "Scan window N" without one).
std::string fileWindowLabel(const NamedWindow& window, std::size_t index);
/// 1st to 99th percentile of the voxels (skipping the lowest value, often padding or air).
WindowLevel autoWindow(const Volume& volume);
/// Whether the values are CT's in Hounsfield units, whatever the file says of its modality: at least
/// 1 % of the voxels (a strided sample) lie near air's -1000 HU (-1100..-900) and none above
/// 32767. MR, PET and ultrasound values are never that negative.
bool valuesLookLikeCt(const Volume& volume);
/// The window a CT opens in when neither the scan nor the user chose one: "brain" when its
/// description names the head (head, brain, cran, skull, neuro), else "abdomen" (soft tissue).
std::string defaultCtPreset(const std::string& description);

}  // namespace lucent::render
