/// @brief File > Export / Import labels in the viewer: every format out and back onto the series' grid, errors keep the layer.
#include "EventLoopWait.h"
#include "FileSizeLimit.h"
#include "SyntheticDicom.h"
#include "TempDir.h"
#include "ViewerWindowTest.h"

#include "lucent/ui/LabelFiles.h"
#include "lucent/ui/MainWindow.h"

#include <QApplication>
#include <QDir>
#include <QFile>
#include <QSignalSpy>
#include <QTest>

#include <gtest/gtest.h>

#include <filesystem>

using namespace lucent;
using namespace lucent::ui;
using lucent::testing::TempDir;

namespace {

void name(ViewerModel& model) {
    model.setLabelInfo({1, "liver", {200, 120, 40}});
    model.setLabelInfo({2, "lesion", {10, 250, 90}});
}

/// Two labelled blocks and one corner voxel on the volume's grid.
void paint(ViewerModel& model) {
    ASSERT_TRUE(model.editLabels(
        [](LabelMap& m) {
            const auto& d = m.geometry().dims;
            for (int k = 1; k < d[2] - 1; ++k)
                for (int j = 2; j < d[1] - 2; ++j)
                    for (int i = 2; i < d[0] / 2; ++i) m.at(i, j, k) = 1;
            m.at(d[0] - 1, d[1] - 1, d[2] - 1) = 2;
        },
        "Paint"));
    name(model);
}

bool sameLayer(const LabelMap& a, const LabelMap& b) {
    return a.voxelCount() == b.voxelCount() && std::equal(a.data(), a.data() + a.voxelCount(), b.data());
}

class LabelFilesTest : public lucent::testing::ViewerWindowTest {
protected:
    void SetUp() override {
        lucent::testing::SeriesSpec spec;
        spec.columns = 21;  // odd sizes: SEG frames whose bits do not fill whole bytes
        spec.rows = 13;
        spec.slices = 6;
        lucent::testing::writeSeries(spec, dir.file("series"));
        showWindow(900, 700);
        QString error;
        ASSERT_TRUE(window.openPath(QString::fromStdString(dir.file("series")), {}, true, &error)) << error.toStdString();
        paint(window.model());
        original = *window.model().labels();
    }

    TempDir dir;
    LabelMap original;
};

}  // namespace

TEST_F(LabelFilesTest, EveryFormatGoesOutAndComesBackOntoTheSeries) {
    LabelFiles files(&window.model(), &window);
    for (const std::string name : {"m.nii.gz", "m.seg.nrrd", "m.mha", "m.dcm"}) {
        ::name(window.model());  // a NIfTI or MetaImage read back has only default names
        const QString path = QString::fromStdString(dir.file(name));
        QString error;
        ASSERT_TRUE(files.exportFile(path, {}, false, false, &error)) << name << ": " << error.toStdString();
        window.model().clearLabels();
        ASSERT_TRUE(files.importFile(path, &error)) << name << ": " << error.toStdString();
        ASSERT_TRUE(window.model().labels());
        EXPECT_TRUE(sameLayer(*window.model().labels(), original)) << name;
        if (name != "m.nii.gz" && name != "m.mha") {  // formats that carry names and colours
            EXPECT_EQ(window.model().labelTable().nameOf(1), "liver") << name;
            EXPECT_EQ(window.model().labelTable().nameOf(2), "lesion") << name;
            EXPECT_EQ(window.model().labelTable().colourOf(2)[1], 250) << name;
        }
    }
    // Surfaces: written (closed meshes are checked in the io tests), one label chosen.
    QString error;
    EXPECT_TRUE(files.exportFile(QString::fromStdString(dir.file("liver.stl")), {1}, false, false, &error))
        << error.toStdString();
    EXPECT_GT(std::filesystem::file_size(dir.file("liver.stl")), 84u);
}

TEST_F(LabelFilesTest, AMaskOnAnotherGridIsRefusedAndTheLayerStays) {
    LabelFiles files(&window.model(), &window);
    Geometry other = window.model().volume()->geometry();
    other.dims[2] += 1;
    LabelMap wrong(other);
    wrong[3] = 1;
    io::writeLabelFile(wrong, {}, dir.file("wrong.nii"), {});
    QString error;
    EXPECT_FALSE(files.importFile(QString::fromStdString(dir.file("wrong.nii")), &error));
    EXPECT_TRUE(error.contains("wrong.nii") && error.contains("another grid")) << error.toStdString();
    EXPECT_TRUE(sameLayer(*window.model().labels(), original));
}

TEST_F(LabelFilesTest, AFailedExportLeavesNoFileAndKeepsAnExistingOne) {
    LabelFiles files(&window.model(), &window);
    QString error;
    const QString existing = QString::fromStdString(dir.file("keep.nrrd"));
    ASSERT_TRUE(files.exportFile(existing, {}, false, false, &error));
    const auto size = std::filesystem::file_size(existing.toStdString());
    EXPECT_FALSE(files.exportFile(existing, {7}, false, false, &error));  // label 7 has no voxel
    EXPECT_TRUE(error.contains("label 7")) << error.toStdString();
    EXPECT_EQ(std::filesystem::file_size(existing.toStdString()), size);
    EXPECT_FALSE(files.exportFile(QString::fromStdString(dir.file("missing/x.dcm")), {}, false, false, &error));
    EXPECT_FALSE(std::filesystem::exists(dir.file("missing")));
}

TEST_F(LabelFilesTest, AFullDiskKeepsThePreviousFileByteForByteAndSaysNothingWasExported) {
    LabelFiles files(&window.model(), &window);
    QString error;
    const QString target = QString::fromStdString(dir.file("labels.nii"));
    auto bytes = [](const QString& path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? f.readAll() : QByteArray();
    };
    ASSERT_TRUE(files.exportFile(target, {}, false, false, &error)) << error.toStdString();
    const QByteArray before = bytes(target);
    ASSERT_GT(before.size(), 1024) << "352 bytes of header and 21 x 13 x 6 labels";
    ASSERT_TRUE(window.model().editLabels([](LabelMap& m) { m.at(0, 0, 0) = 2; }, "Paint"));
    QSignalSpy exported(&files, &LabelFiles::exported);
    {
        lucent::testing::FileSizeLimit full(1024);  // the disk fills part-way through the new file
        EXPECT_FALSE(files.exportFile(target, {}, false, false, &error));
    }
    EXPECT_TRUE(error.contains(target) && error.contains("File too large")) << error.toStdString();
    EXPECT_EQ(bytes(target), before) << "the previous file, byte for byte";
    EXPECT_EQ(QDir(QString::fromStdString(dir.path())).entryList({"*.partial-*"}, QDir::Files).size(), 0)
        << "no temporary is left";
    EXPECT_EQ(exported.size(), 0) << "what marks the labels saved is not said";
    // Space again: the same export writes the new layer.
    ASSERT_TRUE(files.exportFile(target, {}, false, false, &error)) << error.toStdString();
    EXPECT_EQ(io::readLabelFile(target.toStdString(), window.model().labels()->geometry()).labels.at(0, 0, 0), 2);
    EXPECT_EQ(exported.size(), 1);
}
