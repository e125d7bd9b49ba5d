/// @brief Seeds in millimetres: `--seed-lps x,y,z`, `--seed-ras x,y,z` (repeatable) and `--seeds FILE`
/// (CSV of x,y,z in LPS, or a 3D Slicer markups .mrk.json in its own coordinate system), each placed
/// on the voxel whose centre is nearest, through the volume's Geometry.
#pragma once

#include "CommandLine.h"

#include "lucent/core/Geometry.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <set>
#include <string>
#include <vector>

namespace lucent::app {

/// A seed in patient space, with how the user wrote it (for errors).
struct WorldSeed {
    Vec3 lps;            ///< LPS millimetres
    std::string source;  ///< "--seed-ras 1,2,3", "pts.csv line 3", "pts.mrk.json point 2"
};

/// The valued options of this file: --seed-lps, --seed-ras, --seeds.
std::set<std::string> worldSeedOptions();
/// The seeds of --seed-lps and --seed-ras (UsageError when malformed), then those of --seeds FILE
/// (std::runtime_error naming the file and line when it cannot be read).
std::vector<WorldSeed> worldSeedsFromOptions(const CommandLine& cl);
/// The points of a seed file: `.json` names a Slicer markups file, anything else a CSV.
std::vector<WorldSeed> readSeedFile(const std::string& path);
/// The voxel of `grid` whose centre is nearest `seed`; std::runtime_error naming the seed when it
/// lies outside the volume (nearer no voxel centre than half a voxel along every axis).
VoxelIndex nearestVoxel(const Geometry& grid, const WorldSeed& seed);

}  // namespace lucent::app
