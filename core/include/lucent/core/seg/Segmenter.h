/// @brief The steppable engine interface shared by every method and backend.
#pragma once

#include "lucent/core/JsonWriter.h"
#include "lucent/core/seg/Backend.h"
#include "lucent/core/seg/LabelSink.h"
#include "lucent/core/seg/MethodFigures.h"
#include "lucent/core/seg/SegmentationRequest.h"

#include <array>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace lucent {

/// What one call of step() did; cheap to make every frame.
struct StepReport {
    int iterations = 0;          ///< iterations (CPU: fronts; CUDA: rounds of tiles) done since start()
    double progress = 0.0;       ///< 0..1, an estimate
    double convergence = 0.0;    ///< method's figure: front size (srg), voxels settled (fc),
                                 ///< largest membership change (fcm), GL criterion (snake)
    bool finished = false;
    /// Voxels whose label may have changed in this step (a superset; empty when none did), so a
    /// frame re-uploads or redraws only that box.
    std::optional<VoxelBox> changed;
    /// Snake: the current polygon (pixel coordinates on the slice); empty for other methods.
    std::vector<std::array<double, 2>> polygon;
    /// Snake: the slice `polygon` lies on (a propagating run moves from slice to slice); -1 without one.
    int polygonSlice = -1;
};

/// How update() took a parameter change.
enum class UpdateOutcome {
    Relabelled,  ///< nothing to recompute: labels follow the new parameters (fc threshold)
    Continued,   ///< the stored state grows further (srg: wider interval, added seeds); step() again
    Restarted,   ///< the change needs a new run: start() was called with the new request
};

class Segmenter {
public:
    virtual ~Segmenter() = default;
    virtual Method method() const = 0;
    virtual const char* backend() const = 0;  ///< backendKey(Backend::Cpu) or backendKey(Backend::Cuda)
    /// Validates and prepares; throws std::invalid_argument with a clear message (GpuError for
    /// device faults).
    virtual void start(const SegmentationRequest& request) = 0;
    /// Advances by up to maxIterations of the method's own iterations.
    virtual StepReport step(int maxIterations) = 0;
    virtual bool finished() const = 0;
    /// Stops early; labels then hold the state reached so far.
    virtual void cancel() = 0;
    /// Writes labels (0/1 for srg, fc, snake; 0..C for fcm) on the volume's grid into `sink`: at
    /// least the voxels of `box` (all when null); others are left as they are. CPU engines take
    /// host sinks only; CUDA engines take both.
    virtual void writeLabels(const LabelSink& sink, const VoxelBox* box = nullptr) const = 0;
    /// Soft maps on the volume's grid: fc one connectivity map (0..1), fcm one membership map per
    /// cluster (in label order); none for srg and snake.
    virtual std::vector<Volume> softMaps() const { return {}; }
    /// Soft map `index` as 8 bits a voxel (lround(value * 255), the heat overlay's texels) into a
    /// device sink, where the engine keeps its maps on the device (CUDA fc and fcm), so the viewer
    /// fills its heat texture without a host round trip. False when it cannot (CPU engines: the
    /// caller uses softMaps()). The same bytes as converting softMaps() on the host.
    virtual bool writeSoftMap(int index, const LabelSink& sink) const {
        (void)index;
        (void)sink;
        return false;
    }
    /// Every soft map as float32 on the device (softMaps()'s values and order; map k at k *
    /// voxelCount floats), where the engine can keep them there (CUDA fcm); null otherwise. Valid
    /// until the next step or start.
    virtual const float* deviceSoftMaps() const { return nullptr; }
    /// The method's figures (estimated parameters, centres, GL, device time).
    virtual MethodFigures figures() const { return {}; }
    /// Takes new parameters, keeping what the method allows (see UpdateOutcome); the default restarts.
    virtual UpdateOutcome update(const SegmentationRequest& request);
    /// Snake: writes {"slices": [{"slice", "polygon", "gl"}]}; false for methods without contours.
    virtual bool writeContours(JsonWriter&) const { return false; }
    /// The 3D snake: its binary level set now, packed over its domain as Snake3dShape packs it
    /// (Snake3dWords.h), into `words`, and the domain into `domain` (a copy from the device for CUDA).
    /// What the viewer's scrubber keeps of every step. False for the other methods.
    virtual bool copyLevelSet(std::vector<std::uint64_t>& words, VoxelBox& domain) const {
        (void)words;
        (void)domain;
        return false;
    }

    /// All labels into `out`, reusing its storage when it is already on the volume's grid.
    void result(LabelMap& out) const;
    /// result(), for a caller done with the engine (the CLI): an engine whose working memory can
    /// become the labels hands it over instead of holding both (CPU region growing: its state byte
    /// per voxel). Afterwards only figures(), backend() and writeContours() are valid until start().
    virtual void takeResult(LabelMap& out) { result(out); }
    /// Runs step() until finished; returns the last report.
    StepReport run(int iterationsPerStep = 64);

protected:
    /// The geometry of the volume of the running request (for result()).
    virtual const Geometry& grid() const = 0;
};

}  // namespace lucent
