// suggest.h - "did you mean ...?" for misspelt keys and values.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace dmasim::sim {

/// Levenshtein distance between a and b (insert, delete, substitute = 1).
size_t edit_distance(std::string_view a, std::string_view b);

/// The candidate closest to `word`, if it is close enough to be a likely
/// typo: within a third of the word's length (at least 2 edits), or the
/// same last dotted component (a key written under the wrong section).
std::optional<std::string> closest_match(std::string_view word,
                                         const std::vector<std::string>& candidates);

}  // namespace dmasim::sim
