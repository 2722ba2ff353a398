#pragma once
// Errors travel by value: every failure names where it happened and what is allowed.

#include <string>
#include <utility>
#include <variant>

namespace vl {

// What kind of failure: input that breaks a rule (exit 2), or a file that could not be read or
// written (exit 3). Front ends choose their exit code by it, never by the message's words.
enum class ErrorKind { Invalid, Io };

struct Error {
    std::string field;   // the option or key at fault, e.g. "hidden" or "training.batch"
    std::string message; // what was wrong and what is allowed
    std::string file;    // empty when the input did not come from a file
    int line = 0;        // 1-based; 0 when unknown
    ErrorKind kind = ErrorKind::Invalid;

    // "file:line: field: message", leaving out the parts that are unknown.
    std::string describe() const;
};

template <class T>
class [[nodiscard]] Result {
public:
    Result(T value) : m_state(std::move(value)) {}
    Result(Error error) : m_state(std::move(error)) {}

    bool ok() const { return std::holds_alternative<T>(m_state); }
    explicit operator bool() const { return ok(); }
    const T &value() const & { return std::get<T>(m_state); }
    T &&value() && { return std::get<T>(std::move(m_state)); }
    const T &operator*() const & { return value(); }
    const T *operator->() const { return &std::get<T>(m_state); }
    const Error &error() const { return std::get<Error>(m_state); }

private:
    std::variant<T, Error> m_state;
};

} // namespace vl
