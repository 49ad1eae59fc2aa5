// strict_yaml.cc - a pass over the parser's events that refuses what
// yaml-cpp would accept silently (a second document, duplicate keys) or
// could not survive (an alias inside its own anchor builds a cyclic node
// graph; nested aliases expand exponentially), then the usual load.
#include "strict_yaml.h"

#include <dmasim/tb/request_trace.h>
#include <fmt/format.h>
#include <yaml-cpp/eventhandler.h>

#include <algorithm>
#include <map>
#include <set>
#include <sstream>
#include <vector>

#include "config_error.h"

namespace dmasim::sim {
namespace {

int line_of(const YAML::Mark& mark) { return mark.line + 1; }

class StrictChecker : public YAML::EventHandler {
public:
    explicit StrictChecker(std::string file) : file_(std::move(file)) {}

    void OnDocumentStart(const YAML::Mark& mark) override {
        if (++documents_ > 1)
            fail(mark, fmt::format("a second YAML document starts here (the first starts at "
                                   "line {}); a file holds one document: remove the '---'",
                                   first_document_line_));
        first_document_line_ = line_of(mark);
    }
    void OnDocumentEnd() override {}

    void OnNull(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        leaf(mark, anchor, "null");
    }
    void OnScalar(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                  const std::string& value) override {
        leaf(mark, anchor, value);
    }
    void OnAlias(const YAML::Mark& mark, YAML::anchor_t anchor) override {
        if (std::any_of(open_.begin(), open_.end(),
                        [&](const Collection& c) { return c.anchor == anchor; }))
            fail(mark, "this alias refers to the anchor that contains it (a cycle)");
        auto known = anchor_sizes_.find(anchor);
        if (known == anchor_sizes_.end()) fail(mark, "this alias names no anchor before it");
        const uint64_t size = known->second;
        alias_nodes_ = std::min(alias_nodes_ + size, kMaxAliasNodes + 1);
        if (alias_nodes_ > kMaxAliasNodes)
            fail(mark,
                 fmt::format("aliases expand to more than {} nodes in this file", kMaxAliasNodes));
        if (key_expected()) fail(mark, "a key must be plain text, not an alias");
        add(size);
    }
    void OnSequenceStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                         YAML::EmitterStyle::value) override {
        open(mark, anchor, false);
    }
    void OnSequenceEnd() override { close(); }
    void OnMapStart(const YAML::Mark& mark, const std::string&, YAML::anchor_t anchor,
                    YAML::EmitterStyle::value) override {
        open(mark, anchor, true);
    }
    void OnMapEnd() override { close(); }

private:
    struct Collection {
        YAML::anchor_t anchor;
        bool map;
        uint64_t size = 1;  ///< nodes inside, aliases expanded, itself included
        size_t children = 0;
        std::map<std::string, int> key_lines;
    };

    [[noreturn]] void fail(const YAML::Mark& mark, const std::string& message) const {
        throw ConfigError({file_, line_of(mark)}, message);
    }

    /// Even children of a map are its keys.
    bool key_expected() const {
        return !open_.empty() && open_.back().map && open_.back().children % 2 == 0;
    }

    void add(uint64_t size) {
        // Counted before yaml-cpp builds its nodes (a few hundred bytes
        // each), so a huge file cannot exhaust memory there either.
        if (++nodes_ > kMaxYamlNodes)
            throw ConfigError({file_, 0}, fmt::format("more than {} YAML nodes: not a config or "
                                                      "sweep file",
                                                      kMaxYamlNodes));
        if (open_.empty()) return;
        Collection& parent = open_.back();
        parent.size = std::min(parent.size + size, kMaxAliasNodes + 1);
        ++parent.children;
    }

    void leaf(const YAML::Mark& mark, YAML::anchor_t anchor, const std::string& text) {
        if (text.size() > kMaxTextBytes)
            fail(mark, fmt::format("'{}' is longer than {} bytes: no key or value is",
                                   excerpt(text), kMaxTextBytes));
        if (key_expected()) {
            // yaml-cpp reads "<<" as a plain key, so it would surface as an unknown key.
            if (text == "<<")
                fail(mark,
                     "merge keys ('<<') are not supported: write the keys out, or start "
                     "the file from another with base:");
            auto [it, fresh] = open_.back().key_lines.emplace(text, line_of(mark));
            if (!fresh)
                fail(mark,
                     fmt::format("duplicate key '{}': also at line {}", excerpt(text), it->second));
        }
        if (anchor) anchor_sizes_[anchor] = 1;
        add(1);
    }

    void open(const YAML::Mark& mark, YAML::anchor_t anchor, bool map) {
        if (key_expected()) fail(mark, "a key must be plain text, not a list or map");
        // Refused as the parser descends, before it or YAML::Load recurses deeper.
        if (open_.size() >= kMaxYamlDepth)
            fail(mark, fmt::format("lists and maps nested more than {} deep", kMaxYamlDepth));
        open_.push_back(Collection{anchor, map, 1, 0, {}});
    }

    void close() {
        Collection done = std::move(open_.back());
        open_.pop_back();
        if (done.anchor) anchor_sizes_[done.anchor] = done.size;
        add(done.size);
    }

    std::string file_;
    int documents_ = 0;
    int first_document_line_ = 0;
    uint64_t alias_nodes_ = 0;
    uint64_t nodes_ = 0;
    std::vector<Collection> open_;
    std::map<YAML::anchor_t, uint64_t> anchor_sizes_;
};

}  // namespace

std::string read_input_file(const std::string& path, uint64_t max_bytes, std::string_view what) {
    try {
        return tb::read_bounded_input(path, max_bytes, what);
    } catch (const tb::ConfigError& e) {
        // "PATH: why", as a ConfigError at PATH.
        const std::string_view why = e.what();
        const std::string prefix = path + ": ";
        throw ConfigError({path, 0},
                          std::string(why.substr(why.rfind(prefix, 0) == 0 ? prefix.size() : 0)));
    }
}

YAML::Node parse_strict_yaml(const std::string& text, const std::string& file) {
    try {
        std::istringstream events_in(text);
        YAML::Parser parser(events_in);
        StrictChecker checker(file);
        while (parser.HandleNextDocument(checker)) {
        }
        return YAML::Load(text);
    } catch (const YAML::ParserException& e) {
        throw ConfigError({file, e.mark.line + 1}, fmt::format("YAML syntax error: {}", e.msg));
    }
}

YAML::Node load_strict_yaml(const std::string& path, std::string_view what) {
    return parse_strict_yaml(read_input_file(path, kMaxYamlFileBytes, what), path);
}

}  // namespace dmasim::sim
