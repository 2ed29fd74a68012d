// SPDX-License-Identifier: GPL-3.0-or-later
//
// The same preset run both ways, interleaved: `dplab-cli run PRESET --threads T` (a child
// process) and the window's own path (MainWindow ▸ Run: ExperimentDocument::validate, the
// RunController's worker thread, the feed, the live plots), headless on the offscreen platform.
// Prints wall and CPU seconds of every round and the medians of the ratios window/CLI (the goal:
// ≤ 1.10). CPU seconds are those of the child (CLI) and of this whole process during the run
// (window: GUI thread and plots included), which a machine shared with other jobs inflates far
// less than wall time. Not a test (tests never time): run it by hand, docs/benchmarks.md.
//
// Usage: QT_QPA_PLATFORM=offscreen dplab_window_vs_cli PRESET_NAME [--cli PATH] [--rounds N]
//        [--threads T] [--iterations K] [--repetitions R] [--only window|cli]
// --only runs one side (to profile it: perf record -g dplab_window_vs_cli NAME --only window).
// PRESET_NAME is a bundled preset (resources/presets/NAME.json), e.g. paper000-fig2-logistic.
#include "experimentdocument.h"
#include "mainwindow.h"
#include "runcontroller.h"

#include <QApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QProcess>
#include <QSettings>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTimer>
#include <QUndoStack>

#include <algorithm>
#include <cstdio>
#include <thread>
#include <vector>

#include <sys/resource.h>

using namespace dplab;

namespace {

struct Times {
    double wall = 0;
    double cpu = 0;
};

double cpuSeconds(int who)
{
    rusage usage{};
    getrusage(who, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec) + static_cast<double>(usage.ru_stime.tv_sec)
        + 1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

double median(std::vector<double> v)
{
    std::sort(v.begin(), v.end());
    const std::size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

bool runCli(const QString &cli, const QStringList &arguments, Times &out)
{
    QProcess process;
    process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    process.setStandardOutputFile(QProcess::nullDevice());
    const double cpuBefore = cpuSeconds(RUSAGE_CHILDREN);
    QElapsedTimer clock;
    clock.start();
    process.start(cli, arguments);
    if (!process.waitForFinished(-1) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        std::fprintf(stderr, "dplab-cli failed (exit %d)\n", process.exitCode());
        return false;
    }
    out.wall = static_cast<double>(clock.nsecsElapsed()) / 1e9;
    out.cpu = cpuSeconds(RUSAGE_CHILDREN) - cpuBefore;
    return true;
}

bool runWindow(const QString &preset, long long iterations, int repetitions, int threads, Times &out)
{
    MainWindow window;
    if (!window.openPreset(preset)) {
        std::fprintf(stderr, "the window could not open %s\n", qPrintable(preset));
        return false;
    }
    window.resize(1400, 900);
    window.show();
    ExperimentDocument *doc = window.document();
    if (iterations > 0)
        doc->setValue("/iterations", iterations, QStringLiteral("bench"));
    if (repetitions > 0)
        doc->setValue("/repetitions", repetitions, QStringLiteral("bench"));
    window.runController()->setThreads(threads);
    QEventLoop loop;
    bool ok = false;
    QObject::connect(window.runController(), &RunController::finished, &loop, [&] {
        ok = true;
        loop.quit();
    });
    QObject::connect(window.runController(), &RunController::failed, &loop, [&](const QString &message) {
        std::fprintf(stderr, "the window's run failed: %s\n", qPrintable(message));
        loop.quit();
    });
    const double cpuBefore = cpuSeconds(RUSAGE_SELF);
    QElapsedTimer clock;
    clock.start();
    window.startRun();
    if (!window.lastRunError().isEmpty()) {
        std::fprintf(stderr, "the window refused the run: %s\n", qPrintable(window.lastRunError()));
        return false;
    }
    loop.exec();
    out.wall = static_cast<double>(clock.nsecsElapsed()) / 1e9;
    out.cpu = cpuSeconds(RUSAGE_SELF) - cpuBefore;
    doc->undoStack()->setClean(); // no save prompt when the window goes
    return ok;
}

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("DPLabBench"));
    QCoreApplication::setApplicationName(QStringLiteral("dplab_window_vs_cli"));
    QSettings().clear();

    QStringList args = app.arguments().mid(1);
    QString name, cli = QStringLiteral(DPLAB_CLI_PATH);
    int rounds = 5;
    int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    long long iterations = 0;
    int repetitions = 0;
    QString only;
    for (int k = 0; k < args.size(); ++k) {
        const QString &a = args[k];
        const bool hasValue = k + 1 < args.size();
        if (a == QLatin1String("--cli") && hasValue)
            cli = args[++k];
        else if (a == QLatin1String("--rounds") && hasValue)
            rounds = std::max(1, args[++k].toInt());
        else if (a == QLatin1String("--threads") && hasValue)
            threads = std::max(1, args[++k].toInt());
        else if (a == QLatin1String("--iterations") && hasValue)
            iterations = args[++k].toLongLong();
        else if (a == QLatin1String("--repetitions") && hasValue)
            repetitions = args[++k].toInt();
        else if (a == QLatin1String("--only") && hasValue)
            only = args[++k];
        else if (!a.startsWith(QLatin1String("--")) && name.isEmpty())
            name = a;
        else {
            std::fprintf(stderr, "usage: dplab_window_vs_cli PRESET_NAME [--cli PATH] [--rounds N] [--threads T] "
                                 "[--iterations K] [--repetitions R] [--only window|cli]\n");
            return 2;
        }
    }
    if (name.isEmpty()) {
        std::fprintf(stderr, "usage: dplab_window_vs_cli PRESET_NAME [--cli PATH] [--rounds N] [--threads T] "
                             "[--iterations K] [--repetitions R] [--only window|cli]\n");
        return 2;
    }
    const QString resource = QStringLiteral(":/presets/%1.json").arg(name);
    const QString file = QStringLiteral(DPLAB_SOURCE_DIR "/resources/presets/%1.json").arg(name);
    QTemporaryDir work;
    QStringList cliArgs{QStringLiteral("run"), file, QStringLiteral("--threads"), QString::number(threads),
                        QStringLiteral("--quiet"), QStringLiteral("--out")};
    std::vector<double> wallRatio, cpuRatio;
    std::printf("%s, %d threads, %d rounds (load %.1f at the start)\n", qPrintable(name), threads, rounds,
                [] {
                    double load[1] = {0};
                    return getloadavg(load, 1) == 1 ? load[0] : 0.0;
                }());
    for (int r = 0; r < rounds; ++r) {
        Times c, w;
        QStringList a = cliArgs;
        a << work.filePath(QStringLiteral("out-%1").arg(r));
        if (iterations > 0)
            a << QStringLiteral("--iterations") << QString::number(iterations);
        if (repetitions > 0)
            a << QStringLiteral("--repetitions") << QString::number(repetitions);
        // Alternate which side goes first, so that a drift in the machine's load hits both.
        bool ok = true;
        if (only == QLatin1String("window") || only == QLatin1String("cli")) {
            ok = only == QLatin1String("window") ? runWindow(resource, iterations, repetitions, threads, w)
                                                 : runCli(cli, a, c);
            if (!ok)
                return 1;
            std::printf("  round %d: %s %.2f s wall, %.2f s CPU\n", r + 1, qPrintable(only),
                        only == QLatin1String("window") ? w.wall : c.wall, only == QLatin1String("window") ? w.cpu : c.cpu);
            continue;
        }
        if (r % 2 == 0)
            ok = runCli(cli, a, c) && runWindow(resource, iterations, repetitions, threads, w);
        else
            ok = runWindow(resource, iterations, repetitions, threads, w) && runCli(cli, a, c);
        if (!ok)
            return 1;
        wallRatio.push_back(w.wall / c.wall);
        cpuRatio.push_back(w.cpu / c.cpu);
        std::printf("  round %d: CLI %.2f s wall, %.2f s CPU; window %.2f s wall, %.2f s CPU; window/CLI %.3f wall, "
                    "%.3f CPU\n",
                    r + 1, c.wall, c.cpu, w.wall, w.cpu, wallRatio.back(), cpuRatio.back());
        std::fflush(stdout);
    }
    if (wallRatio.empty())
        return 0;
    std::printf("median window/CLI: %.3f wall, %.3f CPU (goal: ≤ 1.10)\n", median(wallRatio), median(cpuRatio));
    return 0;
}
