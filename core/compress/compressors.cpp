// SPDX-License-Identifier: GPL-3.0-or-later
//
// The compressor registry and makeCompressor(). The compressors themselves live in
// sparsifiers.cpp (identity, top-k, rand-k) and quantizers.cpp (dithered-quantizer, qsgd,
// norm-sign, sign). Adding a compressor = one class + one entry function + one line below.
//
// Bit accounting (paper 001 gives none; DPLab's rule, docs/architecture.md §2):
//   - a real number costs kValueBits = 32 bits; an index into d coordinates ⌈log2 d⌉ bits;
//   - the count depends only on d and the parameters, never on the values of x (the zero
//     vector costs as much as any other message of the same compressor);
//   - each compressor states its exact rule next to its class.
#include "compress/builtin.h"
#include "dplab/common/registry.h"

#include <algorithm>
#include <bit>

namespace dplab {

namespace {

const std::vector<CompressorEntry> &registry()
{
    static const std::vector<CompressorEntry> entries = {
        identityCompressorEntry(),
        topKCompressorEntry(),
        randKCompressorEntry(),
        ditheredQuantizerEntry(),
        qsgdCompressorEntry(),
        normSignCompressorEntry(),
        signCompressorEntry(),
    };
    return entries;
}

std::string knownIds()
{
    std::string all;
    for (const auto &entry : registry())
        all += (all.empty() ? "" : ", ") + entry.descriptor.id;
    return all;
}

} // namespace

ParamSpec compressorParam(ParamSpec spec, std::string unit, std::string condition)
{
    spec.unit = std::move(unit);
    spec.condition = std::move(condition);
    return spec;
}

std::uint64_t compressorCeilLog2(std::uint64_t n)
{
    assert(n >= 1 && "compressorCeilLog2: n must be at least 1");
    return n <= 1 ? 0 : static_cast<std::uint64_t>(std::bit_width(n - 1));
}

std::uint64_t compressorSparseBits(Eigen::Index kept, Eigen::Index d)
{
    assert(kept >= 1 && kept <= d && "compressorSparseBits: need 1 <= kept <= d");
    const auto k = static_cast<std::uint64_t>(kept);
    const std::uint64_t indexBits = compressorCeilLog2(static_cast<std::uint64_t>(d));
    const std::uint64_t sparse = k * (kValueBits + indexBits);
    return std::min(sparse, fullVectorBits(d));
}

Json compressorSpecJson(const std::string &id, const Json &params)
{
    Json spec = params.is_object() ? params : Json::object();
    spec["type"] = id;
    return spec;
}

const std::vector<Descriptor> &compressorDescriptors()
{
    static const std::vector<Descriptor> descriptors = descriptorsOf(registry());
    return descriptors;
}

Result<std::shared_ptr<const Compressor>> makeCompressor(const Json &spec, const std::string &path)
{
    if (spec.is_null())
        return registry().front().create(Json::object()); // identity
    if (!spec.is_object())
        return Error::invalid(path, "must be an object {\"type\": ...} or null (no compression)");
    const std::string typePath = joinPath(path, "type");
    if (!spec.contains("type"))
        return Error::invalid(typePath, "is required (one of: " + knownIds() + ")");
    const Json &type = spec.at("type");
    if (!type.is_string())
        return Error::invalid(typePath, "must be a string (one of: " + knownIds() + ")");
    const std::string id = type.get<std::string>();
    for (const auto &entry : registry()) {
        if (entry.descriptor.id != id)
            continue;
        Json params = spec;
        params.erase("type");
        auto resolved = resolveParams(entry.descriptor.params, params, path);
        if (!resolved)
            return resolved.error();
        return entry.create(*resolved);
    }
    return Error::notFound(typePath,
                           "unknown compressor \"" + id + "\" (one of: " + knownIds() + ")");
}

} // namespace dplab
