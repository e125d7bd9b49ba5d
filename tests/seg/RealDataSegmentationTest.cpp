/// @brief The engines on the real samples: CT head bone and air (srg, fc), ITK T1 brain (fcm vs its
/// CSF/GM/WM label map). Figures are printed; bounds are loose agreement checks, not ground truth.
#include "SyntheticVolumes.h"

#include "lucent/core/seg/FuzzyCMeansCpu.h"
#include "lucent/core/seg/FuzzyConnectednessCpu.h"
#include "lucent/core/seg/RegionGrowingCpu.h"
#include "lucent/io/VolumeFile.h"
#include "RealData.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

using namespace lucent;

namespace {

std::string data(const std::string& sub) { return lucent::testing::realData(sub); }

LabelMap run(Segmenter& engine, const SegmentationRequest& r) {
    engine.start(r);
    engine.run();
    LabelMap out;
    engine.result(out);
    return out;
}

}  // namespace

TEST(RealSegmentation, CtHeadBoneAndAir) {
    const std::string path = data("cranium/cranium.mhd");
    if (path.empty()) GTEST_SKIP() << "real data missing: run tests/fetch-data.sh (CI does)";
    const Volume ct = io::readVolumeFile(path);
    SegmentationRequest r;
    r.volume = &ct;
    r.seeds = {{66, 128, 54}};  // in the skull, 1045 HU
    r.regionGrowing = {300, 3100, 6};
    RegionGrowingCpu srg;
    const LabelMap bone6 = run(srg, r);
    r.regionGrowing.connectivity = 26;
    const LabelMap bone26 = run(srg, r);
    const double ml = ct.geometry().voxelVolumeMl();
    std::printf("CT bone: srg6 %.1f ml, srg26 %.1f ml\n", bone6.count(1) * ml, bone26.count(1) * ml);
    EXPECT_GT(bone6.count(1) * ml, 300.0);
    EXPECT_LT(bone6.count(1) * ml, 900.0);
    for (std::size_t i = 0; i < bone6.voxelCount(); ++i) ASSERT_LE(bone6[i], bone26[i]);  // 6 within 26

    FuzzyConnectednessCpu fc;
    r.fuzzyConnectedness.threshold = 0.3;
    const LabelMap fcBone = run(fc, r);
    std::size_t dense = 0;
    for (std::size_t i = 0; i < fcBone.voxelCount(); ++i) dense += fcBone[i] && ct.value(i) >= 200;
    const double d = lucent::testing::dice(fcBone, bone6);
    std::printf("CT bone: fc(0.3) %.1f ml, %.1f%% above 200 HU, Dice with srg %.3f\n", fcBone.count(1) * ml,
                100.0 * dense / fcBone.count(1), d);
    EXPECT_GT(double(dense) / fcBone.count(1), 0.95);
    EXPECT_GT(d, 0.9);

    r.seeds = {{128, 200, 54}};  // outside the head, -1024 HU
    r.regionGrowing = {-1100, -400, 6};
    const LabelMap air = run(srg, r);
    std::printf("CT air: srg %.1f ml\n", air.count(1) * ml);
    EXPECT_GT(air.count(1) * ml, 3000.0);
    // Air outside the head never reaches the skull.
    for (std::size_t i = 0; i < air.voxelCount(); ++i) ASSERT_FALSE(air[i] && bone6[i]);
}

TEST(RealSegmentation, ItkBrainFcmAgreesWithItsLabelMap) {
    const std::string t1 = data("itk/KmeansTest_T1UCharRaw.nii.gz");
    if (t1.empty()) GTEST_SKIP() << "real data missing: run tests/fetch-data.sh (CI does)";
    const Volume brain = io::readVolumeFile(t1);
    const LabelMap strip = io::readLabelMapFile(data("itk/KmeansTest_T1RawSkullStrip.nii.gz"));
    const LabelMap classes = io::readLabelMapFile(data("itk/KmeansTest_T1KmeansPrelimSegmentation.nii.gz"));
    SegmentationRequest r;
    r.volume = &brain;
    r.mask = &strip;
    FuzzyCMeansCpu fcm;
    const LabelMap labels = run(fcm, r);
    // Our labels 1/2/3 (ascending centre: CSF, GM, WM on T1) against ITK's 4/5/6.
    LabelMap ours(brain.geometry()), theirs(brain.geometry());
    double dices[3];
    for (int c = 0; c < 3; ++c) {
        for (std::size_t i = 0; i < labels.voxelCount(); ++i) {
            ours[i] = labels[i] == c + 1;
            theirs[i] = classes[i] == c + 4;
        }
        dices[c] = lucent::testing::dice(ours, theirs);
    }
    const auto centres = fcm.centres();
    std::printf("ITK T1 FCM: centres %.1f %.1f %.1f; Dice CSF %.3f GM %.3f WM %.3f (%d iterations)\n", centres[0],
                centres[1], centres[2], dices[0], dices[1], dices[2], fcm.iterations());
    EXPECT_GT(dices[0], 0.85);
    EXPECT_GT(dices[1], 0.85);
    EXPECT_GT(dices[2], 0.9);
}
