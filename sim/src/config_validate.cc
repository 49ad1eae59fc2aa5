// config_validate.cc - checks that involve more than one key. The rules
// are the model's and the testbench's own (tb::validate); this only names
// the file and line where their keys were set. Single-key type and range
// checks happen as values are read (config_value.cc).
#include <dmasim/tb/validate.h>
#include <fmt/format.h>

#include "config_loader.h"

namespace dmasim::sim {

void ConfigBuilder::require(bool ok, const std::vector<std::string>& keys,
                            const std::string& message) const {
    if (!ok) throw ConfigError(origin(keys), message, keys);
}

void ConfigBuilder::validate() const {
    check_times();
    const std::vector<model::ParamProblem> problems = tb::validate(config_);
    if (problems.empty()) return;
    // Every problem, each at its own line; the first decides the keys (a
    // sweep skips the point only if one of them is swept).
    std::string message = problems.front().message;
    for (size_t i = 1; i < problems.size(); ++i)
        message +=
            fmt::format("\n{}: {}", origin(problems[i].keys).to_string(), problems[i].message);
    throw ConfigError(origin(problems.front().keys), message, problems.front().keys);
}

}  // namespace dmasim::sim
