/// @brief The figures a method reports (estimated parameters, centres, GL, device time) as data;
/// the CLI's --stats JSON and the viewer's HUD are built from it.
#pragma once

#include "lucent/core/JsonWriter.h"
#include "lucent/core/seg/FuzzyAffinity.h"

#include <cstddef>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace lucent {

struct MethodFigures {
    // fuzzy connectedness
    std::optional<AffinityParams> affinity;  ///< M, S, D used (estimated or given)
    std::optional<double> threshold;
    // fuzzy C-means
    std::vector<double> centres;  ///< ascending
    std::optional<std::size_t> samples;
    std::string path;  ///< "histogram" or "per-voxel"
    std::vector<std::size_t> clusterVoxels;  ///< voxels of each cluster, in label order (label k+1 is entry k)
    // snake
    std::optional<double> gl;
    std::optional<std::size_t> slices, nodes;
    // 3D snake: the region means of the last iteration, and whether the level set stopped changing
    std::optional<double> meanInside, meanOutside;
    std::optional<bool> converged;
    // grow from seeds: voxels per label, for every label seeded or reached (ascending labels)
    std::vector<std::pair<int, std::size_t>> labelVoxels;
    // CUDA engines: device time from CUDA events (volume already resident), and the upload
    std::optional<double> msDevice, msUpload;
    std::optional<int> rounds;              ///< tile rounds the CUDA propagation used
    std::optional<long long> tileVisits;    ///< tiles worked on in those rounds
};

/// Adds the figures that are set to an open JSON object (keys as in `lucent segment --stats`).
void writeFigures(JsonWriter& json, const MethodFigures& figures);

}  // namespace lucent
