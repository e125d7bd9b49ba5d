/// @brief Parallel header scan and parallel pixel loading of DICOM series.
#include "lucent/io/DicomReader.h"

#include "DicomHeaderParser.h"
#include "DicomPixelDecoder.h"
#include "lucent/core/Errors.h"
#include "lucent/core/ParallelFor.h"
#include "lucent/io/FileUtil.h"
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

namespace {

std::vector<std::string> listFiles(const std::string& path) {
    std::error_code ec;
    if (fs::is_regular_file(path, ec)) return {path};
    if (!fs::is_directory(path, ec)) {
        // A FIFO or device is named as such: it exists, and reading it would block or never end.
        if (fs::exists(fs::symlink_status(path, ec))) throw IoError(whyNotRegularFile(path));
        throw IoError(path + ": no such file or folder");
    }
    std::vector<std::string> files;
    for (fs::recursive_directory_iterator it(path, fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec)) {
        if (it->is_regular_file(ec)) files.push_back(it->path().string());
    }
    if (ec) throw IoError(path + ": cannot list folder (" + ec.message() + ")");
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

DicomScanResult DicomReader::scan(const std::string& path, const DicomOptions& options) {
    const auto files = listFiles(path);
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

Volume loadAs(const DicomSeries& series, PixelType type, const DicomOptions& options, bool& fits) {
    const auto& d = series.info.geometry.dims;
    imageBytes({d[0], d[1], d[2]}, type == PixelType::Int16 ? 2 : 4,
               series.info.files.empty() ? series.info.id : series.info.files.front());
    Volume volume(series.info.geometry, type);
    // Slices grouped by file, so each file is read and decoded once (multi-frame files hold many).
    std::map<std::string, std::vector<std::size_t>> byFile;
    for (std::size_t z = 0; z < series.slices.size(); ++z)
        if (!series.slices[z].filler) byFile[series.slices[z].file].push_back(z);
    std::vector<std::pair<std::string, std::vector<std::size_t>>> work(byFile.begin(), byFile.end());
    std::atomic<bool> fitsInt16{true};
    SliceWriter writer{volume, fitsInt16};
    ProgressCounter progress(options.progress, work.size());
    parallelFor(work.size(), options.threads, [&](std::size_t w) {
        if (progress.cancelled() || !fitsInt16) return;
        // Not a structured binding: clang 14 (the fuzz build) cannot capture one in the lambda below.
        const std::string& file = work[w].first;
        const std::vector<std::size_t>& slices = work[w].second;
        std::vector<int> frames;
        std::map<int, std::size_t> sliceOfFrame;
        for (std::size_t z : slices) {
            frames.push_back(series.slices[z].frame);
            sliceOfFrame[series.slices[z].frame] = z;
        }
        decodeDicomFrames(file, frames, series.bitsStored, series.highBit, series.pixelRepresentation == 1,
                          [&](int frame, const std::int32_t* values, std::size_t count) {
                              if (count != series.info.geometry.sliceSize())
                                  throw IoError(file + ": image size differs from the series");
                              const std::size_t z = sliceOfFrame.at(frame);
                              writer.write(z, values, count, series.slices[z].slope, series.slices[z].intercept);
                          });
        progress.advance();
    });
    if (progress.cancelled()) throw Cancelled();
    fits = fitsInt16;
    return volume;
}

}  // namespace

Volume DicomReader::load(const DicomSeries& series, const DicomOptions& options) {
    if (!series.unloadableReason.empty()) throw IoError(series.unloadableReason);
    if (series.slices.empty()) throw IoError(series.info.id + ": series has no slices");
    // int16 unless a rescale makes values fractional; a value out of int16 range reloads as float32.
    const bool integral = std::all_of(series.slices.begin(), series.slices.end(), [](const DicomSlice& s) {
        return s.slope == std::round(s.slope) && s.intercept == std::round(s.intercept);
    });
    bool fits = true;
    Volume volume = loadAs(series, integral ? PixelType::Int16 : PixelType::Float32, options, fits);
    if (!fits) volume = loadAs(series, PixelType::Float32, options, fits);

    // Missing slices get the lowest value (air for CT), so they read as empty, not as tissue.
    std::vector<std::size_t> fillers;
    for (std::size_t z = 0; z < series.slices.size(); ++z)
        if (series.slices[z].filler) fillers.push_back(z);
    if (!fillers.empty()) {
        double lowest = std::numeric_limits<double>::max();
        const std::size_t n = volume.geometry().sliceSize();
        for (std::size_t z = 0; z < series.slices.size(); ++z)
            if (!series.slices[z].filler)
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
    m.sourcePath = series.info.files.empty() ? std::string() : fs::path(series.info.files.front()).parent_path().string();
    for (const auto& slice : series.slices) m.sliceFiles.push_back(slice.filler ? std::string() : slice.file);
    m.windows = series.info.windows;
    return volume;
}

}  // namespace lucent::io
