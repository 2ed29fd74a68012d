// SPDX-License-Identifier: GPL-3.0-or-later
#include "exitcodes.h"

#include "dplab/common/result.h"

#include <new>
#include <system_error>

namespace dplab::cli {

int exitCodeOf(const Error &error)
{
    // Everything but a bug is the input's fault: bad values, missing, corrupt or unreadable
    // files, over-limit sizes, folders that cannot be written.
    return error.code == ErrorCode::Internal ? Failure : InvalidInput;
}

int exitCodeOfException(std::exception_ptr exception, std::string *line)
{
    try {
        std::rethrow_exception(exception);
    } catch (const std::bad_alloc &) {
        *line = "dplab-cli: out of memory (an estimate missed this allocation; --max-memory lowers the limit)";
        return Failure;
    } catch (const std::system_error &e) {
        *line = std::string("dplab-cli: cannot start worker threads: ") + e.what() + " (try fewer --threads)";
        return InvalidInput;
    } catch (const std::exception &e) {
        *line = std::string("dplab-cli: internal error: ") + e.what();
        return Failure;
    } catch (...) {
        *line = "dplab-cli: internal error: an exception of unknown type";
        return Failure;
    }
}

int exitCodeOfSignal(int signal)
{
    return 128 + signal;
}

} // namespace dplab::cli
