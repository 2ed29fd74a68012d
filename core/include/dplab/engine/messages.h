// SPDX-License-Identifier: GPL-3.0-or-later
//
// Message recording for the teaching views (docs/architecture.md §2): the runner asks an algorithm to keep the
// messages of each iteration (Algorithm::setRecordMessages, off in the hot path) only when a
// MessageRecording asks for them, and hands them out as MessageRecord values — per iteration,
// per sender and channel: the clean value, the noise added, the value sent (noised, then
// compressed) and its bits.
//
// Threading: plain values, copyable across threads.
#pragma once

#include "dplab/algo/algorithm.h"

#include <limits>
#include <vector>

namespace dplab {

/** The messages every agent sent in one iteration (the step from k to k+1). */
struct MessageRecord {
    long long iteration = 0; ///< k: the messages of the step that produced iteration k+1
    std::vector<Message> messages;
};

/** Which messages the runner records. Default: none. */
struct MessageRecording {
    bool enabled = false;
    long long first = 0;                                     ///< first iteration k recorded
    long long last = std::numeric_limits<long long>::max();  ///< last iteration k recorded
    long long every = 1;                                     ///< record k when (k − first) % every == 0
    int repetition = 0;  ///< only this repetition of each run (−1 = all)
    long long maxRecords = 100000; ///< safety cap per repetition

    bool wants(long long k, int rep) const
    {
        return enabled && k >= first && k <= last && (k - first) % every == 0
               && (repetition < 0 || rep == repetition);
    }
};

/** The message of `sender` on `channel` in a record, or nullptr. */
const Message *findMessage(const MessageRecord &record, int sender, const std::string &channel);

} // namespace dplab
