// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/algo/errorfeedback.h"

#include <cassert>

namespace dplab {

ErrorFeedback::ErrorFeedback(int n, int d) : mMemory(Eigen::MatrixXd::Zero(n, d)), mInput(d)
{
}

std::uint64_t ErrorFeedback::compress(const Compressor &compressor, int agent,
                                      const Eigen::Ref<const Eigen::VectorXd> &v, Eigen::Ref<Eigen::VectorXd> out,
                                      Rng &rng)
{
    assert(agent >= 0 && agent < mMemory.rows() && "ErrorFeedback::compress: agent out of range");
    assert(v.size() == mMemory.cols() && out.size() == v.size() && "ErrorFeedback::compress: size");
    mInput = v + mMemory.row(agent).transpose();
    const std::uint64_t bits = compressor.compress(mInput, out, rng);
    mMemory.row(agent) = (mInput - out).transpose();
    return bits;
}

} // namespace dplab
