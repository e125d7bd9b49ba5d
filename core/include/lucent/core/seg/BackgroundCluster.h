/// @brief The fuzzy C-means cluster that is the scan's background (the air around the body), so
/// that the viewer leaves it out of Accept and the 3D pane by default: a label of the air is never
/// what the reader wants, and its surface, a box around everything, hides the others.
///
/// The rule: the cluster whose centre is nearest (FCM's hard assignment in one channel) to most of
/// the voxels on the volume's six faces, when it holds more than `kBackgroundFaceShare` of them. A
/// volume cropped inside the body has no such cluster (its faces cut through several tissues).
#pragma once

#include "lucent/core/Volume.h"

#include <optional>
#include <vector>

namespace lucent {

/// Share of the face voxels the background cluster must hold.
inline constexpr double kBackgroundFaceShare = 0.5;

/// The background cluster (1-based, as the result labels it) of a fuzzy C-means run on `volume`
/// with `centres` (cluster c at c - 1), or none. Reads only the volume's faces.
std::optional<int> backgroundCluster(const Volume& volume, const std::vector<double>& centres);

}  // namespace lucent
