// progress.cc - drawing the sweep progress.
#include "progress.h"

#include <fmt/format.h>

#include <cstdio>

namespace dmasim::sim {

Progress::Progress(size_t total, bool live) : total_(total), live_(live) {}

std::string Progress::eta() const {
    if (done_ == 0) return "--:--";
    const double elapsed =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    const auto left = static_cast<long>(elapsed / done_ * (total_ - done_) + 0.5);
    return fmt::format("{}:{:02d}", left / 60, left % 60);
}

void Progress::point_done(size_t index, int status) {
    ++done_;
    if (status != 0) ++failed_;
    if (!live_) {
        fmt::print("[{}/{}] point {:05d} {}\n", done_, total_, index,
                   status == 0 ? "ok" : fmt::format("FAILED (exit status {})", status));
        std::fflush(stdout);
        return;
    }
    constexpr size_t kWidth = 30;
    const size_t filled = total_ ? done_ * kWidth / total_ : kWidth;
    fmt::print("\r\033[K[{}{}] {}/{}  failed {}  ETA {}", std::string(filled, '#'),
               std::string(kWidth - filled, '.'), done_, total_, failed_, eta());
    std::fflush(stdout);
}

void Progress::finish() {
    if (live_ && total_ > 0) fmt::print("\n");
}

}  // namespace dmasim::sim
