// progress.h - sweep progress on stdout: a live bar on a terminal
// (done/total, failures, ETA), one plain line per finished point otherwise.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

namespace dmasim::sim {

class Progress {
public:
    Progress(size_t total, bool live);
    /// Records one finished point and redraws.
    void point_done(size_t index, int status);
    /// Ends the bar's line.
    void finish();

private:
    std::string eta() const;

    size_t total_;
    bool live_;
    size_t done_ = 0;
    size_t failed_ = 0;
    std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace dmasim::sim
