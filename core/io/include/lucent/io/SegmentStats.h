/// @brief The `--stats` JSON of `lucent segment` (and of the Python batch's documents): timings and figures, and what describes the run
/// (input, series, version, every parameter as it ran, spacing, per-label intensity statistics).
#pragma once


#include "lucent/core/JsonWriter.h"
#include "lucent/core/LabelMap.h"
#include "lucent/core/LabelStatistics.h"
#include "lucent/core/Volume.h"
#include "lucent/core/seg/MethodFigures.h"
#include "lucent/core/seg/SegmentationRequest.h"
#include "lucent/core/seg/Segmenter.h"
#include "lucent/io/VolumeNames.h"

#include <optional>
#include <string>
#include <vector>

namespace lucent::io {

/// How one seed was given: the option or file line, and the millimetre point for a seed in mm.
struct SeedOrigin {
    std::string given;        ///< "--seed 8,8,5", "--seed-ras 10,-4,22", "pts.csv line 3"
    std::optional<Vec3> lps;  ///< the point in LPS mm (a --seed-ras point converted), none for --seed
};

/// Everything one run of `segment` reports.
struct SegmentRun {
    VolumeIdentity identity;  ///< which volume of the input ran
    std::string maskPath;  ///< --mask, or empty
    std::string seedsMaskPath;  ///< growcut: --seeds-mask
    std::vector<std::pair<int, std::size_t>> seedVoxels;  ///< growcut: seed voxels of each label given
    Method method{};
    std::string backend;   ///< the engine that ran
    std::string fallback;  ///< why the run left the GPU, or empty
    const Volume* volume = nullptr;
    const SegmentationRequest* request = nullptr;  ///< seeds resolved to voxels
    std::vector<SeedOrigin> seedOrigins;           ///< parallel to request->seeds
    const LabelMap* labels = nullptr;
    StepReport steps;
    MethodFigures figures;
    std::size_t voxels = 0;
    double msCompute = 0, msTotal = 0, msLoad = 0;
    bool intervalEstimated = false;  ///< srg: lower and upper estimated at the first seed
    /// The per-label figures when computed beforehand (beside the mask's write); null: computed here.
    const std::vector<LabelStatistics>* statistics = nullptr;
};

/// "filled_slices" (the slices k the loader filled in for missing positions, which no figure counts)
/// and "labels": one object per non-zero label of `labels` (voxels, volume_ml, and mean, sd, min, max
/// of `volume`'s values under it, null without a measured voxel; filled_voxels, its voxels in filled
/// slices); the same figures for `segment --stats` and `lucent stats`.
void writeLabelFigures(JsonWriter& json, const Volume& volume, const LabelMap& labels, unsigned threads = 0);
/// The same from figures computed beforehand.
void writeLabelFigures(JsonWriter& json, const std::vector<LabelStatistics>& statistics,
                       const std::vector<int>& filledSlices);
/// "input" and "series" (VolumeIdentity), "series_uid" (null unless DICOM), "lucent_version",
/// "dimensions", "spacing_mm".
void writeProvenance(JsonWriter& json, const VolumeIdentity& identity, const Volume& volume);

/// The stats document of `run` (pretty-printed JSON).
std::string segmentStatsJson(const SegmentRun& run);
/// The stats file `path` asks for: the per-label CSV of `lucent stats --csv` (value,name,voxels,ml,
/// mean,sd,min,max) for a name ending in .csv, else segmentStatsJson().
std::string segmentStatsText(const SegmentRun& run, const std::string& path);

}  // namespace lucent::io
