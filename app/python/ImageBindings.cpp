/// @brief `lucent.load` and `lucent.save`: an Image (a volume and where it came from) whose array is
/// the volume's own memory, and writing arrays on an image's grid by file suffix.
#include "ArrayVolume.h"
#include "Bindings.h"

#include "lucent/core/Errors.h"
#include "lucent/core/LabelTable.h"
#include "lucent/io/FileSuffixes.h"
#include "lucent/io/ImageSource.h"
#include "lucent/io/LabelFile.h"
#include "lucent/io/VolumeFile.h"

#include <pybind11/stl.h>

namespace lucent::python {

namespace {

/// The 4 x 4 voxel-to-RAS+ matrix (nibabel's affine): Lucent's geometry is LPS, so x and y change sign.
py::array_t<double> rasAffine(const Geometry& g) {
    py::array_t<double> a({4, 4});
    auto m = a.mutable_unchecked<2>();
    const double flip[3] = {-1, -1, 1};
    const double spacing[3] = {g.spacing.x, g.spacing.y, g.spacing.z};
    const double origin[3] = {g.origin.x, g.origin.y, g.origin.z};
    for (int r = 0; r < 3; ++r) {
        for (int c = 0; c < 3; ++c) m(r, c) = flip[r] * g.direction.at(r, c) * spacing[c];
        m(r, 3) = flip[r] * origin[r];
    }
    for (int c = 0; c < 4; ++c) m(3, c) = c == 3 ? 1 : 0;
    return a;
}

std::shared_ptr<Image> load(const std::string& path, const std::string& series) {
    std::vector<std::string> warnings;
    auto image = std::make_shared<Image>();
    {
        py::gil_scoped_release nogil;
        const io::SourceScan scan = io::ImageSource::scan(path);
        const std::size_t index = io::ImageSource::choose(scan, series, io::WhenUnnamed::Refuse, &warnings);
        image->volume = std::make_shared<Volume>(io::ImageSource::load(scan, index, {}, &warnings));
        image->identity = identify(scan, index);
    }
    const py::object warn = py::module_::import("warnings").attr("warn");
    for (const std::string& w : warnings) warn(path + ": " + w);
    return image;
}

/// The volumes under `path` as (id, name) pairs: the id `series=` takes, the name `lucent segment
/// --series all` gives its `{series}` (the batch's stems). OSError when nothing can be read.
std::vector<std::pair<std::string, std::string>> list(const std::string& path) {
    io::SourceListing listing;
    {
        py::gil_scoped_release nogil;
        listing = io::ImageSource::list(path);
    }
    if (listing.series.empty())
        throw IoError(path + ": no volume found (no DICOM series, NIfTI, MetaImage or NRRD file)");
    const std::vector<std::string> names = io::seriesFileNames(listing.series);
    std::vector<std::pair<std::string, std::string>> out;
    for (std::size_t i = 0; i < names.size(); ++i) out.emplace_back(listing.series[i].id, names[i]);
    return out;
}

/// The grid a saved array lies on and its input's provenance (DICOM slice files, NIfTI codes):
/// `like`'s, else the array's own (1 mm voxels at the origin, LPS axes, no provenance).
struct SaveGrid {
    Geometry geometry;
    VolumeMetadata metadata;
    io::OutputLayout layout;
};

SaveGrid saveGrid(const py::array& array, const py::object& like) {
    if (like.is_none()) return {arrayGeometry(array), {}, {}};
    const Volume& on = *like.cast<const Image&>().volume;
    return {on.geometry(), on.metadata(), io::OutputLayout::of(on)};
}

void saveLabels(const std::string& path, const py::array& array, const py::object& like) {
    if (!io::isLabelExportName(path))
        throw std::invalid_argument("cannot write labels to " + path + ": name a " +
                                    io::suffixSentence(io::kLabelWriteSuffixes) + " file");
    const SaveGrid grid = saveGrid(array, like);
    const LabelMap labels = labelMapFrom(array, grid.geometry);
    io::LabelExportOptions options;
    options.sourceSliceFiles = grid.metadata.sliceFiles;
    options.codes = grid.metadata.codes;
    py::gil_scoped_release nogil;
    io::writeLabelFile(labels, LabelTable{}, path, options);
}

void saveVolume(const std::string& path, const py::array& array, const py::object& like) {
    if (!io::isVolumeFileName(path))
        throw std::invalid_argument("cannot write an image to " + path + ": name a " +
                                    io::suffixSentence(io::kVolumeWriteSuffixes) + " file");
    const SaveGrid grid = saveGrid(array, like);
    Volume volume = borrowVolume(array, grid.geometry);
    volume.metadata() = grid.metadata;
    py::gil_scoped_release nogil;
    io::writeVolumeFile(volume, path, grid.layout);
}

}  // namespace

void defineImage(py::module_& m) {
    py::class_<Image, std::shared_ptr<Image>>(m, "Image", "A loaded volume: its voxels, grid and source.")
        .def_property_readonly(
            "array", [](py::object self) { return volumeArray(*self.cast<const Image&>().volume, self); },
            "The voxels indexed [i, j, k] (nibabel's order), the image's own memory (Fortran order, no copy).")
        .def_property_readonly(
            "affine", [](const Image& im) { return rasAffine(im.volume->geometry()); },
            "4 x 4 voxel-to-RAS+ matrix, nibabel's convention.")
        .def_property_readonly(
            "spacing",
            [](const Image& im) {
                const Vec3 s = im.volume->geometry().spacing;
                return py::make_tuple(s.x, s.y, s.z);
            },
            "Voxel size along i, j, k in mm.")
        .def_property_readonly("shape",
                               [](const Image& im) {
                                   const auto& d = im.volume->geometry().dims;
                                   return py::make_tuple(d[0], d[1], d[2]);
                               })
        .def_property_readonly("path", [](const Image& im) { return im.identity.input; })
        .def_property_readonly(
            "series", [](const Image& im) { return im.identity.series; }, "The id `lucent info` lists for this volume.")
        .def("__repr__", [](const Image& im) {
            const auto& d = im.volume->geometry().dims;
            return "<lucent.Image " + im.identity.input + " (" + std::to_string(d[0]) + ", " + std::to_string(d[1]) +
                   ", " + std::to_string(d[2]) + ") " + pixelTypeName(im.volume->pixelType()) + ">";
        });
    m.def("_load", &load, py::arg("path"), py::arg("series") = "");
    m.def("_list", &list, py::arg("path"));
    m.def("_save_labels", &saveLabels, py::arg("path"), py::arg("array"), py::arg("like") = py::none());
    m.def("_save_volume", &saveVolume, py::arg("path"), py::arg("array"), py::arg("like") = py::none());
}

}  // namespace lucent::python
