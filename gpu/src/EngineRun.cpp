/// @brief runEngine: one engine run to its end (the CLI's `segment` and the Python module).
#include "lucent/gpu/EngineRun.h"

#include "lucent/core/LabelStatistics.h"
#include "lucent/core/StageTimes.h"
#include "lucent/gpu/GpuContext.h"

#include <chrono>
#include <stdexcept>
#include <string>

namespace lucent::gpu {

namespace {
using Clock = std::chrono::steady_clock;

double millisecondsSince(Clock::time_point t0) {
    return std::chrono::duration<double, std::milli>(Clock::now() - t0).count();
}
}  // namespace

EngineRun runEngine(Method method, Backend backend, const SegmentationRequest& request,
                    const EngineRunOptions& options) {
    EngineRun r;
    if (options.deviceLabels && !options.context)
        throw std::invalid_argument("labels in device memory need the GPU context they lie in");
    {
        const stages::Scope stage("engine create");
        r.engine = createSegmenter(method, backend, options.context);
    }
    const auto tTotal = Clock::now();
    {
        const stages::Scope stage("engine start");
        r.engine->start(request);
    }
    const auto tSteps = Clock::now();
    constexpr std::size_t kProgressScale = 1000;
    if (options.maxSteps > 0) {
        for (int i = 0; i < options.maxSteps && !r.steps.finished; ++i) r.steps = r.engine->step(1);
        if (!r.steps.finished) r.engine->cancel();
    } else {
        do {
            r.steps = r.engine->step(64);
            if (options.progress)
                options.progress(r.steps.finished ? kProgressScale : std::size_t(r.steps.progress * 999),
                                 kProgressScale);
        } while (!r.steps.finished);
    }
    stages::record("engine steps", millisecondsSince(tSteps));
    r.figures = r.engine->figures();
    // CUDA engines time their own device work with CUDA events (the upload is ms_upload).
    r.msCompute = r.figures.msDevice ? *r.figures.msDevice : millisecondsSince(tTotal);
    r.notice = fallbackNotice(*r.engine);
    // Soft maps first: taking the result may hand the engine's memory over to the labels.
    if (options.wantSoft) r.soft = r.engine->softMaps();
    if (options.deviceLabels) {
        // After the run: an auto engine that left the GPU could not write device memory.
        if (std::string(r.engine->backend()) != backendKey(Backend::Cuda))
            throw std::invalid_argument("labels in device memory need a CUDA engine (backend cuda)");
        r.engine->writeLabels(LabelSink::device(options.deviceLabels, request.volume->voxelCount()));
        options.context->synchronize();  // whole before anyone reads them, on any stream
    } else {
        if (options.labels) r.labels = std::move(*options.labels);
        const stages::Scope stage("engine result");
        r.engine->takeResult(r.labels);
    }
    r.backend = r.engine->backend();
    if (!options.keepEngine) {
        const stages::Scope stage("engine release");
        r.engine.reset();
    }
    r.msTotal = millisecondsSince(tTotal);
    if (options.countVoxels && !options.deviceLabels) {
        const stages::Scope stage("count voxels");
        r.labelVoxels = countLabels(r.labels, request.threads);
        r.voxels = r.labels.voxelCount() - r.labelVoxels[0];
    }
    return r;
}

}  // namespace lucent::gpu
