// suggest.cc - edit distance and nearest-candidate lookup.
#include "suggest.h"

#include <algorithm>
#include <numeric>

namespace dmasim::sim {
namespace {

std::string_view last_component(std::string_view key) {
    size_t dot = key.rfind('.');
    return dot == std::string_view::npos ? key : key.substr(dot + 1);
}

}  // namespace

size_t edit_distance(std::string_view a, std::string_view b) {
    // One row of the classic dynamic programme: row[j] = distance(a[0,i), b[0,j)).
    std::vector<size_t> row(b.size() + 1);
    std::iota(row.begin(), row.end(), 0);
    for (size_t i = 1; i <= a.size(); ++i) {
        size_t diagonal = row[0];
        row[0] = i;
        for (size_t j = 1; j <= b.size(); ++j) {
            size_t above = row[j];
            size_t substitute = diagonal + (a[i - 1] == b[j - 1] ? 0 : 1);
            row[j] = std::min({above + 1, row[j - 1] + 1, substitute});
            diagonal = above;
        }
    }
    return row[b.size()];
}

std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string>& candidates) {
    const size_t limit = std::max<size_t>(2, word.size() / 3);
    std::optional<std::string> best;
    size_t best_distance = limit + 1;
    for (const auto& candidate : candidates) {
        const bool same_leaf = last_component(candidate) == last_component(word);
        // The distance is at least the difference in length, so a word far
        // longer than every candidate costs no edit-distance table at all.
        const size_t gap =
            std::max(word.size(), candidate.size()) - std::min(word.size(), candidate.size());
        if (!same_leaf && gap >= best_distance) continue;
        size_t d = same_leaf && gap >= limit ? limit : edit_distance(word, candidate);
        if (same_leaf) d = std::min(d, limit);
        if (d < best_distance) {
            best_distance = d;
            best = candidate;
        }
    }
    return best;
}

}  // namespace dmasim::sim
