// SPDX-License-Identifier: GPL-3.0-or-later
//
// Compressors applied to each message an agent sends: compress(x, rng) -> (x̂, bits).
// Each states its (φ, r) constants of paper 001's Assumption 5,
//     E‖C(x)/r − x‖² ≤ (1 − φ)‖x‖²,
// and its bit-counting rule (kValueBits = 32 bits per transmitted real, ⌈log2 d⌉ per index).
//
// Threading: a Compressor is immutable; compress() draws only from the Rng passed in.
#pragma once

#include "dplab/common/params.h"
#include "dplab/privacy/rng.h"

#include <Eigen/Core>

#include <cstdint>
#include <memory>
#include <string>

namespace dplab {

/** Bits charged for one transmitted real number (single precision, as in the compression
 *  literature's bit counts). */
inline constexpr std::uint64_t kValueBits = 32;

class Compressor
{
public:
    virtual ~Compressor() = default;
    virtual std::string id() const = 0;
    /** Writes C(x) into out (same size as x); returns the bits of the message. */
    virtual std::uint64_t compress(const Eigen::Ref<const Eigen::VectorXd> &x,
                                   Eigen::Ref<Eigen::VectorXd> out, Rng &rng) const = 0;
    /** φ of Assumption 5 for vectors of dimension d. */
    virtual double phi(int d) const = 0;
    /** r of Assumption 5 for vectors of dimension d. */
    virtual double r(int d) const = 0;
    /** Whether C draws random numbers (the engine then gives each agent a Compressor stream). */
    virtual bool isRandom() const = 0;
    /** True for the identity (no compression). */
    virtual bool isIdentity() const { return false; }
    /** The resolved parameters, for experiment.json and the report. */
    virtual Json toJson() const = 0;
};

const std::vector<Descriptor> &compressorDescriptors();

/** Builds a compressor from {"type": id, ...params}; null or absent means identity. */
Result<std::shared_ptr<const Compressor>> makeCompressor(const Json &spec, const std::string &path);

/** Bits of an uncompressed d-vector: d * kValueBits. */
inline std::uint64_t fullVectorBits(Eigen::Index d)
{
    return static_cast<std::uint64_t>(d) * kValueBits;
}

} // namespace dplab
