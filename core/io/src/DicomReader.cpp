/// @brief Parallel header scan and parallel pixel loading of DICOM series.
#include "lucent/io/DicomReader.h"

#include "DicomHeaderParser.h"
#include "DicomPixelDecoder.h"
#include "lucent/core/Errors.h"
#include "lucent/core/ParallelFor.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/IoWork.h"
#include "lucent/io/ReadLimits.h"

#include <dcmtk/dcmdata/dctk.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <filesystem>
#include <limits>
#include <map>
#include <mutex>

namespace fs = std::filesystem;

namespace lucent::io {

bool DicomReader::available() { return true; }

std::vector<DicomTag> DicomReader::dumpTags(const std::string& file) {
    initialiseDcmtk();
    DcmFileFormat ff;
    const OFCondition st = ff.loadFile(OFFilename(file.c_str()), EXS_Unknown, EGL_noChange, 256, ERM_autoDetect);
    if (st.bad()) throw IoError(file + ": not readable as DICOM (" + std::string(st.text()) + ")");
    std::vector<DicomTag> tags;
    auto add = [&](DcmItem* item, const std::string& prefix) {
        DcmStack stack;
        while (item->nextObject(stack, OFTrue).good()) {
            DcmObject* obj = stack.top();
            DcmTag tag = obj->getTag();
            DicomTag t;
            t.tag = prefix;
            t.tag.append(tag.toString().c_str());
            t.vr = tag.getVRName();
            t.name = tag.getTagName();
            if (obj->isLeaf()) {
                OFString value;
                if (obj->getLength() > 256)
                    t.value.append("(").append(std::to_string(obj->getLength())).append(" bytes)");
                else if (static_cast<DcmElement*>(obj)->getOFStringArray(value).good())
                    t.value = value.c_str();
            } else if (obj->ident() == EVR_SQ) {
                t.value.append("(sequence of ")
                    .append(std::to_string(static_cast<DcmSequenceOfItems*>(obj)->card()))
                    .append(" items)");
            }
            tags.push_back(std::move(t));
        }
    };
    add(ff.getMetaInfo(), "");
    add(ff.getDataset(), "");
    return tags;
}


DicomScanResult DicomReader::scan(const std::string& path, const DicomOptions& options) {
    return scanFiles(path, filesUnder(path), options);
}

DicomScanResult DicomReader::scanFiles(const std::string& path, const std::vector<std::string>& files,
                                       const DicomOptions& options) {
    std::vector<std::vector<DicomFrameHeader>> perFile(files.size());
    std::vector<std::string> errors(files.size());
    std::vector<HeaderOutcome> outcomes(files.size(), HeaderOutcome::NotDicom);
    ProgressCounter progress(options.progress, files.size());
    parallelFor(files.size(), options.threads, [&](std::size_t i) {
        if (progress.cancelled()) return;
        // One bad file never stops the scan: whatever it throws (a hostile header can exhaust
        // memory inside DCMTK too) makes it a skipped file named in the warnings.
        try {
            outcomes[i] = parseDicomHeader(files[i], perFile[i]);
        } catch (const IoError& e) {
            errors[i] = e.what();
        } catch (const std::exception& e) {
            perFile[i].clear();
            errors[i] = files[i] + ": cannot be read (" + e.what() + ")";
        }
        progress.advance();
    });
    if (progress.cancelled()) throw Cancelled();

    DicomScanResult result;
    result.filesScanned = files.size();
    std::vector<DicomFrameHeader> frames;
    std::size_t skipped = 0, segmentations = 0;
    for (std::size_t i = 0; i < files.size(); ++i) {
        if (!errors[i].empty())
            result.warnings.push_back("skipped " + errors[i]);
        else if (outcomes[i] == HeaderOutcome::Segmentation)
            ++segmentations;
        else if (outcomes[i] != HeaderOutcome::Image)
            ++skipped;
        for (auto& f : perFile[i]) frames.push_back(std::move(f));
    }
    if (skipped > 0)
        result.warnings.push_back(std::to_string(skipped) + " file(s) under " + path +
                                  " are not DICOM images (DICOMDIR, reports, other files) and were skipped");
    if (segmentations > 0)
        result.warnings.push_back(std::to_string(segmentations) + " DICOM SEG file(s) under " + path +
                                  " were skipped: segmentations are imported over a loaded volume, not loaded as one");
    result.series = assembleDicomSeries(std::move(frames));
    return result;
}

namespace {

/// Writes decoded slices into the volume; `fitsInt16` turns false on the first value that does not.
struct SliceWriter {
    Volume& volume;
    std::atomic<bool>& fitsInt16;

    void write(std::size_t z, const std::int32_t* values, std::size_t count, double slope, double intercept) {
        const std::size_t base = z * count;
        if (volume.pixelType() == PixelType::Int16) {
            std::int16_t* out = volume.int16Data() + base;
            const bool identity = slope == 1.0 && intercept == 0.0;
            const auto islope = static_cast<std::int32_t>(slope), iintercept = static_cast<std::int32_t>(intercept);
            for (std::size_t i = 0; i < count; ++i) {
                const std::int32_t v = identity ? values[i] : values[i] * islope + iintercept;
                if (v < std::numeric_limits<std::int16_t>::min() || v > std::numeric_limits<std::int16_t>::max()) {
                    fitsInt16 = false;
                    return;
                }
                out[i] = static_cast<std::int16_t>(v);
            }
        } else {
            float* out = volume.float32Data() + base;
            for (std::size_t i = 0; i < count; ++i) out[i] = static_cast<float>(values[i] * slope + intercept);
        }
    }
};

/// The slice lists of the time frames to load (one for a single volume), all on the series' grid.
using FrameList = std::vector<const std::vector<DicomSlice>*>;

std::vector<Volume> loadAs(const DicomSeries& series, const FrameList& frames, PixelType type,
                           const DicomOptions& options, bool& fits) {
    const auto& d = series.info.geometry.dims;
    std::vector<std::int64_t> sizes{d[0], d[1], d[2]};
    if (frames.size() > 1) sizes.push_back(std::int64_t(frames.size()));  // all held at once
    imageBytes(sizes, type == PixelType::Int16 ? 2 : 4,
               series.info.files.empty() ? series.info.id : series.info.files.front());
    std::vector<Volume> volumes;
    for (std::size_t t = 0; t < frames.size(); ++t) {
        volumes.emplace_back(series.info.geometry, type);
        countIoWork({.bytesAllocated = volumes.back().byteSize()});
    }
    // Slices grouped by file, so each file is read and decoded once (multi-frame files hold many
    // slices, an enhanced dynamic series every time frame too): file -> frame in it -> (volume, z).
    std::map<std::string, std::map<int, std::vector<std::pair<std::size_t, std::size_t>>>> byFile;
    for (std::size_t t = 0; t < frames.size(); ++t)
        for (std::size_t z = 0; z < frames[t]->size(); ++z)
            if (const DicomSlice& slice = (*frames[t])[z]; !slice.filler)
                byFile[slice.file][slice.frame].emplace_back(t, z);
    std::vector<std::pair<std::string, std::map<int, std::vector<std::pair<std::size_t, std::size_t>>>>> work(
        byFile.begin(), byFile.end());
    std::atomic<bool> fitsInt16{true};
    ProgressCounter progress(options.progress, work.size());
    parallelFor(work.size(), options.threads, [&](std::size_t w) {
        if (progress.cancelled() || !fitsInt16) return;
        // Not a structured binding: clang 14 (the fuzz build) cannot capture one in the lambda below.
        const std::string& file = work[w].first;
        const auto& targets = work[w].second;
        std::vector<int> framesInFile;
        for (const auto& target : targets) framesInFile.push_back(target.first);
        decodeDicomFrames(
            file, framesInFile, series.bitsStored, series.highBit, series.pixelRepresentation == 1,
            [&](int frame, const std::int32_t* values, std::size_t count) {
                if (count != series.info.geometry.sliceSize())
                    throw IoError(file + ": image size differs from the series");
                for (const auto& [t, z] : targets.at(frame)) {
                    const DicomSlice& slice = (*frames[t])[z];
                    SliceWriter{volumes[t], fitsInt16}.write(z, values, count, slice.slope, slice.intercept);
                }
            });
        progress.advance();
    });
    if (progress.cancelled()) throw Cancelled();
    fits = fitsInt16;
    return volumes;
}

/// Loads `frames` of `series` as volumes of one pixel type: int16 unless a rescale makes values
/// fractional; a value out of int16 range anywhere reloads them all as float32.
std::vector<Volume> loadSeries(const DicomSeries& series, const FrameList& frames, const DicomOptions& options) {
    if (!series.unloadableReason.empty()) throw IoError(series.unloadableReason);
    if (series.slices.empty()) throw IoError(series.info.id + ": series has no slices");
    bool integral = true;
    for (const auto* slices : frames)
        for (const DicomSlice& s : *slices)
            integral = integral && s.slope == std::round(s.slope) && s.intercept == std::round(s.intercept);
    bool fits = true;
    std::vector<Volume> volumes =
        loadAs(series, frames, integral ? PixelType::Int16 : PixelType::Float32, options, fits);
    if (!fits) volumes = loadAs(series, frames, PixelType::Float32, options, fits);

    for (std::size_t t = 0; t < frames.size(); ++t) {
        Volume& volume = volumes[t];
        const std::vector<DicomSlice>& slices = *frames[t];
        // Missing slices get the lowest value (air for CT), so they read as empty, not as tissue.
        std::vector<std::size_t> fillers;
        for (std::size_t z = 0; z < slices.size(); ++z)
            if (slices[z].filler) fillers.push_back(z);
        if (!fillers.empty()) {
            double lowest = std::numeric_limits<double>::max();
            const std::size_t n = volume.geometry().sliceSize();
            for (std::size_t z = 0; z < slices.size(); ++z)
                if (!slices[z].filler)
                    for (std::size_t i = 0; i < n; ++i) lowest = std::min(lowest, volume.value(z * n + i));
            for (std::size_t z : fillers)
                for (std::size_t i = 0; i < n; ++i) volume.setValue(z * n + i, lowest);
        }
        auto& m = volume.metadata();
        m.modality = series.info.modality;
        m.description = series.info.description;
        m.seriesUid = series.info.uid;
        m.patientName = series.info.patientName;
        m.studyDescription = series.info.studyDescription;
        m.sourcePath =
            series.info.files.empty() ? std::string() : fs::path(series.info.files.front()).parent_path().string();
        for (const auto& slice : slices) m.sliceFiles.push_back(slice.filler ? std::string() : slice.file);
        m.windows = series.info.windows;
    }
    return volumes;
}

}  // namespace

Volume DicomReader::load(const DicomSeries& series, const DicomOptions& options) {
    return std::move(loadSeries(series, {&series.slices}, options).front());
}

Volume DicomReader::loadFrame(const DicomSeries& series, int frame, const DicomOptions& options) {
    const int count = series.timeFrames.empty() ? 1 : int(series.timeFrames.size());
    if (frame < 0 || frame >= count)
        throw IoError(series.info.id + ": no time frame " + std::to_string(frame) + " (the series has " +
                      std::to_string(count) + ")");
    const auto* slices = frame == 0 ? &series.slices : &series.timeFrames[std::size_t(frame)];
    return std::move(loadSeries(series, {slices}, options).front());
}

std::vector<Volume> DicomReader::loadFrames(const DicomSeries& series, const DicomOptions& options) {
    if (series.timeFrames.empty()) return loadSeries(series, {&series.slices}, options);
    FrameList frames;
    for (const auto& slices : series.timeFrames) frames.push_back(&slices);
    return loadSeries(series, frames, options);
}

}  // namespace lucent::io
