/// @brief The engines from Python: a request from keyword parameters, run through the same factory
/// and engine loop as `lucent segment` (gpu::runEngine) with the GIL released, labels handed back
/// as an array that owns them.
#include "ArrayVolume.h"
#include "Bindings.h"
#include "DeviceArrays.h"

#include "lucent/core/seg/MethodParameters.h"
#include "lucent/core/seg/SeedInterval.h"
#include "lucent/gpu/DeviceVolume.h"
#include "lucent/gpu/EngineRun.h"
#include "lucent/gpu/GpuContext.h"
#include "lucent/gpu/OutOfMemory.h"
#include "lucent/gpu/Resident.h"
#include "lucent/io/LabelFile.h"
#include "lucent/io/SegmentStats.h"

#include <pybind11/stl.h>

namespace lucent::python {

namespace {

template <typename T>
T get(const py::dict& p, const char* key, T fallback) {
    return p.contains(key) && !p[key].is_none() ? p[key].cast<T>() : fallback;
}

template <typename T>
std::optional<T> optional(const py::dict& p, const char* key) {
    if (!p.contains(key) || p[key].is_none()) return std::nullopt;
    return p[key].cast<T>();
}

/// Every row of the parameter table (MethodParameters.h) whose keyword is given and not None sets
/// its field, once the row allows the value.
void parametersFrom(Method method, const py::dict& p, SegmentationRequest& r) {
    for (const Parameter& row : parameterTable()) {
        if (row.method != method) continue;
        const std::string key(row.key);
        if (!p.contains(key) || p[key.c_str()].is_none()) continue;
        const py::object v = p[key.c_str()];
        if (row.kind == ParameterKind::OptionalRange) {  // (lower, upper): a sequence of two numbers
            std::vector<double> pair;
            try {
                pair = v.cast<std::vector<double>>();
            } catch (const py::cast_error&) {
            }
            if (pair.size() != 2)
                throw std::invalid_argument(row.label() + " must be " + row.requirement() + ", as (lower, upper)");
            const ValueRange range{pair[0], pair[1]};
            checkRange(row, range);
            row.setRange(r, range);
            continue;
        }
        const double value = row.kind == ParameterKind::Flag ? double(v.cast<bool>()) : v.cast<double>();
        checkParameter(row, value);  // before set(), which would truncate 2.5 clusters to 2
        row.set(r, value);
    }
}

/// The request the keywords describe (the package has named and normalised them: seeds as
/// (i, j, k) tuples in the volume's axes, rect and roi as tuples). What a keyword leaves out keeps
/// the request's default (ParameterLimits.h); ranges are checked by the engine's validateRequest,
/// as for the CLI.
SegmentationRequest requestFrom(Method method, const py::dict& p) {
    SegmentationRequest r;
    r.threads = get<unsigned>(p, "threads", 0);
    if (p.contains("seeds"))
        for (const auto& s : p["seeds"].cast<std::vector<std::array<int, 3>>>()) r.seeds.push_back({s[0], s[1], s[2]});
    if (const auto roi = optional<std::array<int, 6>>(p, "roi"))
        r.roi = VoxelBox{{(*roi)[0], (*roi)[1], (*roi)[2]}, {(*roi)[3], (*roi)[4], (*roi)[5]}};
    parametersFrom(method, p, r);
    // No connectivity map is handed back: the object alone, the same voxels (as the CLI without
    // --connectivity-map).
    r.fuzzyConnectedness.objectOnly = true;
    r.snake.slice = get<int>(p, "slice", r.snake.slice);
    r.snake.rect = get<std::array<int, 4>>(p, "rect", r.snake.rect);
    if (method == Method::Snake) snakeDomainFromRoi(r);
    auto& s3 = r.snake3d;
    if (const auto box = optional<std::array<int, 6>>(p, "box"))
        s3.box = VoxelBox{{(*box)[0], (*box)[1], (*box)[2]}, {(*box)[3], (*box)[4], (*box)[5]}};
    s3.radiiMm = get<std::vector<double>>(p, "radii_mm", {});
    validateParameters(method, r);
    return r;
}

/// Region growing given neither bound: the interval is estimated at the first seed, as the CLI does.
bool intervalToEstimate(Method method, const py::dict& p) {
    return method == Method::RegionGrowing && !optional<double>(p, "lower") && !optional<double>(p, "upper");
}

/// Runs the engine with the GIL released; the caller keeps the volume (and its array) alive.
gpu::EngineRun run(Method method, Backend backend, SegmentationRequest& request, bool estimate, bool countVoxels) {
    py::gil_scoped_release nogil;
    if (estimate) {
        validateRequest(Method::RegionGrowing, request);  // seeds present and inside before they are read
        const RegionGrowingParams p = seedInterval(*request.volume, request.seeds, request.volume->range());
        request.regionGrowing.lower = p.lower;
        request.regionGrowing.upper = p.upper;
    }
    return gpu::runEngine(method, backend, request, {.countVoxels = countVoxels});
}

/// What the run did (labelled voxels are not counted: the caller has the array).
py::dict runInfo(const gpu::EngineRun& r, const SegmentationRequest& request) {
    py::dict info;
    info["backend"] = r.backend;
    info["fallback"] = r.notice;
    info["iterations"] = r.steps.iterations;
    info["convergence"] = r.steps.convergence;
    info["ms_compute"] = r.msCompute;
    info["ms_total"] = r.msTotal;
    info["lower"] = request.regionGrowing.lower;
    info["upper"] = request.regionGrowing.upper;
    return info;
}

/// `--seed i,j,k` for each seed: the batch's documents say how seeds were given as the CLI's do.
std::vector<io::SeedOrigin> seedOrigins(const SegmentationRequest& request) {
    std::vector<io::SeedOrigin> out;
    for (const VoxelIndex& s : request.seeds)
        out.push_back(
            {"--seed " + std::to_string(s.i) + "," + std::to_string(s.j) + "," + std::to_string(s.k), std::nullopt});
    return out;
}

/// The mask and growcut's seeds of a request: host uint8 arrays on the volume's grid.
struct RequestMaps {
    LabelMap mask, seeds;
    RequestMaps(SegmentationRequest& request, const py::object& mask, const py::object& seedsMask) {
        const Geometry& g = request.volume->geometry();
        if (!mask.is_none()) {
            this->mask = labelMapFrom(mask.cast<py::array>(), g);
            request.mask = &this->mask;
        }
        if (!seedsMask.is_none()) {  // grow from seeds: the labels to grow, 0 = no seed
            seeds = labelMapFrom(seedsMask.cast<py::array>(), g);
            request.growCut.seeds = &seeds;
        }
    }
};

/// An array: labels and what the run did (backend, iterations, timings, srg's interval).
py::tuple segmentArray(const std::string& methodKey, const py::array& volumeArray, const py::dict& params,
                       const std::string& backendKey, const py::object& mask, const py::object& seedsMask) {
    const Method method = gpu::parseMethod(methodKey);
    const Backend backend = gpu::parseBackend(backendKey);
    const Volume volume = borrowVolume(volumeArray, arrayGeometry(volumeArray));
    SegmentationRequest request = requestFrom(method, params);
    request.volume = &volume;
    const RequestMaps maps(request, mask, seedsMask);
    gpu::EngineRun r = run(method, backend, request, intervalToEstimate(method, params), false);
    py::dict info = runInfo(r, request);
    return py::make_tuple(labelsArray(std::move(r.labels)), info);
}

/// A CUDA array where it lies (DeviceArrays.h): the CUDA engine reads the caller's device memory
/// and writes the labels into device memory of their own; neither passes through the host. Always
/// the CUDA engine: the volume has no host voxels for a CPU engine (the package copies to the host
/// for backend "cpu"). Labels (an object with __dlpack__) and what the run did, with the device
/// pointer the engine read ("volume_pointer").
/// One run over a borrowed device array, in a context and label memory kept from earlier runs when
/// there are (Resident.h). The GIL is released by the caller.
gpu::EngineRun runResident(Method method, const DeviceArray& array, const Volume& volume, SegmentationRequest& request,
                           bool estimate, std::shared_ptr<gpu::DeviceLabels>& labels, std::uintptr_t& volumePointer) {
    const auto context = gpu::residentContext(volume, gpu::DeviceVolume(array.geometry, array.type, array.data));
    volumePointer = reinterpret_cast<std::uintptr_t>(context->deviceVolume().devicePointer());
    if (estimate) {
        validateRequest(Method::RegionGrowing, request);  // seeds present and inside before they are read
        const RegionGrowingParams p = gpu::residentSeedInterval(*context, request.seeds);
        request.regionGrowing.lower = p.lower;
        request.regionGrowing.upper = p.upper;
    }
    labels = std::make_shared<gpu::DeviceLabels>(volume.voxelCount());
    return gpu::runEngine(method, Backend::Cuda, request,
                          {.countVoxels = false, .context = context, .deviceLabels = labels->data()});
}

py::tuple segmentResident(const std::string& methodKey, const std::shared_ptr<DeviceArray>& array,
                          const py::dict& params, const py::object& mask, const py::object& seedsMask) {
    const Method method = gpu::parseMethod(methodKey);
    const Volume volume = gpu::residentVolume(array->geometry, array->type);
    SegmentationRequest request = requestFrom(method, params);
    request.volume = &volume;
    const RequestMaps maps(request, mask, seedsMask);
    const bool estimate = intervalToEstimate(method, params);
    std::shared_ptr<gpu::DeviceLabels> labels;
    gpu::EngineRun r;
    std::uintptr_t volumePointer = 0;
    {
        py::gil_scoped_release nogil;
        try {
            r = runResident(method, *array, volume, request, estimate, labels, volumePointer);
        } catch (const gpu::GpuOutOfMemory&) {
            // Memory kept for later runs is not free memory: given back, the run is tried once more.
            labels.reset();
            if (gpu::releaseResidentMemory() == 0) throw;
            r = runResident(method, *array, volume, request, estimate, labels, volumePointer);
        }
    }
    py::dict info = runInfo(r, request);
    info["volume_pointer"] = volumePointer;
    return py::make_tuple(deviceLabelsObject(std::move(labels), *array), info);
}

/// growcut's seeds: the label file at `path` read onto `volume`'s voxels by the one placement rule of
/// every mask (as `lucent segment --seeds-mask`: another grid is refused naming the file); the seed
/// voxels of each label, as the CLI's document lists them.
std::vector<std::pair<int, std::size_t>> readSeedsMask(const std::string& path, const Volume& volume, LabelMap& seeds) {
    auto out = io::readSeedLabels(path, volume.geometry(), seeds);
    if (out.empty()) throw std::invalid_argument(path + " holds no seed (every voxel is 0)");
    return out;
}

/// A loaded image: labels and the `--stats` JSON of `lucent segment` for it (the batch's documents).
/// growcut reads its seeds from `seedsMaskPath` (a label file on the image's grid).
py::tuple segmentImage(const Image& image, const std::string& methodKey, const py::dict& params,
                       const std::string& backendKey, double msLoad, const std::string& seedsMaskPath) {
    const Method method = gpu::parseMethod(methodKey);
    const Backend backend = gpu::parseBackend(backendKey);
    SegmentationRequest request = requestFrom(method, params);
    request.volume = image.volume.get();
    LabelMap seeds;
    std::vector<std::pair<int, std::size_t>> seedVoxels;
    if (method == Method::GrowCut) {
        if (seedsMaskPath.empty()) throw std::invalid_argument("growcut needs a seeds mask (a label file on the image's grid)");
        py::gil_scoped_release nogil;
        seedVoxels = readSeedsMask(seedsMaskPath, *image.volume, seeds);
        request.growCut.seeds = &seeds;
    }
    const bool estimate = intervalToEstimate(method, params);
    gpu::EngineRun r = run(method, backend, request, estimate, true);
    std::string json;
    {
        py::gil_scoped_release nogil;
        const io::SegmentRun figures{.identity = image.identity,
                                     .maskPath = "",
                                     .seedsMaskPath = seedsMaskPath,
                                     .seedVoxels = seedVoxels,
                                     .method = method,
                                     .backend = r.backend,
                                     .fallback = r.notice,
                                     .volume = image.volume.get(),
                                     .request = &request,
                                     .seedOrigins = seedOrigins(request),
                                     .labels = &r.labels,
                                     .steps = r.steps,
                                     .figures = r.figures,
                                     .voxels = r.voxels,
                                     .msCompute = r.msCompute,
                                     .msTotal = r.msTotal,
                                     .msLoad = msLoad,
                                     .intervalEstimated = estimate};
        json = io::segmentStatsJson(figures);
    }
    return py::make_tuple(labelsArray(std::move(r.labels)), json);
}

/// The parameter table (MethodParameters.h) as Python dicts: what lucent.parameters() shows and what
/// the package's keywords and lucent.batch's options are checked against.
py::list parameterRows() {
    static const char* const kinds[] = {"integer", "number", "optional", "flag", "range"};
    py::list out;
    for (const Parameter& p : parameterTable()) {
        py::dict d;
        d["method"] = methodName(p.method);
        d["key"] = std::string(p.key);
        d["flag"] = std::string(p.flag);
        d["kind"] = kinds[int(p.kind)];
        const bool absent = p.kind == ParameterKind::OptionalNumber || p.kind == ParameterKind::OptionalRange;
        d["default"] = absent ? py::object(py::none()) : py::float_(p.limit.byDefault);
        d["min"] = p.limit.min;
        d["max"] = p.limit.max;
        d["min_open"] = p.limit.minOpen;
        d["choices"] = std::vector<int>(p.choices.begin(), p.choices.end());
        d["accepted"] = p.rangeText();
        d["unit"] = std::string(p.unit);
        d["help"] = std::string(p.help);
        out.append(d);
    }
    return out;
}

}  // namespace

void defineSegment(py::module_& m) {
    m.def("_parameters", &parameterRows);
    m.def("_segment", &segmentArray, py::arg("method"), py::arg("volume"), py::arg("params"), py::arg("backend"),
          py::arg("mask") = py::none(), py::arg("seeds_mask") = py::none());
    m.def("_segment_image", &segmentImage, py::arg("image"), py::arg("method"), py::arg("params"), py::arg("backend"),
          py::arg("ms_load") = 0.0, py::arg("seeds_mask") = "");
    m.def("_segment_resident", &segmentResident, py::arg("method"), py::arg("volume"), py::arg("params"),
          py::arg("mask") = py::none(), py::arg("seeds_mask") = py::none());
    m.def(
        "_release_gpu_memory", [](bool forGood) { return gpu::releaseResidentMemory(forGood); },
        py::arg("for_good") = false, py::call_guard<py::gil_scoped_release>());
    m.def("_has_cuda_engine", [](const std::string& method) { return gpu::hasCudaEngine(gpu::parseMethod(method)); });
}

}  // namespace lucent::python
