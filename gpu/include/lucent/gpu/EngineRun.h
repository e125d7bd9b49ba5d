/// @brief One engine run to its end, as `lucent segment` and the Python module run it: the engine
/// from the factory, its steps, its figures and its labels handed over, with the run's timings.
#pragma once

#include "lucent/core/Progress.h"
#include "lucent/core/seg/SegmentationRequest.h"
#include "lucent/core/seg/Segmenter.h"
#include "lucent/gpu/SegmenterFactory.h"

#include <array>
#include <memory>
#include <string>
#include <vector>

namespace lucent::gpu {

struct EngineRunOptions {
    bool wantSoft = false;      ///< keep the soft maps (fc's connectivity, fcm's memberships)
    bool keepEngine = false;    ///< keep the engine (contours to write); else its memory is given back
    int maxSteps = 0;           ///< > 0: that many single steps (a live run's first N), then stop
    ProgressCallback progress;  ///< the engine's own estimate, scaled to 1000
    /// Count the labelled voxels (a pass over the labels after the run: the CLI's summary and
    /// stats; the Python module's arrays leave it to their caller).
    bool countVoxels = true;
    /// The context the CUDA engine runs on (one over a resident volume, Resident.h); null: its own.
    std::shared_ptr<GpuContext> context;
    /// Device memory for the labels (a uint8 a voxel, `context`'s device): the CUDA engine writes
    /// them there and EngineRun::labels stays empty, so they never pass through host memory. Needs
    /// `context` and a CUDA engine (std::invalid_argument otherwise).
    std::uint8_t* deviceLabels = nullptr;
    /// A label map on the volume's grid that the caller made (while waiting for something else): a
    /// CUDA engine writes the labels into it rather than making one; engines that hand over their own
    /// buffer replace it. Left empty when null.
    LabelMap* labels = nullptr;
};

/// What the engine handed back, with its timings.
struct EngineRun {
    std::unique_ptr<Segmenter> engine;  ///< only with keepEngine
    StepReport steps;
    MethodFigures figures;
    std::string notice;   ///< why the run left the GPU, or empty
    std::string backend;  ///< the engine's backend key
    LabelMap labels;
    std::vector<Volume> soft;
    std::size_t voxels = 0;  ///< labelled (non-zero) voxels; 0 without countVoxels
    /// Voxels of each label value (0 the background), from the same pass; zeros without countVoxels.
    std::array<std::size_t, 256> labelVoxels{};
    /// ms_compute: the method's own work in start() and the steps (CUDA: device time by events);
    /// ms_total adds handing the results back (labels, soft maps).
    double msCompute = 0, msTotal = 0;
};

/// Runs `request` on `method`'s engine for `backend` to its end. A request the engine refuses, or
/// a backend that cannot run, throws std::invalid_argument with the engine's message; a device
/// fault under Backend::Cuda throws GpuError. An empty result is not an error here.
EngineRun runEngine(Method method, Backend backend, const SegmentationRequest& request,
                    const EngineRunOptions& options = {});

}  // namespace lucent::gpu
