// fifo.h - a FIFO over a power-of-two array that grows by doubling. The
// walker, the data mover, the channel, its posted writes and the bus
// resources keep their in-flight work here, so steady-state operation
// allocates nothing.
// (Not the driver's descriptor ring, driver/src/ring.c.)
#pragma once

#include <cstddef>
#include <vector>

namespace dmasim::model {

template <class T>
class Fifo {
public:
    explicit Fifo(size_t capacity = 16) {
        size_t n = 1;
        while (n < capacity) n <<= 1;
        slots_.resize(n);
        mask_ = n - 1;
    }
    bool empty() const { return head_ == tail_; }
    size_t size() const { return tail_ - head_; }
    T& front() { return slots_[head_ & mask_]; }
    const T& front() const { return slots_[head_ & mask_]; }
    /// i-th element from the front.
    T& at(size_t i) { return slots_[(head_ + i) & mask_]; }
    const T& at(size_t i) const { return slots_[(head_ + i) & mask_]; }
    void pop_front(size_t n = 1) { head_ += n; }
    void push_back(const T& v) {
        if (size() > mask_) grow();
        slots_[tail_++ & mask_] = v;
    }
    /// Inserts `v` before the i-th element (i == size() appends); moves
    /// the elements behind it, so cheap near the back.
    void insert(size_t i, const T& v) {
        push_back(v);
        for (size_t j = size() - 1; j > i; --j) at(j) = at(j - 1);
        at(i) = v;
    }
    /// Removes the i-th element; moves the elements behind it.
    void erase(size_t i) {
        for (size_t j = i; j + 1 < size(); ++j) at(j) = at(j + 1);
        --tail_;
    }
    void clear() { head_ = tail_ = 0; }

private:
    void grow() {
        std::vector<T> bigger(slots_.size() * 2);
        for (size_t i = 0; i < size(); ++i) bigger[i] = at(i);
        tail_ = size();
        head_ = 0;
        slots_.swap(bigger);
        mask_ = slots_.size() - 1;
    }

    std::vector<T> slots_;
    size_t mask_ = 0;  ///< slots_.size() - 1, kept: a vector's size divides by sizeof(T)
    size_t head_ = 0;
    size_t tail_ = 0;
};

}  // namespace dmasim::model
