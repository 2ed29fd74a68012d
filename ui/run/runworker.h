// SPDX-License-Identifier: GPL-3.0-or-later
//
// RunWorker: lives on RunController's QThread and runs the core Runner there (STYLE §2 items
// 10–14). Its RunObserver copies each MetricsBatch / StatusEvent into the shared RunFeed and
// emits dataReady() when the feed goes from empty to pending; the controller drains it on the
// GUI thread at most ~20 times a second. Cancel / pause / step go through the RunControl
// atomics the runner polls every iteration — never through queued slots, because run() blocks
// this thread's event loop. No exception leaves run(): failures become failed(message).
//
// Threading: run() executes on the worker thread; dataReady() is emitted from the runner's
// threads (queued to the controller).
#pragma once

#include "dplab/engine/runner.h"

#include <QObject>
#include <QString>

#include <memory>

namespace dplab {

class RunFeed;

class RunWorker : public QObject
{
    Q_OBJECT

public:
    explicit RunWorker(std::shared_ptr<RunFeed> feed);

public slots:
    void run(std::shared_ptr<const dplab::Experiment> experiment, std::shared_ptr<dplab::RunControl> control,
             int threads);

signals:
    void dataReady();
    void finished(std::shared_ptr<const dplab::ExperimentResult> result);
    void failed(const QString &message);

private:
    std::shared_ptr<RunFeed> mFeed;
};

} // namespace dplab
