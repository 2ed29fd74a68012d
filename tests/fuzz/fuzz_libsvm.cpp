// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: LIBSVM / SVMlight files (plain or gzip) through the header scan and the loader,
// with the dimension from the file and a fixed one.
#include "fuzzcommon.h"

#include "dplab/problem/datascan.h"
#include "dplab/problem/dataset.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace dplab;
    fuzz::limitMemory();
    const std::string path = fuzz::scratchFile(data, size, ".svm");
    (void)scanLibsvmHeader(path);
    (void)loadLibsvm(path);
    (void)loadLibsvm(path, 8);
    return 0;
}
