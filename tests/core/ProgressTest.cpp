/// @brief ProgressCounter from many threads: reports rise one by one to the total, and a
/// cancellation stops the counting threads.
#include "lucent/core/Progress.h"

#include <gtest/gtest.h>

#include <thread>
#include <vector>

using namespace lucent;

TEST(ProgressCounter, ReportsNeverGoBackWhenThreadsRace) {
    constexpr std::size_t kThreads = 8, kEach = 20000, kTotal = kThreads * kEach;
    std::size_t last = 0, calls = 0, backwards = 0;
    ProgressCounter progress(
        [&](std::size_t done, std::size_t total) {
            // Called one at a time (under the counter's lock): plain variables are safe here.
            if (done != last + 1) ++backwards;
            last = done;
            ++calls;
            EXPECT_EQ(total, kTotal);
            return true;
        },
        kTotal);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < kThreads; ++t)
        threads.emplace_back([&] {
            for (std::size_t i = 0; i < kEach; ++i) progress.advance();
        });
    for (auto& t : threads) t.join();
    EXPECT_EQ(backwards, 0u) << "reports out of order";
    EXPECT_EQ(calls, kTotal);
    EXPECT_EQ(last, kTotal);
}

TEST(ProgressCounter, CancellingStopsTheWork) {
    ProgressCounter progress([](std::size_t done, std::size_t) { return done < 10; }, 100);
    int kept = 0;
    while (progress.advance()) ++kept;
    EXPECT_EQ(kept, 9);  // the tenth report asked to stop
    EXPECT_TRUE(progress.cancelled());
    EXPECT_FALSE(progress.advance());
    ProgressCounter silent(nullptr, 5);  // no callback: counts, never cancels
    EXPECT_TRUE(silent.advance());
    EXPECT_FALSE(silent.cancelled());
}
