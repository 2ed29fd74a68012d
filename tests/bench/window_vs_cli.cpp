// SPDX-License-Identifier: GPL-3.0-or-later
//
// The same preset run both ways, interleaved: `dplab-cli run PRESET --threads T` (a child
// process) and the window's own path (MainWindow ▸ Run: validation, the RunController's worker
// thread, the feed, the live plots, the result views), headless on the offscreen platform.
// Prints CPU and wall seconds of every round and the medians of the ratios window/CLI (the goal:
// ≤ 1.10). Not a test (tests never time): run it by hand, docs/benchmarks.md.
//
// What each side counts (the same for every preset):
// - CLI: the child process from exec to exit — its start-up, the run and the output files it
//   writes (`--out`). CPU = the child's user + system time (getrusage(RUSAGE_CHILDREN) around the
//   one child; Linux adds each reaped child's exact run time, not clock ticks).
// - window: from Run to the moment the window is idle again after `RunController::finished` —
//   validation, the run's threads, the feed, the live plots, the `finished` handlers (result
//   views, run history) and whatever they deferred (the plots' queued redraws, the full-resolution
//   reload). CPU = this process' CPU time over that interval (CLOCK_PROCESS_CPUTIME_ID, every
//   thread, ns resolution); wall = Run to the last time the GUI thread went idle (the end of the
//   settle period, kSettleMs without events, is not counted). The window writes no files on Run
//   (its exports are separate commands), so writing is not added to its side; the window's
//   creation and the preset's opening happen before Run and are not counted.
// Before the rounds, one window run (not counted) warms the process' shared caches (fonts,
// glyphs, styles), as in a window that has been open for a while; the CLI starts cold each time.
// A preset whose CLI run takes less CPU than --min-cpu (default 0.3 s) is run k times per side
// and round, k = ⌈min-cpu / its CPU⌉ (measured once before the rounds; --repeat K sets k): k CLI
// processes and k fresh windows (one Run each), alternating, so that a round's CPU times are
// hundreds of milliseconds and a per-run cost of 1 ms shows as well as a ratio of 1.1.
//
// Usage: QT_QPA_PLATFORM=offscreen dplab_window_vs_cli PRESET_NAME...|--all [--cli PATH] [--rounds N]
//        [--threads T] [--iterations K] [--repetitions R] [--only window|cli] [--repeat K] [--min-cpu S]
// --only runs one side (to profile it: perf record -g dplab_window_vs_cli NAME --only window).
// --perf-ctl CTL,ACK (two FIFOs, as `perf record -D -1 --control fifo:CTL,ACK`) enables perf's
// events from Run to the window's idle moment only, so that the profile leaves out the window's
// creation and the preset's opening. --count-redraws prints how often each window run redrew its plots.
// PRESET_NAME is a bundled preset (resources/presets/NAME.json), e.g. paper000-fig2-logistic.
// Several names, or --all for every bundled preset, run the presets interleaved within each round, the long ones
// shortened by the table kShortened below (the same iterations and repetitions both ways), and
// ends with a Markdown table of the medians (docs/benchmarks.md).
#include "experimentdocument.h"
#include "mainwindow.h"
#include "runcontroller.h"

#include <qcustomplot.h>

#include <QAbstractEventDispatcher>
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
#include <cmath>
#include <ctime>
#include <functional>
#include <map>
#include <string>
#include <utility>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace dplab;

namespace {

struct Times {
    double wall = 0;
    double cpu = 0;
    double cpuAfterFinished = 0; ///< window: of `cpu`, the work deferred past the `finished` handlers
    Times &operator+=(const Times &o)
    {
        wall += o.wall;
        cpu += o.cpu;
        cpuAfterFinished += o.cpuAfterFinished;
        return *this;
    }
};

/** User + system seconds of the reaped children (Linux: the sum of their exact run times). */
double childrenCpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_CHILDREN, &usage);
    return static_cast<double>(usage.ru_utime.tv_sec) + static_cast<double>(usage.ru_stime.tv_sec)
        + 1e-6 * static_cast<double>(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec);
}

/** CPU seconds of this whole process, every thread (ns resolution). */
double processCpuSeconds()
{
    timespec t{};
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return static_cast<double>(t.tv_sec) + 1e-9 * static_cast<double>(t.tv_nsec);
}

/** perf's control FIFOs (--perf-ctl): events on for the timed part of the window's runs only. */
struct PerfControl {
    int ctl = -1;
    int ack = -1;
    bool open(const QString &fifos)
    {
        const QStringList parts = fifos.split(QLatin1Char(','));
        if (parts.size() != 2)
            return false;
        ctl = ::open(qPrintable(parts[0]), O_WRONLY);
        ack = ::open(qPrintable(parts[1]), O_RDONLY);
        return ctl >= 0 && ack >= 0;
    }
    /** Sends "enable" or "disable" and waits for perf's acknowledgement. */
    void send(const char *command) const
    {
        if (ctl < 0)
            return;
        const std::string line = std::string(command) + "\n";
        if (::write(ctl, line.data(), line.size()) < 0)
            return;
        char reply[16];
        if (::read(ack, reply, sizeof reply) < 0)
            return;
    }
};
PerfControl gPerf;
bool gCountRedraws = false; ///< --count-redraws: print each window run's plot redraws

/** After `finished`, the window counts as idle once its GUI thread had no event for this long
 *  (longer than the full-resolution reload's first wait, MetricPlot's FullResolutionQueue). */
constexpr int kSettleMs = 300;
constexpr qint64 kSettleLimitMs = 10000; ///< a settle period at most (a window that never settles)

/** Calls `onEvent` for every event the GUI thread delivers, except to `ignored` (the bench's own
 *  timer). */
class EventWatch : public QObject
{
public:
    EventWatch(QObject *ignored, std::function<void()> onEvent)
        : mIgnored(ignored)
        , mOnEvent(std::move(onEvent))
    {
        QCoreApplication::instance()->installEventFilter(this);
    }
    ~EventWatch() override { QCoreApplication::instance()->removeEventFilter(this); }
    bool eventFilter(QObject *object, QEvent *) override
    {
        if (object != mIgnored)
            mOnEvent();
        return false;
    }

private:
    QObject *mIgnored;
    std::function<void()> mOnEvent;
};

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
    int repeat = 1; ///< runs per side and round
    std::vector<double> cliCpu, windowExtra, windowAfter, wallRatio, cpuRatio; ///< per run: s
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
    const double cpuBefore = childrenCpuSeconds();
    QElapsedTimer clock;
    clock.start();
    process.start(cli, arguments);
    if (!process.waitForFinished(-1) || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        std::fprintf(stderr, "dplab-cli failed (exit %d)\n", process.exitCode());
        return false;
    }
    out.wall = static_cast<double>(clock.nsecsElapsed()) / 1e9;
    out.cpu = childrenCpuSeconds() - cpuBefore;
    return true;
}

/** Runs the event loop until the GUI thread had no event for kSettleMs (at most kSettleLimitMs):
 *  before Run, the window's creation, the preset's opening and the bench's edits settle (the
 *  experiment panel validates an edit after a pause). */
void settle()
{
    QEventLoop loop;
    QTimer idle;
    idle.setSingleShot(true);
    QElapsedTimer clock;
    clock.start();
    qint64 last = 0;
    EventWatch watch(&idle, [&] { last = clock.nsecsElapsed(); });
    QObject::connect(&idle, &QTimer::timeout, &loop, [&] {
        const qint64 quiet = (clock.nsecsElapsed() - last) / 1000000;
        if (quiet >= kSettleMs || clock.nsecsElapsed() / 1000000 > kSettleLimitMs)
            loop.quit();
        else
            idle.start(static_cast<int>(kSettleMs - quiet));
    });
    idle.start(kSettleMs);
    loop.exec();
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
    settle(); // the window's first layout and redraws, the edits' validation: not part of the run
    // Every event the GUI thread handles for the window (the bench's own timer's aside) marks it
    // busy; the moment it next waits for events is the end of that work (wall time).
    QEventLoop loop;
    QTimer idle;
    idle.setSingleShot(true);
    QElapsedTimer clock;
    qint64 lastEvent = 0, lastBusy = 0; // ns from Run
    qint64 finishedAt = 0;
    bool pending = false, ok = false;
    double cpuBefore = 0, cpuAtFinished = 0;
    EventWatch watch(&idle, [&] {
        pending = true;
        lastEvent = clock.nsecsElapsed();
    });
    const QMetaObject::Connection blocks =
        QObject::connect(QAbstractEventDispatcher::instance(), &QAbstractEventDispatcher::aboutToBlock, &loop, [&] {
            if (std::exchange(pending, false))
                lastBusy = clock.nsecsElapsed();
        });
    // After `finished`: quit once kSettleMs passed without an event (at most 10 s after it).
    QObject::connect(&idle, &QTimer::timeout, &loop, [&] {
        const qint64 quiet = (clock.nsecsElapsed() - std::max(lastEvent, lastBusy)) / 1000000;
        if (quiet >= kSettleMs || (clock.nsecsElapsed() - finishedAt) / 1000000 > kSettleLimitMs)
            loop.quit();
        else
            idle.start(static_cast<int>(kSettleMs - quiet));
    });
    auto end = [&] {
        finishedAt = clock.nsecsElapsed();
        idle.start(kSettleMs);
    };
    QObject::connect(window.runController(), &RunController::finished, &loop, [&] {
        ok = true;
        cpuAtFinished = processCpuSeconds();
        end();
    });
    QObject::connect(window.runController(), &RunController::failed, &loop, [&](const QString &message) {
        std::fprintf(stderr, "the window's run failed: %s\n", qPrintable(message));
        end();
    });
    std::map<QString, int> redraws; // by the plot's parent: PlotPanel (live), QSplitter (comparison), SweepView
    if (gCountRedraws)
        for (QCustomPlot *plot : window.findChildren<QCustomPlot *>()) {
            const QString where = QString::fromLatin1(plot->parentWidget()->metaObject()->className());
            QObject::connect(plot, &QCustomPlot::afterReplot, &loop, [&redraws, where] { ++redraws[where]; });
        }
    gPerf.send("enable");
    cpuBefore = processCpuSeconds();
    clock.start();
    window.startRun();
    if (!window.lastRunError().isEmpty()) {
        std::fprintf(stderr, "the window refused the run: %s\n", qPrintable(window.lastRunError()));
        return false;
    }
    loop.exec();
    const double cpuEnd = processCpuSeconds();
    gPerf.send("disable");
    if (gCountRedraws) {
        std::printf("    plot redraws:");
        for (const auto &[where, count] : redraws)
            std::printf(" %s %d", qPrintable(where), count);
        std::printf("\n");
    }
    // CPU: the quiet settle period is counted, but an idle window uses none (checked with
    // `perf`: no timer runs in a window without a run).
    out.wall = static_cast<double>(lastBusy) / 1e9;
    out.cpu = cpuEnd - cpuBefore;
    out.cpuAfterFinished = cpuEnd - cpuAtFinished;
    doc->undoStack()->setClean(); // no save prompt when the window goes
    return ok;
}

QStringList cliArguments(const Case &c, int threads, const QString &out)
{
    const QString file = QStringLiteral(DPLAB_SOURCE_DIR "/resources/presets/%1.json").arg(c.name);
    QStringList a{QStringLiteral("run"), file, QStringLiteral("--threads"), QString::number(threads),
                  QStringLiteral("--quiet"), QStringLiteral("--out"), out};
    if (c.iterations > 0)
        a << QStringLiteral("--iterations") << QString::number(c.iterations);
    if (c.repetitions > 0)
        a << QStringLiteral("--repetitions") << QString::number(c.repetitions);
    return a;
}

/** One round of a case: c.repeat runs per side (CLI processes and fresh windows), alternating,
 *  `cliFirst` deciding which side opens; the times are summed over the runs. */
bool runRound(const Case &c, const QString &cli, int threads, const QString &only, const QString &out, bool cliFirst,
              Times &cliTimes, Times &windowTimes)
{
    const QString resource = QStringLiteral(":/presets/%1.json").arg(c.name);
    const QStringList a = cliArguments(c, threads, out);
    for (int k = 0; k < c.repeat; ++k) {
        Times t, w;
        const bool cliNow = only == QLatin1String("cli") || (only.isEmpty() && (cliFirst == (k % 2 == 0)));
        const bool windowNow = only == QLatin1String("window") || only.isEmpty();
        // Alternate which side goes first, so that a drift in the machine's load hits both.
        if (cliNow && !runCli(cli, a, t))
            return false;
        if (windowNow && !runWindow(resource, c.iterations, c.repetitions, threads, w))
            return false;
        if (only.isEmpty() && !cliNow && !runCli(cli, a, t))
            return false;
        cliTimes += t;
        windowTimes += w;
    }
    return true;
}

void printTable(const std::vector<Case> &cases)
{
    std::printf("\n| preset | shortened to | k | CLI CPU ms a run | window − CLI, CPU ms a run | of which after `finished` "
                "| window/CLI, CPU (min–max) | window/CLI, wall | CPU within 10 %% |\n"
                "|---|---|---|---|---|---|---|---|---|\n");
    for (const Case &c : cases) {
        if (c.cpuRatio.empty())
            continue;
        const QString shortened = c.iterations == 0 && c.repetitions == 0
            ? QStringLiteral("—")
            : QStringLiteral("%1 × %2")
                  .arg(c.iterations > 0 ? QString::number(c.iterations) : QStringLiteral("all"))
                  .arg(c.repetitions > 0 ? QString::number(c.repetitions) : QStringLiteral("all"));
        const double cpu = median(c.cpuRatio);
        std::printf("| %s | %s | %d | %.1f | %+.1f | %.1f | %.3f (%.3f–%.3f) | %.2f | %s |\n", qPrintable(c.name),
                    qPrintable(shortened), c.repeat, 1e3 * median(c.cliCpu), 1e3 * median(c.windowExtra),
                    1e3 * median(c.windowAfter), cpu, *std::min_element(c.cpuRatio.begin(), c.cpuRatio.end()),
                    *std::max_element(c.cpuRatio.begin(), c.cpuRatio.end()), median(c.wallRatio),
                    cpu <= 1.10 ? "yes" : "no");
    }
}

const char *kUsage = "usage: dplab_window_vs_cli PRESET_NAME...|--all [--cli PATH] [--rounds N] [--threads T] "
                     "[--iterations K] [--repetitions R] [--only window|cli] [--repeat K] [--min-cpu S] [--perf-ctl CTL,ACK] [--count-redraws]\n";

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
    int repeat = 0;      // 0: from --min-cpu
    double minCpu = 0.3; // s of CLI CPU per side and round
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
        else if (a == QLatin1String("--repeat") && hasValue)
            repeat = std::max(1, args[++k].toInt());
        else if (a == QLatin1String("--min-cpu") && hasValue)
            minCpu = args[++k].toDouble();
        else if (a == QLatin1String("--perf-ctl") && hasValue) {
            if (!gPerf.open(args[++k])) {
                std::fprintf(stderr, "--perf-ctl: cannot open the FIFOs %s\n", qPrintable(args[k]));
                return 2;
            }
        } else if (a == QLatin1String("--count-redraws"))
            gCountRedraws = true;
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
    // k per case: one CLI run before the rounds (not counted) says how many reach --min-cpu.
    for (Case &c : cases) {
        c.repeat = repeat;
        if (repeat > 0)
            continue;
        Times t;
        if (!runCli(cli, cliArguments(c, threads, work.filePath(QStringLiteral("out-%1").arg(runs++))), t))
            return 1;
        c.repeat = static_cast<int>(std::clamp(std::ceil(minCpu / std::max(t.cpu, 1e-3)), 1.0, 20.0));
    }
    // One window run before the rounds, not counted: the process' first window pays once for
    // caches every later window shares (fonts, glyphs, styles), as a window open for a while has.
    if (only != QLatin1String("cli")) {
        Times warm;
        const PerfControl perf = std::exchange(gPerf, PerfControl{});
        const bool warmed = runWindow(QStringLiteral(":/presets/%1.json").arg(cases.front().name), cases.front().iterations,
                                      cases.front().repetitions, threads, warm);
        gPerf = perf;
        if (!warmed)
            return 1;
    }
    for (int r = 0; r < rounds; ++r) {
        for (std::size_t i = 0; i < cases.size(); ++i) {
            Case &c = cases[i];
            Times t, w;
            const QString out = work.filePath(QStringLiteral("out-%1").arg(runs++));
            if (!runRound(c, cli, threads, only, out, (r + i) % 2 == 0, t, w))
                return 1;
            const double k = c.repeat;
            if (!only.isEmpty()) {
                const Times &one = only == QLatin1String("window") ? w : t;
                std::printf("  round %d %s (%d runs): %s %.1f ms wall, %.1f ms CPU a run\n", r + 1, qPrintable(c.name),
                            c.repeat, qPrintable(only), 1e3 * one.wall / k, 1e3 * one.cpu / k);
                continue;
            }
            c.cliCpu.push_back(t.cpu / k);
            c.windowExtra.push_back((w.cpu - t.cpu) / k);
            c.windowAfter.push_back(w.cpuAfterFinished / k);
            c.wallRatio.push_back(w.wall / t.wall);
            c.cpuRatio.push_back(w.cpu / t.cpu);
            std::printf("  round %d %s (%d runs a side): CLI %.1f ms wall, %.1f ms CPU; window %.1f ms wall, %.1f ms CPU "
                        "(%.1f after `finished`) a run; window/CLI %.3f wall, %.3f CPU\n",
                        r + 1, qPrintable(c.name), c.repeat, 1e3 * t.wall / k, 1e3 * t.cpu / k, 1e3 * w.wall / k,
                        1e3 * w.cpu / k, 1e3 * w.cpuAfterFinished / k, c.wallRatio.back(), c.cpuRatio.back());
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
