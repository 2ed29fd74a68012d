// SPDX-License-Identifier: GPL-3.0-or-later
#include "teaching/probe.h"

#include "dplab/engine/metrics.h"

#include <algorithm>

namespace dplab {

TeachingProbe::TeachingProbe(const Experiment &experiment, const RunSpec &run, const RunContext &context,
                             int repetition, const MessageRecording &recording)
    : mRecording(recording), mRepetition(repetition)
{
    mRecord = recording.enabled && (recording.repetition < 0 || recording.repetition == repetition);
    if (!experiment.eavesdropper)
        return;
    auto e = Eavesdropper::create(*run.algorithm, context, experiment.eavesdropper->agent);
    if (e)
        mEavesdropper = std::move(e.value());
    else
        mWarning = "eavesdropper: " + e.error().message + "; attack_error is not shown for this run";
}

void TeachingProbe::afterStep(long long k, const Algorithm &algorithm, MetricsBatch &batch, RepetitionResult &out)
{
    const std::vector<Message> &messages = algorithm.lastMessages();
    if (mEavesdropper)
        mEavesdropper->observe(k, messages);
    if (mRecord && mRecording.wants(k, mRepetition) && mRecorded < mRecording.maxRecords) {
        MessageRecord record{k, messages};
        batch.messages.push_back(record);
        out.messages.push_back(std::move(record));
        ++mRecorded;
    }
}

void TeachingProbe::fill(const std::vector<std::string> &names, std::vector<double> &row) const
{
    if (!mEavesdropper)
        return;
    const auto it = std::find(names.begin(), names.end(), metric::AttackError);
    if (it != names.end())
        row[static_cast<std::size_t>(it - names.begin())] = mEavesdropper->error();
}

void TeachingProbe::finish(RepetitionResult &out) const
{
    if (!mEavesdropper)
        return;
    out.attackEstimate = mEavesdropper->target() == Eavesdropper::Target::Gradient ? mEavesdropper->gradientEstimate()
                                                                                   : mEavesdropper->dataEstimate();
    out.attackTruth = mEavesdropper->target() == Eavesdropper::Target::Gradient ? mEavesdropper->gradientTruth()
                                                                                : mEavesdropper->dataTruth();
}

} // namespace dplab
