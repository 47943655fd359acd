#pragma once
// Work shared among threads where an exception must not end the process: inside OpenSM (Weft's
// engine runs in its process) an exception left on a thread would take OpenSM down with it.
// work(i) for i in 0 .. count - 1: work(0) on the calling thread, the others on threads of their
// own (on this thread, after work(0), when no thread can be started); the first exception is
// rethrown here once every share has finished.

#include <algorithm>
#include <atomic>
#include <cstddef>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

namespace weft {

template <typename Work>
void runOnThreads(std::size_t count, Work &&work)
{
    std::exception_ptr first;
    std::mutex lock;
    auto guarded = [&](std::size_t i) {
        try {
            work(i);
        } catch (...) {
            const std::lock_guard<std::mutex> hold(lock);
            if (!first)
                first = std::current_exception();
        }
    };
    std::vector<std::thread> others;
    std::size_t started = 1;
    try {
        others.reserve(count > 1 ? count - 1 : 0);
        for (; started < count; ++started)
            others.emplace_back(guarded, started);
    } catch (...) {
        // Fewer threads than asked for: the shares not started run here.
    }
    if (count > 0)
        guarded(0);
    for (std::size_t i = started; i < count; ++i)
        guarded(i);
    for (std::thread &thread : others)
        thread.join();
    if (first)
        std::rethrow_exception(first);
}

// work(i) for i in 0 .. items - 1, the items taken one at a time by up to `cores` threads (the
// machine's cores, at most 4, when 0); on this thread alone below `alone` items.
template <typename Work>
void forEachOnThreads(std::size_t items, Work &&work, std::size_t alone = 256, std::size_t cores = 0)
{
    if (cores == 0)
        cores = std::clamp<std::size_t>(std::thread::hardware_concurrency(), 1, 4);
    if (items < alone)
        cores = 1;
    std::atomic<std::size_t> next{0};
    runOnThreads(cores, [&](std::size_t) {
        for (std::size_t i = next++; i < items; i = next++)
            work(i);
    });
}

}  // namespace weft
