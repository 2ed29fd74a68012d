// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/algo/algorithm.h"
#include "dplab/common/registry.h"

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
    return findById(algorithmRegistry(), id);
}

} // namespace dplab
