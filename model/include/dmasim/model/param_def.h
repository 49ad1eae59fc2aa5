// param_def.h - one configuration parameter as a table row declares it:
// its key, unit, allowed values and description, and how to read and write
// it in a configuration. The model's rows (param_rows.h) and the
// testbench's (tb/workload_rows.h) are both made of these; sim/ turns
// every row into a config key, its docs and its JSON schema.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

namespace dmasim::model {

/// The part of a row's range the randomized soak (sim/soak) draws from:
/// all of it, unless the row narrows it where the whole range would make a
/// soak point too slow to run by the hundred.
template <class T>
struct SoakRange {
    bool narrowed = false;
    T min{}, max{};
};

/// Inclusive range of an integer parameter; with power_of_two, only 2^k;
/// with values, only those (one_of).
struct IntRange {
    uint64_t min, max;
    bool power_of_two = false;
    std::vector<uint64_t> values = {};
    SoakRange<uint64_t> soak = {};

    /// This range, soaked only within [lo, hi].
    IntRange soaked(uint64_t lo, uint64_t hi) const {
        IntRange r = *this;
        r.soak = {true, lo, hi};
        return r;
    }
};
/// An integer parameter that takes only `values` (ascending).
inline IntRange one_of(std::initializer_list<uint64_t> values) {
    return IntRange{*values.begin(), *(values.end() - 1), false, values};
}
/// Inclusive range of a real parameter.
struct RealRange {
    double min, max;
    SoakRange<double> soak = {};

    /// This range, soaked only within [lo, hi].
    RealRange soaked(double lo, double hi) const {
        RealRange r = *this;
        r.soak = {true, lo, hi};
        return r;
    }
};
/// A parameter that is true or false.
struct BoolValues {};
/// A parameter that is free text (checked by its layer's rules).
struct TextValues {};
/// A text parameter naming a file: a relative path set in a config file
/// is taken from that file's folder.
struct PathValues {};
/// One spelling of an enum parameter's value in a configuration.
template <class E>
struct Spelling {
    const char* text;
    E value;
};
/// The spellings of an enum parameter, in documentation order.
template <class E>
struct Choices {
    const Spelling<E>* spellings;
    size_t count;
};
template <class E, size_t N>
constexpr Choices<E> choices(const Spelling<E> (&spellings)[N]) {
    return {spellings, N};
}

/// Who can change a parameter, as `dmasim advise` groups its advice: the
/// engine's designer (dma.*, the IOMMU's caches), the platform around the
/// engine (clock, bus, link, memory, device, other masters), or the
/// driver and what it asks of the engine (coalescing, page size, CPU costs).
enum class KnobGroup { engine, platform, driver };
inline constexpr KnobGroup kEngine = KnobGroup::engine;
inline constexpr KnobGroup kPlatform = KnobGroup::platform;
inline constexpr KnobGroup kDriver = KnobGroup::driver;

/// A row's what-if step: the one move of its value `dmasim advise` tries,
/// in the direction that could help (more in flight, less latency). The
/// step stays within the row's range; doubling or halving 0 moves nothing
/// (0 is a mode there: no limit, no cache), so it is not tried.
struct WhatIf {
    enum Step { none, doubled, halved, set_to };
    Step step = none;
    KnobGroup group = KnobGroup::engine;
    const char* value = nullptr;  ///< set_to: the spelling of the value tried
};
/// A row that is not advised: the workload itself, limits, protocol facts.
inline constexpr WhatIf kNotAdvised{};
constexpr WhatIf doubled(KnobGroup group) { return {WhatIf::doubled, group}; }
constexpr WhatIf halved(KnobGroup group) { return {WhatIf::halved, group}; }
constexpr WhatIf set_to(const char* value, KnobGroup group) {
    return {WhatIf::set_to, group, value};
}

/// A parameter's value: integers as uint64_t, choices and text as text.
using ParamValue = std::variant<uint64_t, double, bool, std::string>;
enum class ParamKind { integer, real, boolean, choice, text };

/// One row of a parameter table over configurations of type Config.
template <class Config>
struct ParamDef {
    std::string key;  ///< dotted path, e.g. "dma.max_burst_beats"
    std::string unit;
    std::string description;
    ParamKind kind = ParamKind::text;
    IntRange int_range{0, 0};       ///< integer parameters
    RealRange real_range{0, 0};     ///< real parameters
    std::vector<std::string> choices;  ///< choice parameters: the spellings
    bool path = false;                 ///< text parameters: names a file
    WhatIf what_if;                    ///< what `dmasim advise` tries
    std::function<ParamValue(const Config&)> get;
    std::function<void(Config&, const ParamValue&)> set;
};

/// A row with no allowed values or accessors yet.
template <class Config>
ParamDef<Config> row(const char* key, const char* unit, const char* description, ParamKind kind) {
    ParamDef<Config> d;
    d.key = key;
    d.unit = unit;
    d.description = description;
    d.kind = kind;
    return d;
}

// The row of the field `field(config)` returns (a generic lambda returning
// a reference, so one accessor serves const and mutable configurations).
template <class Config, class Field>
ParamDef<Config> param(const char* key, const char* unit, IntRange range, const char* description,
                       Field field) {
    ParamDef<Config> d = row<Config>(key, unit, description, ParamKind::integer);
    d.int_range = range;
    d.get = [field](const Config& c) { return ParamValue{static_cast<uint64_t>(field(c))}; };
    d.set = [field](Config& c, const ParamValue& v) {
        using T = std::remove_reference_t<decltype(field(c))>;
        field(c) = static_cast<T>(std::get<uint64_t>(v));
    };
    return d;
}
/// A row whose value is stored as T in both the field and ParamValue.
template <class Config, class T, class Field>
ParamDef<Config> plain_param(const char* key, const char* unit, const char* description,
                             ParamKind kind, Field field) {
    ParamDef<Config> d = row<Config>(key, unit, description, kind);
    d.get = [field](const Config& c) { return ParamValue{static_cast<T>(field(c))}; };
    d.set = [field](Config& c, const ParamValue& v) { field(c) = std::get<T>(v); };
    return d;
}
template <class Config, class Field>
ParamDef<Config> param(const char* key, const char* unit, RealRange range,
                       const char* description, Field field) {
    ParamDef<Config> d = plain_param<Config, double>(key, unit, description, ParamKind::real, field);
    d.real_range = range;
    return d;
}
template <class Config, class Field>
ParamDef<Config> param(const char* key, const char* unit, BoolValues, const char* description,
                       Field field) {
    return plain_param<Config, bool>(key, unit, description, ParamKind::boolean, field);
}
template <class Config, class Field>
ParamDef<Config> param(const char* key, const char* unit, TextValues, const char* description,
                       Field field) {
    return plain_param<Config, std::string>(key, unit, description, ParamKind::text, field);
}
template <class Config, class Field>
ParamDef<Config> param(const char* key, const char* unit, PathValues, const char* description,
                       Field field) {
    ParamDef<Config> d = param<Config>(key, unit, TextValues{}, description, field);
    d.path = true;
    return d;
}
template <class Config, class E, class Field>
ParamDef<Config> param(const char* key, const char* unit, Choices<E> values,
                       const char* description, Field field) {
    ParamDef<Config> d = row<Config>(key, unit, description, ParamKind::choice);
    for (size_t i = 0; i < values.count; ++i) d.choices.push_back(values.spellings[i].text);
    d.get = [field, values](const Config& c) {
        for (size_t i = 0; i < values.count; ++i)
            if (values.spellings[i].value == field(c)) return ParamValue{values.spellings[i].text};
        return ParamValue{std::string("?")};
    };
    d.set = [field, values](Config& c, const ParamValue& v) {
        for (size_t i = 0; i < values.count; ++i)
            if (values.spellings[i].text == std::get<std::string>(v))
                field(c) = values.spellings[i].value;
    };
    return d;
}

/// `d` with its what-if step (the tables' what-if column).
template <class Config>
ParamDef<Config> with_what_if(ParamDef<Config> d, WhatIf what_if) {
    d.what_if = what_if;
    return d;
}

/// The same row over a configuration that holds Inner where `inner`
/// (a generic lambda) finds it: the testbench lifts the model's rows into
/// its SimConfig this way.
template <class Outer, class Inner, class Path>
ParamDef<Outer> lift(const ParamDef<Inner>& d, Path inner) {
    ParamDef<Outer> out = row<Outer>(d.key.c_str(), d.unit.c_str(), d.description.c_str(), d.kind);
    out.int_range = d.int_range;
    out.real_range = d.real_range;
    out.choices = d.choices;
    out.path = d.path;
    out.what_if = d.what_if;
    out.get = [get = d.get, inner](const Outer& c) { return get(inner(c)); };
    out.set = [set = d.set, inner](Outer& c, const ParamValue& v) { set(inner(c), v); };
    return out;
}

/// Expands a row of an X-macro table into a struct member with its default.
#define DMASIM_PARAM_FIELD(type, name, default_value, key, unit, values, what_if, description) \
    type name = default_value;

}  // namespace dmasim::model
