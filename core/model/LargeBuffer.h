#pragma once
// Storage for the few very large arrays Weft fills at once (routing state by LID and switch: 157 MB
// at the LID limit). Allocations of 2 MB or more are mapped with the advice to back them by huge
// pages, so that first touching them costs one fault per 2 MB instead of one per 4 KB, which on
// a virtual machine is the larger part of filling them. Smaller ones come from operator new.

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

#if defined(__linux__)
#include <sys/mman.h>
#endif

namespace weft {

template <typename T>
struct LargeBufferAllocator
{
    using value_type = T;
    static constexpr std::size_t kMappedFrom = std::size_t(2) << 20;

    LargeBufferAllocator() = default;
    template <typename U>
    LargeBufferAllocator(const LargeBufferAllocator<U> &)
    {
    }

    T *allocate(std::size_t n)
    {
        const std::size_t bytes = n * sizeof(T);
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (bytes >= kMappedFrom) {
            void *p = mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
            if (p == MAP_FAILED)
                throw std::bad_alloc();
            madvise(p, bytes, MADV_HUGEPAGE);  // advice only: without huge pages it still works
            return static_cast<T *>(p);
        }
#endif
        return static_cast<T *>(::operator new(bytes));
    }

    void deallocate(T *p, std::size_t n)
    {
#if defined(__linux__) && defined(MADV_HUGEPAGE)
        if (n * sizeof(T) >= kMappedFrom) {
            munmap(p, n * sizeof(T));
            return;
        }
#endif
        ::operator delete(p);
    }

    template <typename U>
    bool operator==(const LargeBufferAllocator<U> &) const
    {
        return true;
    }
    template <typename U>
    bool operator!=(const LargeBufferAllocator<U> &) const
    {
        return false;
    }
};

template <typename T>
using LargeVector = std::vector<T, LargeBufferAllocator<T>>;

}  // namespace weft
