// SPDX-License-Identifier: GPL-3.0-or-later
//
// Result<T> and Status: how core functions that can fail on user input report it.
//
// Threading: value types, no shared state; safe to pass between threads.
#pragma once

#include <cassert>
#include <optional>
#include <string>
#include <utility>
#include <variant>

namespace dplab {

enum class ErrorCode {
    InvalidArgument, ///< a value is out of range, of the wrong type, or inconsistent
    NotFound,        ///< a file, key or registry id does not exist
    ParseError,      ///< malformed JSON, CSV, LIBSVM, ...
    IoError,         ///< reading or writing a file failed
    Unsupported,     ///< a valid request this build or algorithm cannot serve
    Internal         ///< a numerical routine failed (should not happen on valid input)
};

/** An error: what failed, where (a JSON path such as `runs[1].params.stepsize`, or `file:line`),
 *  and a message for a person. `toString()` is the one line printed by the CLI. */
struct Error {
    ErrorCode code = ErrorCode::InvalidArgument;
    std::string where;
    std::string message;

    std::string toString() const { return where.empty() ? message : where + ": " + message; }

    static Error invalid(std::string where, std::string message)
    {
        return {ErrorCode::InvalidArgument, std::move(where), std::move(message)};
    }
    static Error notFound(std::string where, std::string message)
    {
        return {ErrorCode::NotFound, std::move(where), std::move(message)};
    }
    static Error parse(std::string where, std::string message)
    {
        return {ErrorCode::ParseError, std::move(where), std::move(message)};
    }
    static Error io(std::string where, std::string message)
    {
        return {ErrorCode::IoError, std::move(where), std::move(message)};
    }
    static Error unsupported(std::string where, std::string message)
    {
        return {ErrorCode::Unsupported, std::move(where), std::move(message)};
    }
    static Error internal(std::string where, std::string message)
    {
        return {ErrorCode::Internal, std::move(where), std::move(message)};
    }
};

/** Either a value or an Error. Check `ok()` (or `if (result)`) before `value()`. */
template <class T>
class Result
{
public:
    Result(T value) : mData(std::in_place_index<0>, std::move(value)) {}
    Result(Error error) : mData(std::in_place_index<1>, std::move(error)) {}

    bool ok() const { return mData.index() == 0; }
    explicit operator bool() const { return ok(); }

    T &value() &
    {
        assert(ok() && "Result::value() on an error");
        return std::get<0>(mData);
    }
    const T &value() const &
    {
        assert(ok() && "Result::value() on an error");
        return std::get<0>(mData);
    }
    T &&value() &&
    {
        assert(ok() && "Result::value() on an error");
        return std::get<0>(std::move(mData));
    }
    T *operator->() { return &value(); }
    const T *operator->() const { return &value(); }
    T &operator*() { return value(); }
    const T &operator*() const { return value(); }

    const Error &error() const
    {
        assert(!ok() && "Result::error() on a value");
        return std::get<1>(mData);
    }

private:
    std::variant<T, Error> mData;
};

/** Success or an Error, for functions with nothing to return. */
class Status
{
public:
    Status() = default;
    Status(Error error) : mError(std::move(error)) {}
    static Status okStatus() { return {}; }

    bool ok() const { return !mError.has_value(); }
    explicit operator bool() const { return ok(); }
    const Error &error() const
    {
        assert(!ok() && "Status::error() on success");
        return *mError;
    }

private:
    std::optional<Error> mError;
};

/** Joins a JSON path and a child key: joinPath("runs[1]", "params") == "runs[1].params". */
inline std::string joinPath(const std::string &parent, const std::string &key)
{
    return parent.empty() ? key : parent + "." + key;
}
/** Joins a JSON path and an array index: indexPath("runs", 1) == "runs[1]". */
inline std::string indexPath(const std::string &parent, std::size_t index)
{
    return parent + "[" + std::to_string(index) + "]";
}

} // namespace dplab
