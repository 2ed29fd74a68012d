// SPDX-License-Identifier: GPL-3.0-or-later
//
// ThreadSanitizer canary (built only with DPLAB_SANITIZE=thread): a real data race between the
// GUI thread and a slot run by Qt's event loop on a worker QThread, the shape of DPLab's run
// hand-off. The ctest passes only if ThreadSanitizer reports it with tests/tsan.supp in force:
// the suppressions silence Qt's own hand-offs, not races in DPLab's code.
#include <QCoreApplication>
#include <QObject>
#include <QThread>

#include <atomic>
#include <cstdio>

namespace {

int gShared = 0;                   // written by both threads, no lock: the race
std::atomic<bool> gWritten{false}; // relaxed: orders nothing, so TSan sees no happens-before

void canaryWrite(int value)
{
    gShared = value;
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QThread thread;
    QObject worker;
    worker.moveToThread(&thread);
    thread.start();
    QMetaObject::invokeMethod(&worker, [] {
        canaryWrite(1);
        gWritten.store(true, std::memory_order_relaxed);
    }, Qt::QueuedConnection);
    while (!gWritten.load(std::memory_order_relaxed))
        QThread::yieldCurrentThread();
    canaryWrite(2);
    thread.quit();
    thread.wait();
    std::printf("gShared = %d\n", gShared);
    return 0;
}
