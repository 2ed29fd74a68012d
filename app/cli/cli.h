// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "exitcodes.h"

namespace dplab::cli {

int main(int argc, char **argv);

} // namespace dplab::cli
