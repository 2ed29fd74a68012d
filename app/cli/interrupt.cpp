// SPDX-License-Identifier: GPL-3.0-or-later
#include "interrupt.h"

#include "exitcodes.h"

#include "dplab/engine/outputfolder.h"

#include <csignal>
#include <cstring>
#include <mutex>
#include <string>
#include <system_error>
#include <thread>

#include <pthread.h>
#include <unistd.h>

namespace dplab::cli {

namespace {

std::mutex &targetMutex()
{
    static auto *m = new std::mutex; // never destroyed: the watcher may use it during exit
    return *m;
}

OutputFolder *gTarget = nullptr;

void say(const std::string &text)
{
    const ssize_t ignored = ::write(2, text.data(), text.size());
    (void)ignored;
}

} // namespace

void installInterruptHandling()
{
    static bool installed = false;
    if (installed)
        return;
    installed = true;
    std::signal(SIGXFSZ, SIG_IGN);
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGINT);
    sigaddset(&set, SIGTERM);
    pthread_sigmask(SIG_BLOCK, &set, nullptr);
    std::thread watcher;
    try {
        watcher = std::thread([set] {
            int signal = 0;
            while (sigwait(&set, &signal) != 0) {
            }
            const std::string name = signal == SIGINT ? "SIGINT" : "SIGTERM";
            std::lock_guard lock(targetMutex()); // held until _exit: no new target, no new commit
            if (gTarget) {
                const bool dropped = gTarget->abandon();
                say("dplab-cli: interrupted (" + name + "): " + gTarget->path()
                    + (dropped ? " keeps its previous results\n" : " has the new results (they were complete)\n"));
            } else {
                say("dplab-cli: interrupted (" + name + ")\n");
            }
            ::_exit(exitCodeOfSignal(signal));
        });
    } catch (const std::system_error &) {
        // The system refused even this one thread: run without the watcher. SIGINT and SIGTERM
        // then end the process the default way; the staging folder it leaves is removed by the
        // next run on the same --out.
        pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
        return;
    }
    watcher.detach();
}

void setInterruptTarget(OutputFolder *folder)
{
    std::lock_guard lock(targetMutex());
    gTarget = folder;
}

} // namespace dplab::cli
