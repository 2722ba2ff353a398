#pragma once
// Every scenario field by its command-line name, in one table: the CLI builds its options
// from it, sweeps vary fields through it, and the GUI's labels match its names.

#include "core/result.h"
#include "core/scenario.h"
#include "core/yamlreader.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace vl {

struct FieldSpec {
    std::string_view name;      // "batch": the CLI option and the sweep field
    std::string_view fileKey;   // "training.batch": where a scenario file keeps it
    std::string_view valueName; // "N", "fp32|mixed-fp16|..."
    std::string_view help;
    // Integer fields expose their storage (sweepable; read one with value()); the others parse text.
    std::int64_t &(*integer)(Scenario &) = nullptr;
    std::optional<Error> (*text)(Scenario &, std::string_view) = nullptr;
    bool shapesModel = false; // an architecture field: a model reshaped is counted from its shapes
    // A text field's value as a scenario file writes it (and its parser reads it back); null for
    // a key that is only read (files before it was renamed). Integers are written as they are.
    std::string (*format)(const Scenario &) = nullptr;

    // An integer field's value in `s` (its storage, read without writing).
    std::int64_t value(const Scenario &s) const { return integer(const_cast<Scenario &>(s)); }
};

std::span<const FieldSpec> scenarioFields();
const FieldSpec *findField(std::string_view name);

// The fields whose values differ between two scenarios, by name, in the table's order: what an
// edit changed, the edit rules' follow-ups included (the GUI's undo names and merges its steps
// by them). Keys that are only read are left out; they hold nothing of their own.
std::vector<std::string_view> changedFields(const Scenario &a, const Scenario &b);

// Parses `value` into the field; ranges and cross-field rules are scenarioError()'s job.
std::optional<Error> setField(Scenario &s, std::string_view name, std::string_view value);

// A section of a file ("training", "architecture"), read and written through the table: its
// keys are the fields the table files under it, each value parsed by setField() - the CLI
// flag's parser - and written by the field's formatter (into the mapping the caller opened).
// Ranges and the rules between fields are left to scenarioError(). `own` are keys the caller
// reads itself.
std::optional<Error> readFields(YamlReader r, std::string_view section, Scenario &s,
                                std::initializer_list<std::string_view> own = {});
void writeFields(YAML::Emitter &out, std::string_view section, const Scenario &s);

// An error about a field (named as the CLI spells it) placed where a file keeps that field:
// `file` reads the file's top level (or a pin's); the error gets the dotted key and the line of
// the value, else of its section, else of `file` itself.
Error placedInFile(const YamlReader &file, Error error);

} // namespace vl
