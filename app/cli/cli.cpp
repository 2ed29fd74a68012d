// SPDX-License-Identifier: GPL-3.0-or-later
//
// dplab-cli's entry: --version, --help and the dispatch to the subcommands, one file per family
// (clirun: run, merge, report; cliinspect: validate, list, graph; cliverify; clifrontier;
// clitune), with what they share in clicommon.
#include "cli.h"
#include "clicommon.h"
#include "clifrontier.h"
#include "cliinspect.h"
#include "clirun.h"
#include "clitune.h"
#include "cliverify.h"
#include "interrupt.h"

#include <exception>
#include <iostream>
#include <string>

namespace dplab::cli {

int main(int argc, char **argv)
{
    if (argc < 2)
        return usageError("no command");
    const std::string command = argv[1];
    if (command == "--version" || command == "-V" || command == "version") {
        std::cout << "dplab-cli " << DPLAB_VERSION << "\n";
        return Success;
    }
    // `dplab-cli COMMAND --help` (anywhere after the command) prints the usage and succeeds.
    for (int k = 1; k < argc; ++k) {
        const std::string a = argv[k];
        if (a == "--help" || a == "-h" || (k == 1 && a == "help")) {
            std::cout << kUsage << "and:\n" << kFrontierUsage << kTuneUsage;
            return Success;
        }
    }
    installInterruptHandling();
    try {
        if (command == "run")
            return commandRun(argc, argv);
        if (command == "merge")
            return commandMerge(argc, argv);
        if (command == "verify")
            return commandVerify(argc, argv);
        if (command == "validate")
            return commandValidate(argc, argv);
        if (command == "list")
            return commandList(argc, argv);
        if (command == "graph")
            return commandGraph(argc, argv);
        if (command == "report")
            return commandReport(argc, argv);
        if (command == "frontier")
            return commandFrontier(argc, argv);
        if (command == "tune")
            return commandTune(argc, argv);
    } catch (...) {
        std::string line;
        const int code = exitCodeOfException(std::current_exception(), &line);
        std::cerr << line << "\n";
        return code;
    }
    return usageError("unknown command \"" + command + "\"");
}

} // namespace dplab::cli
