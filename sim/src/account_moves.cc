// account_moves.cc - see account_moves.h.
#include "account_moves.h"

#include <algorithm>

namespace dmasim::sim {

model::CycleAccount account_of(const Json& report) {
    model::CycleAccount account{};
    if (!report.contains("statistics") || !report["statistics"].contains("account")) return account;
    const Json& group = report["statistics"]["account"];
    for (size_t c = 0; c < model::kCauses; ++c)
        if (const auto it = group.find(model::kCauseDefs[c].name); it != group.end())
            account[c] = static_cast<uint64_t>((*it)["value"].get<double>());
    return account;
}

uint64_t total(const model::CycleAccount& account) {
    uint64_t sum = 0;
    for (uint64_t c : account) sum += c;
    return sum;
}

std::vector<AccountMove> account_moves(const Json& a, const Json& b) {
    const model::CycleAccount from = account_of(a), to = account_of(b);
    std::vector<AccountMove> moves;
    for (size_t c = 0; c < model::kCauses; ++c)
        if (from[c] != to[c]) moves.push_back({c, from[c], to[c]});
    std::stable_sort(moves.begin(), moves.end(), [](const AccountMove& x, const AccountMove& y) {
        return std::llabs(x.delta()) > std::llabs(y.delta());
    });
    return moves;
}

}  // namespace dmasim::sim
