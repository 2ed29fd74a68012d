// SPDX-License-Identifier: GPL-3.0-or-later
//
// Error feedback (a per-agent residual memory) around a compressor, as in EF-SGD (Seide et al.
// 2014; Karimireddy et al. 2019) and CHOCO-style compressed gossip practice:
//     u_i   = v_i + e_i          (the vector to send plus what earlier compressions dropped)
//     m_i   = C(u_i)             (the message actually broadcast)
//     e_i  ← u_i − m_i           (what this compression dropped, re-sent later)
// With the identity compressor e_i stays 0, so error feedback is a no-op.
//
// Where it is applied: algorithms that take the "error_feedback" parameter (pgtc, ppdc) apply it
// inside their ReferenceChannel to the difference v_i = x^a_i − x^c_i just before compression
// (see referencechannel.h). Nothing else changes: the receivers still form x̂_i = x^c_i + m_i.
// Privacy is unaffected (paper 001's argument): e_i is a deterministic function of agent i's
// past noisy states and compressor randomness, so equal noisy states give equal messages.
//
// Threading: owned by one algorithm instance; not thread-safe. No allocation after construction.
#pragma once

#include "dplab/compress/compressor.h"
#include "dplab/privacy/rng.h"

#include <Eigen/Core>

#include <cstdint>

namespace dplab {

class ErrorFeedback
{
public:
    ErrorFeedback() = default;
    /** A zero memory for n agents sending d-vectors. */
    ErrorFeedback(int n, int d);

    /** out = C(v + e_agent); e_agent ← v + e_agent − out. Returns the bits of the message
     *  (the compressor's count). `out` must not alias `v`. Cost: one compression + O(d). */
    std::uint64_t compress(const Compressor &compressor, int agent, const Eigen::Ref<const Eigen::VectorXd> &v,
                           Eigen::Ref<Eigen::VectorXd> out, Rng &rng);

    /** The residuals e (n×d, row i = agent i). */
    const Eigen::MatrixXd &memory() const { return mMemory; }
    /** Sets every residual back to zero. */
    void clear() { mMemory.setZero(); }

private:
    Eigen::MatrixXd mMemory;
    Eigen::VectorXd mInput;
};

} // namespace dplab
