// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: IDX image/label pairs, raw or gzip. The first two bytes give the length of the
// labels file; the rest are the images file. Both go through the header scan and the loader.
#include "fuzzcommon.h"

#include "dplab/problem/datascan.h"
#include "dplab/problem/dataset.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace dplab;
    // 16 MiB: inputs are a few KB, so a file whose header passes the checks needs little more.
    // At 256 MiB, inputs whose headers passed made loadIdx allocate and zero up to that much
    // each (about 70 executions a second under ASan).
    fuzz::limitMemory(16ull << 20);
    if (size < 2)
        return 0;
    std::size_t labelsSize = (std::size_t(data[0]) << 8) | data[1];
    data += 2;
    size -= 2;
    labelsSize = std::min(labelsSize, size);
    const std::string labels = fuzz::scratchFile(data, labelsSize, "-labels.idx");
    const std::string images = fuzz::scratchFile(data + labelsSize, size - labelsSize, "-images.idx");
    (void)idxShape(images);
    (void)scanIdxHeader(images, labels);
    (void)loadIdx(images, labels);
    (void)loadIdx(images, labels, 3);
    return 0;
}
