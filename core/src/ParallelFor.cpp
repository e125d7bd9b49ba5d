/// @brief A minimal work-sharing loop over std::thread.
#include "lucent/core/ParallelFor.h"

#include <algorithm>
#include <atomic>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace lucent {

unsigned defaultThreadCount() { return std::max(1u, std::thread::hardware_concurrency()); }

void parallelFor(std::size_t n, unsigned threads, const std::function<void(std::size_t)>& body) {
    if (threads == 0) threads = defaultThreadCount();
    threads = static_cast<unsigned>(std::min<std::size_t>(threads, n));
    std::atomic<std::size_t> next{0};
    std::atomic<bool> failed{false};
    std::exception_ptr error;
    std::mutex errorMutex;
    auto worker = [&] {
        for (std::size_t i; !failed.load() && (i = next++) < n;) {
            try {
                body(i);
            } catch (...) {
                std::lock_guard lock(errorMutex);
                if (!error) error = std::current_exception();
                failed = true;
            }
        }
    };
    if (threads <= 1) {
        worker();
    } else {
        std::vector<std::thread> pool;
        pool.reserve(threads - 1);
        for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
        worker();
        for (auto& t : pool) t.join();
    }
    if (error) std::rethrow_exception(error);
}

}  // namespace lucent
