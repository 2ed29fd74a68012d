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
// Usage: QT_QPA_PLATFORM=offscreen dplab_window_vs_cli PRESET_NAME...|--all [--cli PATH] [--rounds N]
//        [--threads T] [--iterations K] [--repetitions R] [--only window|cli]
// --only runs one side (to profile it: perf record -g dplab_window_vs_cli NAME --only window).
// PRESET_NAME is a bundled preset (resources/presets/NAME.json), e.g. paper000-fig2-logistic.
// Several names, or --all for every bundled preset, run the presets interleaved within each round, the long ones
// shortened by the table kShortened below (the same iterations and repetitions both ways), and
// ends with a Markdown table of the medians (docs/benchmarks.md).
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

/** A long preset's shortening for --all: iterations and repetitions (0: the preset's own), so that
 *  one run takes well under a second of CPU on the development machine. Its recording cadence is kept. */
struct Shortening {
    const char *name;
    long long iterations;
    int repetitions;
};
constexpr Shortening kShortened[] = {
    {"paper000-fig2-diadsp", 1000, 1},
    {"paper000-fig2-logistic", 1000, 2},
    {"paper000-fig3-fashion-mnist", 100, 1},
    {"paper000-fig3-fashion-mnist-nu-scaled", 100, 1},
    {"paper001-fig4-q-sweep", 300, 1},
    {"paper001-fig7-q-sweep", 300, 1},
    {"paper002-fashion-mnist", 1000, 0},
    {"paper002-fig1-digits", 3594, 0},
    {"paper002-fig3-epsilon-sweep", 1797, 0},
    {"paper002-fig4-n-sweep", 1797, 0},
    {"paper002-fig5-topology", 1797, 0},
    {"paper003-fig1-dpop", 0, 10},
    {"paper003-fig2-diadsp", 0, 10},
    {"paper003-fig3-rho-wo-sweep", 500, 2},
    {"paper003-fig4-rho-w-sweep", 500, 2},
    {"teaching-noise-accumulation", 0, 2},
    {"teaching-steady-state-bound", 0, 5},
};

struct Case {
    QString name;
    long long iterations = 0;
    int repetitions = 0;
    std::vector<double> cliCpu, cliWall, wallRatio, cpuRatio;
};

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

bool runRound(const Case &c, const QString &cli, int threads, const QString &only, const QString &out, bool cliFirst,
              Times &cliTimes, Times &windowTimes)
{
    const QString resource = QStringLiteral(":/presets/%1.json").arg(c.name);
    const QString file = QStringLiteral(DPLAB_SOURCE_DIR "/resources/presets/%1.json").arg(c.name);
    QStringList a{QStringLiteral("run"), file, QStringLiteral("--threads"), QString::number(threads),
                  QStringLiteral("--quiet"), QStringLiteral("--out"), out};
    if (c.iterations > 0)
        a << QStringLiteral("--iterations") << QString::number(c.iterations);
    if (c.repetitions > 0)
        a << QStringLiteral("--repetitions") << QString::number(c.repetitions);
    if (only == QLatin1String("window"))
        return runWindow(resource, c.iterations, c.repetitions, threads, windowTimes);
    if (only == QLatin1String("cli"))
        return runCli(cli, a, cliTimes);
    // Alternate which side goes first, so that a drift in the machine's load hits both.
    if (cliFirst)
        return runCli(cli, a, cliTimes) && runWindow(resource, c.iterations, c.repetitions, threads, windowTimes);
    return runWindow(resource, c.iterations, c.repetitions, threads, windowTimes) && runCli(cli, a, cliTimes);
}

void printTable(const std::vector<Case> &cases)
{
    std::printf("\n| preset | shortened to | CLI CPU s | window/CLI, CPU (min–max) | window/CLI, wall | CPU within 10 %% |\n"
                "|---|---|---|---|---|---|\n");
    for (const Case &c : cases) {
        if (c.cpuRatio.empty())
            continue;
        const QString shortened = c.iterations == 0 && c.repetitions == 0
            ? QStringLiteral("—")
            : QStringLiteral("%1 × %2")
                  .arg(c.iterations > 0 ? QString::number(c.iterations) : QStringLiteral("all"))
                  .arg(c.repetitions > 0 ? QString::number(c.repetitions) : QStringLiteral("all"));
        const double cpu = median(c.cpuRatio);
        std::printf("| %s | %s | %.2f | %.2f (%.2f–%.2f) | %.2f | %s |\n", qPrintable(c.name), qPrintable(shortened),
                    median(c.cliCpu), cpu, *std::min_element(c.cpuRatio.begin(), c.cpuRatio.end()),
                    *std::max_element(c.cpuRatio.begin(), c.cpuRatio.end()), median(c.wallRatio),
                    cpu <= 1.10 ? "yes" : "no");
    }
}

const char *kUsage = "usage: dplab_window_vs_cli PRESET_NAME...|--all [--cli PATH] [--rounds N] [--threads T] "
                     "[--iterations K] [--repetitions R] [--only window|cli]\n";

} // namespace

int main(int argc, char **argv)
{
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true);
    QCoreApplication::setOrganizationName(QStringLiteral("DPLabBench"));
    QCoreApplication::setApplicationName(QStringLiteral("dplab_window_vs_cli"));
    QSettings().clear();

    QStringList args = app.arguments().mid(1);
    QStringList names;
    QString cli = QStringLiteral(DPLAB_CLI_PATH);
    int rounds = 5;
    int threads = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    long long iterations = 0;
    int repetitions = 0;
    bool all = false;
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
        else if (a == QLatin1String("--all"))
            all = true;
        else if (!a.startsWith(QLatin1String("--")))
            names << a;
        else {
            std::fprintf(stderr, "%s", kUsage);
            return 2;
        }
    }
    if (names.isEmpty() == !all) {
        std::fprintf(stderr, "%s", kUsage);
        return 2;
    }
    std::vector<Case> cases;
    if (all || names.size() > 1) {
        if (all)
            for (const QString &f : QDir(QStringLiteral(DPLAB_SOURCE_DIR "/resources/presets"))
                                        .entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name))
                names << f.chopped(5);
        for (const QString &n : names) {
            Case c{n};
            for (const Shortening &s : kShortened)
                if (c.name == QLatin1String(s.name)) {
                    c.iterations = s.iterations;
                    c.repetitions = s.repetitions;
                }
            cases.push_back(c);
        }
    } else {
        cases.push_back(Case{names.front(), iterations, repetitions});
    }
    QTemporaryDir work;
    std::printf("%s, %d threads, %d rounds (load %.1f at the start)\n", all ? "every preset" : qPrintable(names.join(QStringLiteral(", "))),
                threads, rounds, [] {
                    double load[1] = {0};
                    return getloadavg(load, 1) == 1 ? load[0] : 0.0;
                }());
    int runs = 0;
    for (int r = 0; r < rounds; ++r) {
        for (std::size_t i = 0; i < cases.size(); ++i) {
            Case &c = cases[i];
            Times t, w;
            const QString out = work.filePath(QStringLiteral("out-%1").arg(runs++));
            if (!runRound(c, cli, threads, only, out, (r + i) % 2 == 0, t, w))
                return 1;
            if (!only.isEmpty()) {
                const Times &one = only == QLatin1String("window") ? w : t;
                std::printf("  round %d %s: %s %.2f s wall, %.2f s CPU\n", r + 1, qPrintable(c.name), qPrintable(only),
                            one.wall, one.cpu);
                continue;
            }
            c.cliCpu.push_back(t.cpu);
            c.cliWall.push_back(t.wall);
            c.wallRatio.push_back(w.wall / t.wall);
            c.cpuRatio.push_back(w.cpu / t.cpu);
            std::printf("  round %d %s: CLI %.2f s wall, %.2f s CPU; window %.2f s wall, %.2f s CPU; window/CLI %.3f "
                        "wall, %.3f CPU\n",
                        r + 1, qPrintable(c.name), t.wall, t.cpu, w.wall, w.cpu, c.wallRatio.back(), c.cpuRatio.back());
            std::fflush(stdout);
        }
    }
    if (!only.isEmpty())
        return 0;
    if (cases.size() == 1)
        std::printf("median window/CLI: %.3f wall, %.3f CPU (goal: ≤ 1.10)\n", median(cases[0].wallRatio),
                    median(cases[0].cpuRatio));
    else
        printTable(cases);
    std::printf("(load %.1f at the end)\n", [] {
        double load[1] = {0};
        return getloadavg(load, 1) == 1 ? load[0] : 0.0;
    }());
    return 0;
}
