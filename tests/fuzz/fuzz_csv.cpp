// SPDX-License-Identifier: GPL-3.0-or-later
// Fuzz target: CSV data files (plain or gzip: the bytes are written as they are) through the
// header scan and the loader with automatic header detection and the last column as label.
#include "fuzzcommon.h"

#include "dplab/problem/datascan.h"
#include "dplab/problem/dataset.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size)
{
    using namespace dplab;
    fuzz::limitMemory();
    const std::string path = fuzz::scratchFile(data, size, ".csv");
    (void)scanCsvHeader(path);
    auto loaded = loadCsv(path);
    if (loaded && loaded->samples() > 0) {
        CsvOptions first;
        first.labelColumn = 0;
        first.header = CsvOptions::Header::No;
        (void)loadCsv(path, first);
    }
    return 0;
}
