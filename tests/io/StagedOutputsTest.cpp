/// @brief StagedOutputs and TemporaryFile: all outputs or none, temporaries never left behind.
#include "TempDir.h"

#include "lucent/core/Errors.h"
#include "lucent/io/FileUtil.h"
#include "lucent/io/StagedOutputs.h"
#include "lucent/io/TemporaryFile.h"
#include "lucent/io/VolumeFile.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>

using namespace lucent;
using namespace lucent::io;
using lucent::testing::TempDir;

namespace {

std::vector<std::string> names(const TempDir& dir) {
    std::vector<std::string> out;
    for (const auto& e : std::filesystem::directory_iterator(dir.path())) out.push_back(e.path().filename().string());
    std::sort(out.begin(), out.end());
    return out;
}

std::string contents(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), {}};
}

Volume smallVolume() {
    Geometry g;
    g.dims = {4, 3, 2};
    return Volume(g, PixelType::Int16);
}

}  // namespace

TEST(StagedOutputs, NothingAppearsBeforeCommitThenEverything) {
    const TempDir dir;
    StagedOutputs staged;
    writeFileAtomically(dir.file("a.json"), {"{}"});
    writeVolumeFile(smallVolume(), dir.file("v.mhd"));  // two files: header and .raw
    for (const auto& n : names(dir)) EXPECT_NE(n.find(".partial-"), std::string::npos) << n;
    EXPECT_EQ(names(dir).size(), 3u);
    staged.commit();
    EXPECT_EQ(names(dir), (std::vector<std::string>{"a.json", "v.mhd", "v.raw"}));
    EXPECT_EQ(contents(dir.file("a.json")), "{}");
    // The stage is over: later writes land at once.
    writeFileAtomically(dir.file("b.json"), {"[]"});
    EXPECT_TRUE(std::filesystem::exists(dir.file("b.json")));
}

TEST(WriteFileAtomically, PartsAcrossWritebackPiecesArriveWholeAndInOrder) {
    const TempDir dir;
    // Parts that start and end inside the 16 MiB pieces whose writeback starts as they fill.
    std::string big(std::size_t(21) << 20, '\0'), other(std::size_t(17) << 20, '\0');
    for (std::size_t i = 0; i < big.size(); ++i) big[i] = char(i * 7 + i / 4099);
    for (std::size_t i = 0; i < other.size(); ++i) other[i] = char(i * 13 + 5);
    writeFileAtomically(dir.file("big.raw"), {"head", big, "", other, "tail"});
    EXPECT_EQ(contents(dir.file("big.raw")), "head" + big + other + "tail");
    EXPECT_EQ(names(dir), (std::vector<std::string>{"big.raw"}));
}

TEST(WriteFileAtomically, AMissingFolderIsAnErrorNamingTheFile) {
    const TempDir dir;
    try {
        writeFileAtomically(dir.file("nowhere/a.json"), {"{}"});
        ADD_FAILURE() << "written into a missing folder";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("cannot write " + dir.file("nowhere/a.json")), std::string::npos) << e.what();
    }
    EXPECT_TRUE(names(dir).empty());
}

TEST(DropCachedPages, KeepsTheBytesAndLeavesAnythingButAFileAlone) {
    const TempDir dir;
    writeFileAtomically(dir.file("a.raw"), {std::string(3 << 20, 'x')});
    dropCachedPages(dir.file("a.raw"));
    EXPECT_EQ(contents(dir.file("a.raw")), std::string(3 << 20, 'x'));
    dropCachedPages(dir.file("missing.raw"));
    dropCachedPages(dir.path());
    EXPECT_EQ(names(dir), (std::vector<std::string>{"a.raw"}));
}

TEST(StagedOutputs, AStageLeftWithoutCommitRemovesEveryTemporary) {
    const TempDir dir;
    try {
        StagedOutputs staged;
        writeLabelMapFile(LabelMap(smallVolume().geometry()), dir.file("mask.nii.gz"));
        writeFileAtomically(dir.file("missing/stats.json"), {"{}"});  // fails: no such folder
        staged.commit();
        ADD_FAILURE() << "the second output should have failed";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("stats.json"), std::string::npos) << e.what();
    }
    EXPECT_TRUE(names(dir).empty());
}

TEST(StagedOutputs, AFolderInTheWayIsRefusedBeforeAnyRename) {
    const TempDir dir;
    std::filesystem::create_directories(dir.file("b.json"));
    StagedOutputs staged;
    writeFileAtomically(dir.file("a.json"), {"1"});
    writeFileAtomically(dir.file("b.json"), {"2"});
    EXPECT_THROW(staged.commit(), IoError);
    EXPECT_EQ(names(dir), std::vector<std::string>{"b.json"});
}

TEST(StagedOutputs, TheLastWriteToAPathWins) {
    const TempDir dir;
    StagedOutputs staged;
    writeFileAtomically(dir.file("a.json"), {"first"});
    writeFileAtomically(dir.file("a.json"), {"second"});
    EXPECT_EQ(names(dir).size(), 1u);  // the first temporary is gone already
    staged.commit();
    EXPECT_EQ(contents(dir.file("a.json")), "second");
}

TEST(TemporaryFile, RemovedUnlessReleasedAndMovable) {
    const TempDir dir;
    {
        TemporaryFile kept(dir.file("kept"));
        std::ofstream(kept.path()) << "x";
        kept.release();
        TemporaryFile dropped(dir.file("dropped"));
        std::ofstream(dropped.path()) << "y";
        TemporaryFile moved = std::move(dropped);
        EXPECT_EQ(moved.path(), dir.file("dropped"));
    }
    EXPECT_EQ(names(dir), std::vector<std::string>{"kept"});
    // More than the 64 slots at once is a clear error, and freed slots are reused.
    std::vector<TemporaryFile> many;
    for (int i = 0; i < 64; ++i) many.emplace_back(dir.file(std::to_string(i) + ".tmp"));
    EXPECT_THROW(TemporaryFile(dir.file("one-too-many")), IoError);
    many.clear();
    EXPECT_NO_THROW(TemporaryFile(dir.file("again")));
}

TEST(StagedOutputs, KeepNeverReplacesAFileThatAnotherProcessWroteAfterTheCheck) {
    // --no-clobber checks the names before computing; a second run may write one meanwhile. The
    // final rename is the one that cannot replace, so the second writer's file stays as it wrote it.
    const TempDir dir;
    StagedOutputs staged(ExistingOutput::Keep);
    writeFileAtomically(dir.file("a.json"), {"ours"});
    writeFileAtomically(dir.file("b.json"), {"ours"});
    std::ofstream(dir.file("b.json")) << "theirs";
    try {
        staged.commit();
        ADD_FAILURE() << "a file that appeared meanwhile was replaced";
    } catch (const IoError& e) {
        EXPECT_NE(std::string(e.what()).find("b.json"), std::string::npos) << e.what();
        EXPECT_NE(std::string(e.what()).find("kept"), std::string::npos) << e.what();
    }
    EXPECT_EQ(contents(dir.file("b.json")), "theirs");
    EXPECT_EQ(names(dir), std::vector<std::string>{"b.json"});  // a.json taken back, no temporary left
}

TEST(StagedOutputs, KeepPlacesNewFilesAndReplaceStillReplaces) {
    const TempDir dir;
    {
        StagedOutputs staged(ExistingOutput::Keep);
        writeVolumeFile(smallVolume(), dir.file("v.mhd"));
        staged.commit();
    }
    EXPECT_EQ(names(dir), (std::vector<std::string>{"v.mhd", "v.raw"}));
    std::ofstream(dir.file("c.json")) << "old";
    StagedOutputs staged;
    writeFileAtomically(dir.file("c.json"), {"new"});
    staged.commit();
    EXPECT_EQ(contents(dir.file("c.json")), "new");
}
