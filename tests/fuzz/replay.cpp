// SPDX-License-Identifier: GPL-3.0-or-later
//
// A plain driver for the fuzz targets (no libFuzzer, no clang): runs LLVMFuzzerTestOneInput on
// every file given (folders are walked) and, with --mutations K, on K deterministic mutations of
// each (bit flips, byte changes, truncations, duplicated ranges; the PRNG is seeded with the
// input's index, so a failure reproduces). It is the smoke run in the normal test suite, and how
// a regression input is replayed:  replay_csv tests/fuzz/regressions/csv
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size);

namespace {

std::vector<std::uint8_t> readBytes(const std::filesystem::path &path)
{
    std::ifstream in(path, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

std::uint64_t next(std::uint64_t &state)
{
    state += 0x9e3779b97f4a7c15ull; // splitmix64
    std::uint64_t z = state;
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

std::vector<std::uint8_t> mutate(std::vector<std::uint8_t> bytes, std::uint64_t &state)
{
    const int edits = 1 + static_cast<int>(next(state) % 4);
    for (int e = 0; e < edits; ++e) {
        const std::size_t n = bytes.size();
        switch (next(state) % 6) {
        case 0: // flip a bit
            if (n)
                bytes[next(state) % n] ^= static_cast<std::uint8_t>(1u << (next(state) % 8));
            break;
        case 1: // an interesting byte
            if (n) {
                static const std::uint8_t interesting[] = {0, 0xff, 0x7f, 0x80, '9', '-', ',', '[', '{', '"', ':', '\n', 'e'};
                bytes[next(state) % n] = interesting[next(state) % sizeof interesting];
            }
            break;
        case 2: // truncate
            if (n)
                bytes.resize(next(state) % n);
            break;
        case 3: { // duplicate a range
            if (!n)
                break;
            const std::size_t from = next(state) % n, len = std::min<std::size_t>(1 + next(state) % 64, n - from);
            const std::size_t at = next(state) % (n + 1);
            std::vector<std::uint8_t> range(bytes.begin() + static_cast<long>(from), bytes.begin() + static_cast<long>(from + len));
            bytes.insert(bytes.begin() + static_cast<long>(at), range.begin(), range.end());
            break;
        }
        case 4: // erase a range
            if (n) {
                const std::size_t from = next(state) % n, len = std::min<std::size_t>(1 + next(state) % 16, n - from);
                bytes.erase(bytes.begin() + static_cast<long>(from), bytes.begin() + static_cast<long>(from + len));
            }
            break;
        default: // insert digits (sizes, indices)
            if (true) {
                const std::string digits = std::to_string(next(state) % 2 ? next(state) : next(state) % 100000);
                const std::size_t at = n ? next(state) % n : 0;
                bytes.insert(bytes.begin() + static_cast<long>(at), digits.begin(), digits.end());
            }
            break;
        }
    }
    return bytes;
}

} // namespace

int main(int argc, char **argv)
{
    int mutations = 0;
    std::vector<std::filesystem::path> files;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        if (a == "--mutations" && i + 1 < argc) {
            mutations = std::atoi(argv[++i]);
            continue;
        }
        const std::filesystem::path p(a);
        if (std::filesystem::is_directory(p)) {
            for (const auto &entry : std::filesystem::recursive_directory_iterator(p))
                if (entry.is_regular_file())
                    files.push_back(entry.path());
        } else if (std::filesystem::is_regular_file(p)) {
            files.push_back(p);
        }
    }
    std::sort(files.begin(), files.end());
    long long executions = 0;
    for (std::size_t f = 0; f < files.size(); ++f) {
        const auto bytes = readBytes(files[f]);
        std::fprintf(stderr, "replay %s (%zu bytes)\n", files[f].string().c_str(), bytes.size());
        LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
        ++executions;
        std::uint64_t state = f + 1;
        for (int m = 0; m < mutations; ++m) {
            const auto mutated = mutate(bytes, state);
            LLVMFuzzerTestOneInput(mutated.data(), mutated.size());
            ++executions;
        }
    }
    std::fprintf(stderr, "%lld executions over %zu inputs, no crash\n", executions, files.size());
    return files.empty() ? 1 : 0;
}
