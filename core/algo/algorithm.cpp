// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/algo/algorithm.h"

namespace dplab {

Status Algorithm::reset(const RunContext &context)
{
    mProblem = context.problem;
    mWarnings.clear();
    Status started = start(context);
    mIteration = 0;
    mBits = 0;
    mMessages.clear();
    return started;
}

void Algorithm::step()
{
    std::vector<Message> *record = nullptr;
    if (mRecordMessages) {
        mMessages.clear();
        record = &mMessages;
    }
    iterate(mIteration, record);
    ++mIteration;
}

const Eigen::MatrixXd *Algorithm::state(const std::string &) const
{
    return nullptr;
}

const AlgorithmDescriptor *findAlgorithm(const std::string &id)
{
    for (const auto &d : algorithmRegistry())
        if (d.id == id)
            return &d;
    return nullptr;
}

} // namespace dplab
