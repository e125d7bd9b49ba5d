/// @brief Backend selection: auto and cpu give the CPU engines; cuda says why it cannot run.
#include "lucent/gpu/DeviceInfo.h"
#include "lucent/gpu/SegmenterFactory.h"

#include <gtest/gtest.h>

using namespace lucent;

TEST(SegmenterFactory, AutoAndCpuGiveEveryMethod) {
    for (const char* name : {"srg", "fc", "fcm", "snake"}) {
        const Method m = gpu::parseMethod(name);
        EXPECT_STREQ(methodName(m), name);
        EXPECT_STREQ(gpu::createSegmenter(m, gpu::Backend::Cpu)->backend(), "cpu");
        EXPECT_EQ(gpu::createSegmenter(m, gpu::Backend::Auto)->method(), m);
    }
}

TEST(SegmenterFactory, CudaRequestRunsOrExplainsWhyItCannot) {
    const bool device = !gpu::listDevices().empty();
    for (Method m : {Method::RegionGrowing, Method::FuzzyConnectedness, Method::FuzzyCMeans, Method::Snake}) {
        const bool engine = gpu::hasCudaEngine(m);
        EXPECT_EQ(engine, gpu::cudaCompiledIn());
        if (device && engine) {
            EXPECT_STREQ(gpu::createSegmenter(m, gpu::Backend::Cuda)->backend(), "cuda");
            continue;
        }
        try {
            gpu::createSegmenter(m, gpu::Backend::Cuda);
            ADD_FAILURE() << methodName(m) << ": cuda cannot run here";
        } catch (const std::invalid_argument& e) {
            EXPECT_NE(std::string(e.what()).find("cuda"), std::string::npos) << e.what();
        }
    }
    EXPECT_THROW(gpu::parseBackend("opencl"), std::invalid_argument);
    EXPECT_THROW(gpu::parseMethod("watershed"), std::invalid_argument);
}
