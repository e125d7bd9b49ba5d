/// @brief Each method's scalar parameters in one table: the name every interface spells it by (the
/// statistics JSON and Python keyword, the command line's option, the session file's key), its kind,
/// default and limits (ParameterLimits.h), unit and help, and how it is read from and written to a
/// request. The CLI parser and its --help, validateParameters, the session file, the statistics JSON
/// and the Python module all loop over this table: adding a parameter touches the engine and its row.
/// Structural inputs (seeds, boxes, rectangles, the slice, masks) are not rows: each has its own
/// syntax where it is read.
#pragma once

#include "lucent/core/seg/Methods.h"
#include "lucent/core/seg/ParameterLimits.h"

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace lucent {

struct SegmentationRequest;

enum class ParameterKind {
    Integer,         ///< a whole number within its limits
    Number,          ///< a real number within its limits
    OptionalNumber,  ///< a real number, or absent (the engine estimates it or applies a rule)
    Flag,            ///< on or off (a command-line switch, a JSON boolean)
    OptionalRange,   ///< two numbers lower < upper ("LO,HI", a JSON pair), or absent; each bound within the limit
};

struct Parameter {
    Method method;
    std::string_view key;         ///< snake_case: the statistics JSON's key and the Python keyword
    std::string_view flag;        ///< the command line's option ("--object-sigma")
    std::string_view sessionKey;  ///< camelCase: the session file's key
    ParameterKind kind;
    Limit<double> limit;          ///< default and accepted range (ParameterLimits.h); Flag: 0 or 1
    std::span<const int> choices; ///< the only values allowed, when not a range (connectivity: 6, 26)
    std::string_view metavar;     ///< the value's name in --help ("T" in "--threshold T"); empty for a flag
    std::string_view unit;        ///< "mm", "stored units", ... ; empty when none
    std::string_view help;        ///< one line for --help and the panel's tool tip
    /// The request's value; nullopt for an absent optional number. A flag reads 0 or 1. Null for a range.
    std::optional<double> (*get)(const SegmentationRequest&);
    /// Sets the request's value (nullopt: absent, for optional numbers only). Null for a range.
    void (*set)(SegmentationRequest&, std::optional<double>);
    /// An OptionalRange row's value and setter (nullopt: absent); null for every other kind.
    std::optional<ValueRange> (*getRange)(const SegmentationRequest&) = nullptr;
    void (*setRange)(SegmentationRequest&, std::optional<ValueRange>) = nullptr;

    /// "estimate radius": the key as a message names it.
    std::string label() const;
    /// Whether `value` is allowed (whole for an integer; within the limit or one of the choices).
    bool allows(double value) const;
    /// A range row: both bounds finite and within the limit, the lower below the upper.
    bool allowsRange(const ValueRange& range) const;
    /// "within 0..1", "at least 1", "greater than 0", "6 or 26": what allows() accepts; "LO < HI" for a range.
    std::string rangeText() const;
    /// What a message asks for: rangeText(), "a whole number, " first for an integer; "two numbers LO,HI, LO
    /// below HI" for a range.
    std::string requirement() const;
    /// "2" or "0.005": the default as a user types it; "estimated" / "by rule" for an optional number,
    /// "none" for a range.
    std::string defaultText() const;
};

/// Every row, method by method in the enum's order.
const std::vector<Parameter>& parameterTable();
/// The rows of one method (none for growcut: its seeds are a label volume).
std::vector<const Parameter*> parametersOf(Method method);
/// The row whose command-line option is `flag`; nullptr for any other text.
const Parameter* parameterByFlag(std::string_view flag);
/// The session file's object that holds a method's rows ("fuzzyConnectedness").
std::string_view sessionBlock(Method method);

/// Throws std::invalid_argument "threshold must be within 0..1" when the value is not allowed.
void checkParameter(const Parameter& p, double value);
/// The same for a range row ("clip must be two numbers LO,HI, LO below HI").
void checkRange(const Parameter& p, const ValueRange& range);
/// "0,80": a range as the command line takes it (and --help, messages and the viewer show it).
std::string rangeText(const ValueRange& range);
/// The range "LO,HI" (two finite numbers, nothing else); nullopt when the text is not one. The row's
/// allowsRange() is not checked here.
std::optional<ValueRange> parseRange(std::string_view text);

}  // namespace lucent
