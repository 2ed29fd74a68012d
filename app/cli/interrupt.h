// SPDX-License-Identifier: GPL-3.0-or-later
//
// SIGINT and SIGTERM for dplab-cli: installInterruptHandling() blocks both in the calling
// thread — call it first in main, before any thread exists, so every thread inherits the mask —
// and starts a watcher thread that waits for them. On one, the watcher abandons the output
// folder being written (OutputFolder::abandon: the staged files go, the folder keeps its
// previous set; a commit in progress, a few renames, is let finish) and ends the process with
// exit code 128 + the signal (130 for SIGINT, 143 for SIGTERM). Nothing waits for the runner,
// so the process is gone within milliseconds. If the system refuses the watcher thread, the
// process runs without it and the two signals end it the default way.
// SIGXFSZ is ignored, so a file-size limit fails the write (and the staged set is dropped)
// instead of killing the process mid-file.
//
// Threading: setInterruptTarget may be called from any thread.
#pragma once

namespace dplab {
class OutputFolder;
}

namespace dplab::cli {

void installInterruptHandling();

/** The folder to abandon on a signal (nullptr: none). The folder must outlive the target. */
void setInterruptTarget(OutputFolder *folder);

/** Points the SIGINT/SIGTERM watcher at a folder for as long as it lives. */
class InterruptTarget
{
public:
    explicit InterruptTarget(OutputFolder *folder) { setInterruptTarget(folder); }
    ~InterruptTarget() { setInterruptTarget(nullptr); }
    InterruptTarget(const InterruptTarget &) = delete;
    InterruptTarget &operator=(const InterruptTarget &) = delete;
};

} // namespace dplab::cli
