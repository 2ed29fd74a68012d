// SPDX-License-Identifier: GPL-3.0-or-later
// dplab-cli: the headless front end (docs/architecture.md §5). All logic is in cli.cpp.
#include "cli.h"

int main(int argc, char **argv)
{
    return dplab::cli::main(argc, argv);
}
