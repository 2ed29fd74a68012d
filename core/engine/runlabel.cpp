// SPDX-License-Identifier: GPL-3.0-or-later
#include "dplab/engine/runlabel.h"

#include "dplab/algo/algorithm.h"

namespace dplab {

std::string runLabelProblem(const std::string &label)
{
    if (label.empty())
        return "must not be empty";
    for (std::size_t i = 0; i < label.size(); ++i) {
        const auto c = static_cast<unsigned char>(label[i]);
        // C0 controls and DEL; C1 controls (U+0080..U+009F) are 0xC2 0x80..0x9F in UTF-8.
        const bool c1 = c == 0xC2 && i + 1 < label.size() && static_cast<unsigned char>(label[i + 1]) >= 0x80
                        && static_cast<unsigned char>(label[i + 1]) <= 0x9F;
        if (c < 0x20 || c == 0x7F || c1)
            return "must not contain control characters (a newline, a tab, …); any other text is fine";
    }
    return {};
}

namespace {

bool isSpace(char c) { return c == ' '; }

std::string trim(std::string s)
{
    while (!s.empty() && isSpace(s.back()))
        s.pop_back();
    std::size_t b = 0;
    while (b < s.size() && isSpace(s[b]))
        ++b;
    return s.substr(b);
}

/** The length in characters of UTF-8 text. */
std::size_t characters(const std::string &s)
{
    std::size_t n = 0;
    for (char c : s)
        if ((static_cast<unsigned char>(c) & 0xC0) != 0x80)
            ++n;
    return n;
}

} // namespace

std::string defaultRunLabel(const AlgorithmDescriptor &algorithm)
{
    std::string name = algorithm.name;
    if (const auto cut = name.find_first_of("(,;"); cut != std::string::npos)
        name = name.substr(0, cut);
    std::string label;
    for (char c : trim(name)) // drop anything that is not a valid label character
        label += static_cast<unsigned char>(c) < 0x20 || c == 0x7F ? ' ' : c;
    label = trim(label);
    while (characters(label) > kDefaultRunLabelMax) {
        const auto space = label.find_last_of(' ');
        if (space == std::string::npos || space == 0) {
            // One long word: cut at a character boundary.
            std::size_t bytes = 0, chars = 0;
            while (bytes < label.size() && chars < kDefaultRunLabelMax) {
                ++bytes;
                while (bytes < label.size() && (static_cast<unsigned char>(label[bytes]) & 0xC0) == 0x80)
                    ++bytes;
                ++chars;
            }
            label.resize(bytes);
            break;
        }
        label = trim(label.substr(0, space));
    }
    if (!runLabelProblem(label).empty())
        label = algorithm.id.empty() ? std::string("run") : algorithm.id;
    return label;
}

} // namespace dplab
