// SPDX-License-Identifier: GPL-3.0-or-later
//
// The runner's teaching hook (private to core): per repetition it records the messages a
// MessageRecording asks for and runs the experiment's eavesdropper, filling the attack_error
// column. Nothing here runs unless an experiment has an "eavesdropper" or the caller asked for
// messages; the runner then calls Algorithm::setRecordMessages(true).
//
// Threading: one instance per repetition, used by one thread.
#pragma once

#include "dplab/engine/runner.h"
#include "dplab/engine/eavesdropper.h"

#include <memory>
#include <string>
#include <vector>

namespace dplab {

class TeachingProbe
{
public:
    TeachingProbe(const Experiment &experiment, const RunSpec &run, const RunContext &context, int repetition,
                  const MessageRecording &recording);

    /** Whether the algorithm must record its messages. */
    bool active() const { return mRecord || mEavesdropper; }
    bool attacks() const { return mEavesdropper != nullptr; }
    /** Why the experiment's eavesdropper does not apply to this run ("" when it does or there is
     *  none). */
    const std::string &warning() const { return mWarning; }
    std::string description() const { return mEavesdropper ? mEavesdropper->description() : std::string(); }

    /** After step k: feeds the eavesdropper and keeps the messages asked for. */
    void afterStep(long long k, const Algorithm &algorithm, MetricsBatch &batch, RepetitionResult &out);
    /** Writes attack_error into `row` (the values of `names`). */
    void fill(const std::vector<std::string> &names, std::vector<double> &row) const;
    /** The final reconstruction, into the repetition's result. */
    void finish(RepetitionResult &out) const;

private:
    MessageRecording mRecording;
    int mRepetition = 0;
    bool mRecord = false;
    long long mRecorded = 0;
    std::unique_ptr<Eavesdropper> mEavesdropper;
    std::string mWarning;
};

} // namespace dplab
