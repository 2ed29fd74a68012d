// SPDX-License-Identifier: GPL-3.0-or-later
//
// Private to core/compress: the registry entries of the built-in compressors and the bit-count
// helpers they share. Each compressor file (sparsifiers.cpp, quantizers.cpp) defines its
// classes in an anonymous namespace and exports one entry function per compressor; the
// registry in compressors.cpp lists the entries. Adding a compressor = one class + one entry
// function + one registry line.
//
// Threading: plain functions; entries are built once and then only read.
#pragma once

#include "dplab/compress/compressor.h"

#include <cassert>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

namespace dplab {

/** A registry entry: the documented data and a factory taking the *resolved* parameters
 *  (every key of descriptor.params present and valid; the "type" key removed). */
struct CompressorEntry {
    Descriptor descriptor;
    std::function<std::shared_ptr<const Compressor>(const Json &resolved)> create;
};

CompressorEntry identityCompressorEntry();
CompressorEntry topKCompressorEntry();
CompressorEntry randKCompressorEntry();
CompressorEntry ditheredQuantizerEntry();
CompressorEntry qsgdCompressorEntry();
CompressorEntry normSignCompressorEntry();
CompressorEntry signCompressorEntry();

/** What every compress() requires of its arguments (checked in debug builds): x is not empty
 *  and out has the size of x. */
inline void compressorCheckSizes([[maybe_unused]] const Eigen::Ref<const Eigen::VectorXd> &x,
                                 [[maybe_unused]] const Eigen::Ref<Eigen::VectorXd> &out)
{
    assert(x.size() >= 1 && "Compressor::compress: x must not be empty");
    assert(out.size() == x.size() && "Compressor::compress: out must have the size of x");
}

/** `spec` with its unit and the condition of paper 001's Assumption 5 it takes part in. */
ParamSpec compressorParam(ParamSpec spec, std::string unit, std::string condition);

/** ⌈log2 n⌉ for n ≥ 1 (0 for n = 1): the bits of one index into n items, or of one of n
 *  levels. */
std::uint64_t compressorCeilLog2(std::uint64_t n);

/** Bits of a message that keeps `kept` of d coordinates (REQUIRES: 1 ≤ kept ≤ d):
 *  min(kept·(kValueBits + ⌈log2 d⌉), d·kValueBits). The sparse form sends each kept value with
 *  its index; the dense form sends all d values (zeros included). Both ends know kept and d, so
 *  the cheaper form is chosen without a flag bit. */
std::uint64_t compressorSparseBits(Eigen::Index kept, Eigen::Index d);

/** The resolved spec of a compressor, {"type": id, ...params}, for toJson(). */
Json compressorSpecJson(const std::string &id, const Json &params);

} // namespace dplab
