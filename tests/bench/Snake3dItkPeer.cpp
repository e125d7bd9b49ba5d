/// @brief The 3D snake's ITK peer (built only where ITK is found): ITK's sparse-field level set,
/// ThresholdSegmentationLevelSetImageFilter (the engine ITK-SNAP builds on), on the domain and
/// start that `lucent_bench_snake3d --dump DIR` wrote, for the same number of iterations (no RMS
/// stop), timed per iteration. The threshold interval is the peer's own form of the region term:
/// the inside mean +- 2.5 standard deviations of the start (the phantom's dark structure).
/// usage: lucent_bench_snake3d_itk DIR CASE [--threads 1,2]
#include <itkCommand.h>
#include <itkImage.h>
#include <itkImportImageFilter.h>
#include <itkMultiThreaderBase.h>
#include <itkThresholdSegmentationLevelSetImageFilter.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

using Image = itk::Image<float, 3>;

int field(const std::string& json, const std::string& key) {
    std::smatch m;
    if (!std::regex_search(json, m, std::regex("\"" + key + "\": *([0-9]+)"))) throw std::runtime_error("no " + key);
    return std::stoi(m[1]);
}

template <class T>
std::vector<T> readRaw(const std::string& path, std::size_t count) {
    std::vector<T> out(count);
    std::ifstream in(path, std::ios::binary);
    if (!in.read(reinterpret_cast<char*>(out.data()), std::streamsize(count * sizeof(T)))) throw std::runtime_error("cannot read " + path);
    return out;
}

Image::Pointer image(const std::vector<float>& values, int nx, int ny, int nz) {
    auto img = Image::New();
    Image::RegionType region;
    region.SetSize({{std::size_t(nx), std::size_t(ny), std::size_t(nz)}});
    img->SetRegions(region);
    img->Allocate();
    std::copy(values.begin(), values.end(), img->GetBufferPointer());
    return img;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 3) {
        std::fprintf(stderr, "usage: lucent_bench_snake3d_itk DIR CASE [--threads 1,2]\n");
        return 2;
    }
    const std::string dir = argv[1], name = argv[2];
    std::vector<int> threads{1, 2};
    if (argc >= 5 && std::string(argv[3]) == "--threads") {
        threads.clear();
        std::stringstream in(argv[4]);
        for (std::string p; std::getline(in, p, ',');) threads.push_back(std::atoi(p.c_str()));
    }
    std::ifstream metaFile(dir + "/" + name + ".json");
    const std::string meta((std::istreambuf_iterator<char>(metaFile)), std::istreambuf_iterator<char>());
    const int nx = field(meta, "nx"), ny = field(meta, "ny"), nz = field(meta, "nz"), iterations = field(meta, "iterations");
    const std::size_t n = std::size_t(nx) * ny * nz;
    const auto raw = readRaw<std::int16_t>(dir + "/" + name + "_image.raw", n);
    const auto start = readRaw<std::uint8_t>(dir + "/" + name + "_start.raw", n);
    std::vector<float> values(raw.begin(), raw.end()), level(n);
    double sum = 0, sum2 = 0, count = 0;
    for (std::size_t i = 0; i < n; ++i) {
        level[i] = start[i] ? -0.5f : 0.5f;  // ITK: negative inside
        if (start[i]) sum += values[i], sum2 += double(values[i]) * values[i], ++count;
    }
    const double mean = sum / count, sd = std::sqrt(std::max(0.0, sum2 / count - mean * mean));
    const Image::Pointer feature = image(values, nx, ny, nz);
    for (int t : threads) {
        itk::MultiThreaderBase::SetGlobalDefaultNumberOfThreads(t);
        using Filter = itk::ThresholdSegmentationLevelSetImageFilter<Image, Image>;
        auto filter = Filter::New();
        filter->SetInput(image(level, nx, ny, nz));
        filter->SetFeatureImage(feature);
        filter->SetLowerThreshold(mean - 2.5 * sd);
        filter->SetUpperThreshold(mean + 2.5 * sd);
        filter->SetPropagationScaling(1.0);
        filter->SetCurvatureScaling(1.0);
        filter->SetMaximumRMSError(0.0);
        filter->SetNumberOfIterations(unsigned(iterations));
        filter->SetIsoSurfaceValue(0.0);
        // Each iteration's end, stamped: the median gap is the cost of one iteration, without the set-up.
        std::vector<std::chrono::steady_clock::time_point> stamps;
        auto observer = itk::CStyleCommand::New();
        observer->SetClientData(&stamps);
        observer->SetCallback([](itk::Object*, const itk::EventObject&, void* data) {
            static_cast<std::vector<std::chrono::steady_clock::time_point>*>(data)->push_back(std::chrono::steady_clock::now());
        });
        filter->AddObserver(itk::IterationEvent(), observer);
        const auto t0 = std::chrono::steady_clock::now();
        filter->Update();
        const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
        std::vector<double> gaps;
        for (std::size_t i = 1; i < stamps.size(); ++i)
            gaps.push_back(std::chrono::duration<double, std::milli>(stamps[i] - stamps[i - 1]).count());
        std::sort(gaps.begin(), gaps.end());
        const double perIteration = gaps.empty() ? ms / iterations : gaps[gaps.size() / 2];
        std::size_t inside = 0;
        const float* out = filter->GetOutput()->GetBufferPointer();
        for (std::size_t i = 0; i < n; ++i) inside += out[i] < 0;
        std::printf("%s: %d x %d x %d domain, ITK ThresholdSegmentationLevelSet, %u iterations done, %d threads: %.1f ms "
                    "in all, %.1f ms/iteration (median gap between iterations), %zu voxels inside\n",
                    name.c_str(), nx, ny, nz, filter->GetElapsedIterations(), t, ms, perIteration, inside);
        std::fflush(stdout);
    }
    return 0;
}
